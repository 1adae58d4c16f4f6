// Driving an interactive shell through AgentVM.openTerminal as a person
// would: type bytes, wait for what appears, read the screen.

import type { Terminal } from '../../src/host/api/terminal.js';
import { Screen } from './interactive-screen.js';

const dec = new TextDecoder();

export class TermDriver {
  readonly screen: Screen;
  raw = '';
  private waiters = new Set<() => void>();

  constructor(readonly term: Terminal, cols = 80) {
    this.screen = new Screen(cols);
    term.onData((b) => {
      const s = dec.decode(b, { stream: true });
      this.raw += s;
      // Waiters look again once the screen shows it.
      void this.screen.write(s).then(() => this.waiters.forEach((w) => w()));
    });
  }

  type(s: string): void {
    this.term.write(s);
  }

  /** Resolves once `pred` holds over everything received; rejects with the screen after `ms`. */
  until(pred: (raw: string) => boolean, ms = 8000, what = 'output'): Promise<void> {
    if (pred(this.raw)) return this.screen.flush();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!pred(this.raw)) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        // What the test reads next is on the screen.
        void this.screen.flush().then(resolve);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}; screen:\n${this.screen.text().join('\n')}\nraw: ${JSON.stringify(this.raw.slice(-400))}`));
      }, ms);
      this.waiters.add(check);
    });
  }

  /** Appearances of `needle` at the start of a line (the editor's redraws start theirs with a bare CR). */
  count(needle: string, raw = this.raw): number {
    return raw.split('\n' + needle).length - 1 + (raw.startsWith(needle) ? 1 : 0);
  }

  /** Wait for the `n`th appearance of `needle` at the start of a line. */
  nth(needle: string, n: number, ms?: number): Promise<void> {
    return this.until((r) => this.count(needle, r) >= n, ms, `${n} × ${JSON.stringify(needle)}`);
  }

  /** Type a line and wait for the next prompt (`prompt` is the PS1 text). */
  async run(line: string, prompt: string, ms?: number): Promise<void> {
    const n = this.count(prompt);
    this.type(line + '\r');
    await this.nth(prompt, n + 1, ms);
  }

  /** Screen lines between the last two prompts' lines: a command's output. */
  outputOf(prompt: string): string[] {
    const t = this.screen.text();
    const idx = t.map((l, i) => (l.startsWith(prompt.trimEnd()) ? i : -1)).filter((i) => i >= 0);
    const [a, b] = idx.slice(-2);
    return t.slice(a + 1, b);
  }
}

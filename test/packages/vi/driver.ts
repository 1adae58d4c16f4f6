// Driving vi on a pseudo-terminal through AgentVM.openTerminal: type keys,
// wait for the screen to show something, read it.

import type { Terminal } from '../../../src/host/api/terminal.js';
import { VScreen } from './vscreen.js';

const dec = new TextDecoder();

export class ViDriver {
  readonly screen: VScreen;
  raw = '';
  private waiters = new Set<() => void>();

  constructor(
    readonly term: Terminal,
    rows: number,
    cols: number,
  ) {
    this.screen = new VScreen(rows, cols);
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

  /** Resolves once `pred` holds; rejects with the screen after `ms`. */
  until(pred: () => boolean, what: string, ms = 8000): Promise<void> {
    if (pred()) return this.screen.flush();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!pred()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        // What the test reads next is on the screen.
        void this.screen.flush().then(resolve);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}; screen:\n${this.screen.text().join('\n')}\nraw tail: ${JSON.stringify(this.raw.slice(-300))}`));
      }, ms);
      this.waiters.add(check);
    });
  }

  /** Wait until some screen line matches. */
  see(re: RegExp | string, ms?: number): Promise<void> {
    const m = (l: string) => (typeof re === 'string' ? l.includes(re) : re.test(l));
    return this.until(() => this.screen.text().some(m), JSON.stringify(String(re)), ms);
  }

  /** Wait until the ruler shows line,column. */
  at(line: number, col: number | string): Promise<void> {
    const want = `${line},${col}`;
    return this.until(() => /(\d+,\S+) +(All|Top|Bot|\d+%)$/.exec(this.screen.bottom())?.[1] === want, `the cursor at ${want}`);
  }

  /** Wait until the screen's first rows are these. */
  rows(want: string[]): Promise<void> {
    return this.until(() => this.screen.text().slice(0, want.length).join('\n') === want.join('\n'), JSON.stringify(want));
  }

  /** Type keys, then wait for the ruler. */
  async keys(s: string, line: number, col: number | string): Promise<void> {
    this.type(s);
    await this.at(line, col);
  }
}

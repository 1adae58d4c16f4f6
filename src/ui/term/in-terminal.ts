// exec(cmd, {inTerminal: true}): run a command in the visible terminal session
// so a person watches it, and still return {stdout, stderr, exitCode}.
//
// The command is typed into the interactive shell inside a wrapper
// (docs/decisions/0018-playground.md):
//
//   { { { CMD
//   } [< IN]; echo $? > S; } 2>&1 >&3 | tee E >&2; } 3>&1 | tee O; printf '\e]7770;TOKEN\a'
//
// stdout goes through `tee O` and stderr through `tee E`, so both show on the
// screen and land exactly in files; S gets the status. The final OSC 7770
// escape (invisible: xterm hands it to our handler) says the pipeline is done,
// as the exec protocol's sentinel does, with a fresh random token per call.
// The files are under /tmp/.agentos-term/ and removed after reading.

import type { IDisposable } from '@xterm/xterm';
import type { ExecResult } from '../../host/browser/index.js';
import type { ViewedVM } from './vm-view.js';
import type { XtermView } from './xterm-view.js';

export interface InTerminalOptions {
  stdin?: Uint8Array | string;
  timeoutMs?: number;
}

const OSC = 7770;
const DIR = '/tmp/.agentos-term';
const dec = new TextDecoder();

function token(): string {
  const b = crypto.getRandomValues(new Uint8Array(12));
  return [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
}

export class InTerminalRunner {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly waiting = new Map<string, () => void>();
  private readonly osc: IDisposable;

  constructor(private readonly vm: ViewedVM, private readonly view: XtermView) {
    this.osc = view.xterm.parser.registerOscHandler(OSC, (data) => {
      this.waiting.get(data)?.();
      return true;
    });
  }

  /** Calls are serialised, as a person typing them one after another would be. */
  exec(cmd: string, opts: InTerminalOptions = {}): Promise<ExecResult> {
    const run = this.queue.then(() => this.run(cmd, opts));
    this.queue = run.catch(() => {});
    return run;
  }

  private async run(cmd: string, opts: InTerminalOptions): Promise<ExecResult> {
    const t = token();
    const [o, e, s, i] = ['o', 'e', 's', 'i'].map((x) => `${DIR}/${t}.${x}`);
    await this.vm.vm.syscall('mkdir', DIR, 0o1777).catch(() => {}); // in /tmp, which is always there
    await this.vm.vm.syscall('chmod', DIR, 0o1777).catch(() => {});
    if (opts.stdin !== undefined) await this.vm.writeFile(i, opts.stdin, 0o600);
    const done = new Promise<void>((resolve) => this.waiting.set(t, resolve));
    const redirect = opts.stdin !== undefined ? ` < ${i}` : '';
    const line = `{ { { ${cmd}\n}${redirect}; echo $? > ${s}; } 2>&1 >&3 | tee ${e} >&2; } 3>&1 | tee ${o}; printf '\\033]${OSC};%s\\007' ${t}\r`;
    let timedOut = false;
    const timer = opts.timeoutMs === undefined ? null : setTimeout(() => {
      timedOut = true;
      this.view.type('\x03');
    }, opts.timeoutMs);
    try {
      this.view.type(line);
      await done;
    } finally {
      if (timer) clearTimeout(timer);
      this.waiting.delete(t);
    }
    const read = (p: string) => this.vm.readFile(p).then((b) => dec.decode(b), () => '');
    const [stdout, stderr, status] = await Promise.all([read(o), read(e), read(s)]);
    for (const p of [o, e, s, i]) await this.vm.vm.syscall('unlink', p).catch(() => {});
    const exitCode = timedOut ? 124 : Number(status.trim() || 130); // no status: the group was interrupted
    return { stdout, stderr, exitCode, timedOut };
  }

  dispose(): void {
    this.osc.dispose();
  }
}

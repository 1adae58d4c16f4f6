// The state one gzip run shares between files: options, stdout, the exit
// status with GNU's rules (an error is 1 and sticks; a warning makes 0 into 2,
// even when -q hides it), and the -l totals.

import { strerror, SysError } from '../../../abi/errno.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import type { Sys } from '../../../libc/sys.js';
import { isBrokenPipe, WriteError, Writer } from '../../../userland/lib/writer.js';

export interface GzOptions {
  decompress: boolean;
  stdout: boolean;
  force: boolean;
  keep: boolean;
  list: boolean;
  test: boolean;
  recursive: boolean;
  quiet: boolean;
  verbose: number;
  level: number;
  suffix: string;
  /** -n (true) / -N (false); null: the default, which is -N for compression and -n for decompression. */
  noName: boolean | null;
}

export class Gz {
  opts!: GzOptions;
  status = 0;
  readonly sys: Sys;
  readonly out: Writer;
  /** -l: totals over the files listed, and the last file's header size (GNU uses it for the total ratio). */
  list = { shown: false, totalIn: 0, totalOut: 0, headerBytes: 0 };

  constructor(readonly os: AgentosApi) {
    this.sys = os.sys;
    this.out = new Writer(os.sys, 1);
  }

  /** A warning: shown unless -q; the status becomes 2 unless already set. */
  warn(msg: string, leadingNewline = false): void {
    if (!this.opts.quiet) this.eprint(`${leadingNewline ? '\n' : ''}gzip: ${msg}\n`);
    if (this.status === 0) this.status = 2;
  }

  /** An error about a file; decompression errors start with a newline, as in GNU gzip. */
  error(msg: string, leadingNewline = false): void {
    this.eprint(`${leadingNewline ? '\n' : ''}gzip: ${msg}\n`);
    this.status = 1;
  }

  sysError(name: string, e: unknown): void {
    if (!(e instanceof SysError)) throw e;
    this.error(`${name}: ${strerror(e.errno)}`);
  }

  /** Straight to stderr: stdout stays buffered, as GNU's stdio keeps it on a pipe. */
  eprint(s: string): void {
    this.sys.writeAll(2, s);
  }

  /** Flush stdout; a failed write is reported the way GNU's close_stdout does. */
  finish(): number {
    try {
      this.out.flush();
    } catch (e) {
      if (!(e instanceof WriteError)) throw e;
      this.sys.writeAll(2, `gzip: stdout: ${isBrokenPipe(e) ? 'Broken pipe' : strerror(e.errno)}\n`);
      return 1;
    }
    return this.status;
  }
}

/** printf("%5.1f%%", 100.0 * num / den), with C's round-half-even on exact ties. */
export function ratio(num: number, den: number): string {
  const x = den === 0 ? 0 : (100 * num) / den;
  const frac = Math.abs(x) % 1;
  let s: string;
  if (frac === 0.25 || frac === 0.75) {
    // An exact binary tie at the second decimal: C rounds to the even digit.
    const ten = Math.abs(x) * 10;
    const down = Math.floor(ten);
    const r = down % 2 === 0 ? down : down + 1;
    s = `${x < 0 ? '-' : ''}${(r / 10).toFixed(1)}`;
  } else s = x.toFixed(1);
  return `${s.padStart(5)}%`;
}

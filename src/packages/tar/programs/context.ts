// One tar run: options, the streams listings go to, GNU's diagnostics and
// exit statuses (0; 1 when a file changed while read; 2 after errors; a
// fatal error says "Error is not recoverable" and stops at once).

import { strerror, SysError } from '../../../abi/errno.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import type { Sys } from '../../../libc/sys.js';
import { Exit } from '../../../userland/lib/cmd.js';
import { humanSize } from '../../../userland/lib/fs.js';
import { Writer } from '../../../userland/lib/writer.js';
import { quoteColon } from './quote.js';
import type { TarOptions } from './options.js';

export class Tar {
  opts!: TarOptions;
  status = 0;
  readonly sys: Sys;
  readonly out: Writer;
  /** Where -v and -t output goes: stdout, or stderr when the archive or -O data is on stdout. */
  listing: Writer;
  /** The user/group/size column of long listings only ever widens (GNU's ugswidth). */
  ugsWidth = 19;
  dateWidth = 0;
  private readonly said = new Set<string>();
  private readonly started = Date.now();

  constructor(readonly os: AgentosApi) {
    this.sys = os.sys;
    this.out = new Writer(os.sys, 1);
    this.listing = this.out;
  }

  /** "tar: MSG" on stderr, after what the listing holds (gnulib's error() flushes stdout). */
  say(msg: string): void {
    this.flush();
    this.sys.writeAll(2, `tar: ${msg}\n`);
  }

  /** A warning said once per run (e.g. "Removing leading `/' from member names"). */
  once(msg: string): void {
    if (this.said.has(msg)) return;
    this.said.add(msg);
    this.say(msg);
  }

  error(msg: string): void {
    this.say(msg);
    this.status = 2;
  }

  /** NAME: WHAT: strerror — e.g. "f: Cannot open: Permission denied". */
  sysError(name: string, what: string, e: unknown): void {
    if (!(e instanceof SysError)) throw e;
    this.error(`${quoteColon(name)}: ${what}: ${strerror(e.errno)}`);
  }

  fatal(msg: string | null): never {
    if (msg !== null) this.say(msg);
    this.say('Error is not recoverable: exiting now');
    throw new Exit(2);
  }

  flush(): void {
    this.out.flush();
    if (this.listing !== this.out) this.listing.flush();
  }

  /** --totals: "Total bytes written: 10240 (10KiB, 60MiB/s)". */
  totals(verb: 'written' | 'read', bytes: number): void {
    if (!this.opts.totals) return;
    const secs = Math.max(Date.now() - this.started, 1) / 1000;
    const human = (n: number) => {
      const h = humanSize(n);
      return /\d$/.test(h) ? `${h}B` : `${h}iB`;
    };
    this.flush();
    this.sys.writeAll(2, `Total bytes ${verb}: ${bytes} (${human(bytes)}, ${human(Math.round(bytes / secs))}/s)\n`);
  }

  useStderrForListing(): void {
    this.listing = new Writer(this.sys, 2);
  }
}

// The main input: ARGV operands read as the program runs (it may change ARGV
// and ARGC), `var=value` operands assigned when reached, stdin when no file
// operand is left. gawk's BEGINFILE rules run before each file (ERRNO says
// why it could not be opened; `nextfile` there skips it), ENDFILE after.

import { Errno, SysError, strerror } from '../../../abi/errno.js';
import { O_RDONLY } from '../../../abi/fcntl.js';
import { isDir } from '../../../abi/stat.js';
import type { Sys } from '../../../libc/sys.js';
import { AwkFatal, NextFileSignal } from './errors.js';
import type { Interp } from './interp.js';
import { RecordReader, sysName } from './io.js';
import { unescape } from './lexer.js';
import { G } from './parser.js';
import { input, toNum, type Val } from './value.js';


export class Input {
  private argi = 1;
  private reader: RecordReader | null = null;
  private usedFile = false;
  private done = false;

  constructor(
    private readonly it: Interp,
    private readonly sys: Sys,
    private readonly warn: (msg: string) => void,
  ) {}

  /** The next record of the main input, or null at the end of all of it. */
  next(): string | null {
    for (;;) {
      if (!this.reader && !this.open()) return null;
      const r = this.reader!.read(this.it.str(this.it.g[G.RS] as Val), this.it.icase);
      if (r) {
        this.it.g[G.RT] = r.rt;
        return r.rec;
      }
      this.endFile();
    }
  }

  /** `nextfile`: the rest of this file is skipped; ENDFILE still runs. */
  skipFile(): void {
    if (this.reader) this.endFile();
  }

  private endFile(): void {
    this.closeFile();
    if (this.it.hasEndFile) this.it.runRules('endfile');
  }

  private closeFile(): void {
    if (this.reader && this.reader.fd !== 0) this.sys.close(this.reader.fd);
    this.reader = null;
  }

  private open(): boolean {
    if (this.done) return false;
    const it = this.it;
    for (;;) {
      const argc = toNum(it.g[G.ARGC] as Val);
      if (this.argi >= argc) break;
      const argv = it.g[G.ARGV];
      const key = String(this.argi++);
      const v = argv instanceof Map ? argv.get(key) : undefined;
      if (v === undefined) continue;
      const arg = it.str(v);
      if (arg === '') continue;
      const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(arg);
      if (m) {
        it.assignGlobal(it.slot(m[1]), input(unescape(arg.slice(m[0].length))), m[1]);
        continue;
      }
      this.usedFile = true;
      if (it.gawk) it.g[G.ARGIND] = this.argi - 1;
      let fd = 0;
      let errno = 0;
      if (arg !== '-' && arg !== '/dev/stdin') {
        try {
          fd = this.sys.open(sysName(arg), O_RDONLY);
          if (isDir(this.sys.fstat(fd).mode)) {
            this.sys.close(fd);
            errno = Errno.EISDIR;
          }
        } catch (e) {
          if (!(e instanceof SysError)) throw e;
          errno = e.errno;
        }
      }
      if (!this.beginFile(fd, arg, errno)) continue;
      if (errno === Errno.EISDIR) {
        this.warn(`warning: command line argument \`${arg}' is a directory: skipped`);
        continue;
      }
      // With BEGINFILE the error is the program's to handle, so it is reported where the program is.
      if (errno) throw new AwkFatal(`cannot open file \`${arg}' for reading: ${strerror(errno)}`, !it.hasBeginFile);
      this.start(fd, arg);
      return true;
    }
    if (this.usedFile) {
      this.done = true;
      return false;
    }
    this.usedFile = true;
    if (!this.beginFile(0, '-', 0)) return false;
    this.start(0, '-');
    return true;
  }

  /** Run BEGINFILE for a file about to be read; false if it said `nextfile` (ENDFILE then runs for an opened file). */
  private beginFile(fd: number, name: string, errno: number): boolean {
    const it = this.it;
    if (!it.hasBeginFile) return true;
    it.g[G.FILENAME] = name;
    it.g[G.FNR] = 0;
    it.g[G.ERRNO] = errno ? strerror(errno) : '';
    // gawk starts BEGINFILE with an empty record.
    it.setRecord('');
    try {
      it.runRules('beginfile');
    } catch (e) {
      if (!(e instanceof NextFileSignal)) throw e;
      if (errno) return false;
      if (fd !== 0) this.sys.close(fd);
      if (it.hasEndFile) it.runRules('endfile');
      return false;
    }
    return true;
  }

  private start(fd: number, name: string): void {
    this.reader = new RecordReader(this.sys, fd);
    this.it.g[G.FILENAME] = name;
    this.it.g[G.FNR] = 0;
  }
}

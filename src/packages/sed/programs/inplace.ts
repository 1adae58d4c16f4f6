// -i[SUFFIX]: each file's output goes to a temporary file beside it, which
// then replaces the file (after the original is renamed to the backup, if a
// suffix was given; a `*` in the suffix stands for the file's base name).

import { Errno, SysError } from '../../../abi/errno.js';
import { O_CREAT, O_EXCL, O_WRONLY } from '../../../abi/fcntl.js';
import { isDir } from '../../../abi/stat.js';
import type { Sys } from '../../../libc/sys.js';
import { Writer } from '../../../userland/lib/writer.js';
import { Out, pathOf, type Machine } from './exec.js';

export class InPlace {
  private file: string | null = null;
  private temp = '';
  private fd = -1;
  private readonly stdout: Out;

  constructor(
    private readonly sys: Sys,
    private readonly m: Machine,
    private readonly suffix: string,
    private readonly unbuffered: boolean,
  ) {
    this.stdout = m.out;
  }

  /** Start editing `name` (a byte-string operand); throws SysError(EISDIR) for non-regular files. */
  begin(name: string): void {
    this.end();
    const path = pathOf(name);
    if (name === '-') throw new SysError(Errno.EISDIR);
    const st = this.sys.stat(path);
    if (isDir(st.mode)) throw new SysError(Errno.EISDIR);
    const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
    for (let k = 0; ; k++) {
      const temp = `${dir}sed${Math.random().toString(36).slice(2, 8)}`;
      try {
        this.fd = this.sys.open(temp, O_WRONLY | O_CREAT | O_EXCL, st.mode & 0o7777);
        this.temp = temp;
        break;
      } catch (e) {
        if (!(e instanceof SysError) || e.errno !== Errno.EEXIST || k > 20) throw e;
      }
    }
    this.file = path;
    this.m.out = new Out(new Writer(this.sys, this.fd), this.unbuffered);
  }

  /** Finish the current file: flush, back up, move the temporary file into place. */
  end(): void {
    if (this.file === null) return;
    const file = this.file;
    this.file = null;
    this.m.out.flush();
    this.sys.close(this.fd);
    this.m.out = this.stdout;
    if (this.suffix) {
      const base = file.slice(file.lastIndexOf('/') + 1);
      const dir = file.slice(0, file.lastIndexOf('/') + 1);
      const backup = this.suffix.includes('*') ? this.suffix.replaceAll('*', base) : base + this.suffix;
      this.sys.rename(file, backup.includes('/') ? backup : dir + backup);
    }
    this.sys.rename(this.temp, file);
  }
}

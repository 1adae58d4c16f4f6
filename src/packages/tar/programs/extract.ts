// tar -x: recreate each member — files, directories, symlinks, hard links,
// devices and FIFOs — replacing what is in the way unless -k or
// --skip-old-files say otherwise, creating missing parent directories, then
// restoring owner (as root), mode and mtime; directories get theirs last,
// deepest first, so a read-only directory can still be filled.

import { Errno, SysError, strerror } from '../../../abi/errno.js';
import { O_CREAT, O_EXCL, O_WRONLY } from '../../../abi/fcntl.js';
import { S_IFBLK, S_IFCHR, S_IFIFO, isDir, makedev } from '../../../abi/stat.js';
import { dirName, joinPath, modeString, tryLstat } from '../../../userland/lib/fs.js';
import { groups, users } from '../../../userland/lib/users.js';
import { Writer } from '../../../userland/lib/writer.js';
import type { Tar } from './context.js';
import { AREG, BLK, CHR, CONT, DIR, FIFO, LNK, REG, SYM, type Header } from './header.js';
import { quoteArg, quoteColon } from './quote.js';
import { tarTime } from './list.js';
import type { TarReader } from './reader.js';

interface Pending {
  path: string;
  h: Header;
}

export class Extractor {
  private readonly dirs: Pending[] = [];
  private readonly root: boolean;
  private readonly umask: number;
  private r!: TarReader;

  constructor(private readonly t: Tar) {
    this.root = t.sys.getuid() === 0;
    this.umask = t.sys.umask(0);
    t.sys.umask(this.umask);
  }

  /** Extract one member, its data read from `r`, to `path` (its name after --strip-components and safety). */
  extract(h: Header, r: TarReader, path: string, linkTarget: string | null): void {
    this.r = r;
    switch (h.type) {
      case DIR: return this.directory(path, h);
      case SYM: return this.symlink(path, h);
      case LNK: return this.hardLink(path, linkTarget ?? h.linkname);
      case CHR: case BLK: case FIFO: return this.special(path, h);
      case REG: case AREG: case CONT: return this.file(path, h);
      default:
        this.t.say(`${quoteColon(path)}: Unknown file type '${h.type}', extracted as normal file`);
        return this.file(path, h);
    }
  }

  /** Directory attributes, deepest first, once everything is in place. */
  finish(): void {
    for (const d of this.dirs.reverse()) this.setStat(d.path, d.h);
  }

  private file(path: string, h: Header): void {
    const t = this.t;
    const fd = this.create(path, 'Cannot open', () => t.sys.open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600));
    if (fd === null) return this.r.skip();
    const w = new Writer(t.sys, fd);
    let failed: unknown = null;
    this.r.data((chunk) => {
      if (failed) return;
      try {
        w.write(chunk);
      } catch (e) {
        failed = e;
      }
    });
    try {
      if (!failed) w.flush();
    } catch (e) {
      failed = e;
    }
    t.sys.close(fd);
    if (failed) {
      const errno = (failed as { errno?: number }).errno ?? Errno.EIO;
      t.error(`${quoteColon(path)}: Cannot write: ${strerror(errno)}`);
    }
    this.setStat(path, h);
  }

  private directory(name: string, h: Header): void {
    const t = this.t;
    const path = name.length > 1 ? name.replace(/\/+$/, '') : name;
    const st = tryLstat(t.sys, path);
    if (!(st && isDir(st.mode))) {
      const ok = this.create(path, 'Cannot mkdir', () => t.sys.mkdir(path, 0o700 | (h.mode & 0o777)), true);
      if (ok === null) return;
    }
    // Absolute: members may be extracted in different directories (-C between names).
    this.dirs.push({ path: path.startsWith('/') ? path : joinPath(t.sys.getcwd(), path), h });
  }

  private symlink(path: string, h: Header): void {
    const ok = this.create(path, `Cannot create symlink to ${quoteArg(h.linkname)}`, () => this.t.sys.symlink(h.linkname, path));
    if (ok !== null) this.setStat(path, h, true);
  }

  private hardLink(path: string, target: string): void {
    const t = this.t;
    const same = (): boolean => {
      const a = tryLstat(t.sys, path);
      const b = tryLstat(t.sys, target);
      return !!a && !!b && a.dev === b.dev && a.ino === b.ino;
    };
    try {
      t.sys.link(target, path);
      return;
    } catch (e) {
      // Extracting over the same link again is no error.
      if (e instanceof SysError && e.errno === Errno.EEXIST && same()) return;
    }
    this.create(path, `Cannot hard link to ${quoteArg(target)}`, () => t.sys.link(target, path));
  }

  private special(path: string, h: Header): void {
    const kind = h.type === CHR ? S_IFCHR : h.type === BLK ? S_IFBLK : S_IFIFO;
    const ok = this.create(path, 'Cannot mknod', () => this.t.sys.mknod(path, kind | (h.mode & 0o7777), makedev(h.devmajor, h.devminor)));
    if (ok !== null) this.setStat(path, h);
  }

  /**
   * Run `make`, recovering as GNU's maybe_recoverable does: missing parents
   * are created; something in the way is removed (or, with -k, an error;
   * with --skip-old-files, silently kept). Null when the member is skipped.
   */
  private create<T>(path: string, what: string, make: () => T, isDirectory = false): T | null {
    const t = this.t;
    for (let attempt = 0; ; attempt++) {
      try {
        return make();
      } catch (e) {
        if (!(e instanceof SysError) || attempt > 2) {
          t.sysError(path, what, e);
          return null;
        }
        if (e.errno === Errno.ENOENT && this.makeParents(path)) continue;
        if (e.errno === Errno.EEXIST) {
          const old = t.opts.old;
          if (old === 'skip') return null;
          if (old === 'keep' && !isDirectory) {
            t.sysError(path, what, e);
            return null;
          }
          if (this.removeOld(path)) continue;
        }
        t.sysError(path, what, e);
        return null;
      }
    }
  }

  private removeOld(path: string): boolean {
    const st = tryLstat(this.t.sys, path);
    if (!st) return true;
    try {
      if (isDir(st.mode)) this.t.sys.rmdir(path);
      else this.t.sys.unlink(path);
      return true;
    } catch {
      return false;
    }
  }

  private makeParents(path: string): boolean {
    const dir = dirName(path);
    if (dir === path || dir === '.' || dir === '/') return false;
    if (tryLstat(this.t.sys, dir)) return false;
    this.makeParents(dir);
    try {
      this.t.sys.mkdir(dir, 0o777);
      return true;
    } catch (e) {
      this.t.sysError(dir, 'Cannot mkdir', e);
      return false;
    }
  }

  /** GNU's warning for a member stamped later than now. */
  private checkTime(path: string, mtime: number): void {
    const ahead = BigInt(Math.floor(mtime)) * 1_000_000_000n - BigInt(Date.now()) * 1_000_000n;
    if (ahead <= 0n) return;
    const secs = `${ahead / 1_000_000_000n}.${String(ahead % 1_000_000_000n).padStart(9, '0')}`;
    this.t.say(`${quoteColon(path)}: time stamp ${tarTime(mtime, true)} is ${secs} s in the future`);
  }

  /** Owner (root only, by name unless --numeric-owner), then mode, then mtime — GNU's order. */
  private setStat(path: string, h: Header, symlink = false): void {
    const t = this.t;
    const o = t.opts;
    if (o.sameOwner ?? this.root) {
      const uid = (o.numericOwner ? undefined : users(t.sys).find((u) => u.name === h.uname)?.id) ?? h.uid;
      const gid = (o.numericOwner ? undefined : groups(t.sys).find((g) => g.name === h.gname)?.id) ?? h.gid;
      try {
        if (symlink) t.sys.raw.call('lchown', path, uid, gid);
        else t.sys.chown(path, uid, gid);
      } catch (e) {
        t.sysError(path, `Cannot change ownership to uid ${uid}, gid ${gid}`, e);
      }
    }
    if (!symlink) {
      const mode = o.samePermissions ?? this.root ? h.mode & 0o7777 : h.mode & 0o7777 & ~this.umask;
      try {
        t.sys.chmod(path, mode);
      } catch (e) {
        t.sysError(path, `Cannot change mode to ${modeString(mode).slice(1)}`, e);
      }
    }
    if (o.touch) return;
    if (!symlink) this.checkTime(path, h.mtime);
    try {
      if (symlink) t.sys.raw.call('utimes', path, null, Math.floor(h.mtime * 1000), false);
      else t.sys.utimes(path, null, Math.floor(h.mtime * 1000));
    } catch (e) {
      t.sysError(path, 'Cannot utime', e);
    }
  }
}

// tar -c (and the adding half of -r/-u): walk each operand, in directory
// order or by name, and write headers and data the way GNU tar does: hard
// links as link members after the first, symlinks as links, directories
// before their contents, the archive itself left out.

import { Errno, SysError } from '../../../abi/errno.js';
import { O_RDONLY } from '../../../abi/fcntl.js';
import { S_IFMT, S_IFBLK, S_IFCHR, S_IFDIR, S_IFIFO, S_IFLNK, S_IFREG, S_IFSOCK, major, minor, type Stat } from '../../../abi/stat.js';
import { joinPath } from '../../../userland/lib/fs.js';
import { groupName, groups, userName, users } from '../../../userland/lib/users.js';
import type { Tar } from './context.js';
import { BLK, CHR, DIR, FIFO, LNK, REG, SYM, type Header } from './header.js';
import { verboseLine } from './list.js';
import { excluded, saferName, unsafePrefix } from './names.js';
import type { Arg } from './options.js';
import { quoteArg, quoteColon } from './quote.js';
import { NotDumped, type TarWriter } from './writer.js';

const CHUNK = 128 * 1024;

/** Decide per file whether to add it (-u: only when newer than the archived copy). */
export type Keep = (member: string, st: Stat) => boolean;

export class Archiver {
  private readonly links = new Map<string, string>();
  private readonly topLevel: number;
  private linkNotice: string | null = null;
  /** After a multiply-linked file, GNU looks every member up as a link target. */
  private linksSeen = false;
  private readonly excludes: string[] = [];

  constructor(
    private readonly t: Tar,
    private readonly w: TarWriter,
    /** dev:ino of the archive when it is a regular file (never archived into itself). */
    private readonly archiveId: string | null,
    args: Arg[],
    private readonly keep: Keep = () => true,
  ) {
    this.topLevel = args.filter((a) => 'name' in a).length;
  }

  /**
   * Add every operand, changing directory at each -C; an --exclude applies to
   * the names after it, and GNU says so of those given after the last name.
   */
  run(args: Arg[]): void {
    const last = args.findLastIndex((a) => 'name' in a);
    const trailing: string[] = [];
    for (const [i, a] of args.entries()) {
      if ('exclude' in a) {
        if (i < last) this.excludes.push(a.exclude);
        else trailing.push(`--exclude ${quoteArg(a.exclude)}`);
      } else if ('excludeFrom' in a) {
        if (i < last) this.excludes.push(...(a.patterns ?? []));
        else trailing.push(`--exclude-from ${quoteArg(a.excludeFrom)}`);
      } else if ('dir' in a) {
        try {
          this.t.sys.chdir(a.dir);
        } catch (e) {
          this.t.sysError(a.dir, 'Cannot open', e);
          this.t.fatal(null);
        }
      } else if ('name' in a) this.add(a.name.length > 1 ? a.name.replace(/\/+$/, '') : a.name);
    }
    if (trailing.length === 0) return;
    this.t.error('The following options were used after any non-optional arguments in archive create or update mode.  These options are positional and affect only arguments that follow them.  Please, rearrange them properly.');
    for (const x of trailing) this.t.error(`${x} has no effect`);
  }

  private add(path: string): void {
    const t = this.t;
    const o = t.opts;
    if (excluded(this.excludes, path, o.wildcards !== false)) return;
    let st: Stat;
    try {
      st = o.dereference ? t.sys.stat(path) : t.sys.lstat(path);
    } catch (e) {
      t.sysError(path, 'Cannot stat', e);
      return;
    }
    this.sayLinkNotice();
    if (this.archiveId === `${st.dev}:${st.ino}`) {
      t.say(`${quoteColon(path)}: file is the archive; not dumped`);
      return;
    }
    const type = st.mode & S_IFMT;
    if (type === S_IFSOCK) {
      t.say(`${quoteColon(path)}: socket ignored`);
      return;
    }
    const isDir = type === S_IFDIR;
    const name = saferName(t, path, false) + (isDir && !path.endsWith('/') ? '/' : '');
    if (!this.keep(name, st)) {
      if (isDir) this.children(path);
      return;
    }
    const h = this.header(name, st);
    let fd = -1;
    if (type === S_IFREG) {
      const key = `${st.dev}:${st.ino}`;
      const first = st.nlink > 1 && !o.dereference ? this.links.get(key) : undefined;
      if (first !== undefined) {
        h.type = LNK;
        h.linkname = first;
        h.size = 0;
      } else {
        try {
          fd = t.sys.open(path, O_RDONLY);
        } catch (e) {
          t.sysError(path, 'Cannot open', e);
          return;
        }
        if (st.nlink > 1) this.links.set(key, name);
      }
    } else if (type === S_IFLNK) {
      try {
        h.linkname = t.sys.readlink(path);
      } catch (e) {
        t.sysError(path, 'Cannot readlink', e);
        return;
      }
    }
    this.noticeLinks(path, type !== S_IFDIR && st.nlink > 1);
    try {
      if (o.verbose) verboseLine(t, h, name, o.verbose > 1);
      this.w.header(h);
    } catch (e) {
      if (fd >= 0) t.sys.close(fd);
      if (!(e instanceof NotDumped)) throw e;
      t.error(`${quoteColon(e.subject ?? path)}: ${e.message}`);
      return;
    }
    if (fd >= 0) this.copyData(path, fd, h.size);
    if (isDir) this.children(path);
    if (o.removeFiles) this.remove(path, isDir);
  }

  /**
   * GNU also says it removes a prefix "from hard link targets" when it looks
   * the member up as a link target: once a multiply-linked file has been
   * archived, or, with several operands, when another member follows.
   */
  private noticeLinks(path: string, multiplyLinked: boolean): void {
    if (this.t.opts.absoluteNames) return;
    if (multiplyLinked) this.linksSeen = true;
    const prefix = unsafePrefix(path);
    if (!prefix) return;
    if (this.linksSeen) this.t.once(`Removing leading \`${prefix}' from hard link targets`);
    else if (this.topLevel > 1) this.linkNotice = prefix;
  }

  /** The notice a previous member left for when another follows. */
  private sayLinkNotice(): void {
    if (this.linkNotice !== null) this.t.once(`Removing leading \`${this.linkNotice}' from hard link targets`);
    this.linkNotice = null;
  }

  private children(path: string): void {
    const t = this.t;
    let names: string[];
    try {
      names = t.sys.readdir(path).map((e) => e.name).filter((n) => n !== '.' && n !== '..');
    } catch (e) {
      t.sysError(path, 'Cannot open', e);
      return;
    }
    if (t.opts.sort === 'name') names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const n of names) this.add(joinPath(path, n));
  }

  private header(name: string, st: Stat): Header {
    const t = this.t;
    const o = t.opts;
    const owner = o.owner !== null ? idOverride(o.owner, users(t.sys)) : null;
    const group = o.group !== null ? idOverride(o.group, groups(t.sys)) : null;
    const uid = owner?.id ?? st.uid;
    const gid = group?.id ?? st.gid;
    const type = st.mode & S_IFMT;
    const h: Header = {
      name,
      mode: st.mode & 0o7777,
      uid,
      gid,
      size: type === S_IFREG ? st.size : 0,
      mtime: Math.floor(st.mtimeMs / 1000),
      type: TYPES[type] ?? REG,
      linkname: '',
      uname: owner ? owner.name : (userName(t.sys, uid) ?? ''),
      gname: group ? group.name : (groupName(t.sys, gid) ?? ''),
      devmajor: type === S_IFCHR || type === S_IFBLK ? major(st.rdev) : 0,
      devminor: type === S_IFCHR || type === S_IFBLK ? minor(st.rdev) : 0,
    };
    return h;
  }

  /** Stream exactly `size` bytes: a file that shrank is padded with zeros, one that grew is cut. */
  private copyData(path: string, fd: number, size: number): void {
    const t = this.t;
    let done = 0;
    try {
      while (done < size) {
        const b = t.sys.read(fd, Math.min(CHUNK, size - done));
        if (!b.byteLength) break;
        this.w.data(b);
        done += b.byteLength;
      }
      if (done === size && t.sys.read(fd, 1).byteLength) {
        t.say(`${quoteColon(path)}: file changed as we read it`);
        if (t.status === 0) t.status = 1;
      }
    } catch (e) {
      t.sysError(path, 'Read error', e);
    } finally {
      t.sys.close(fd);
    }
    if (done < size) {
      const missing = size - done;
      t.error(`${quoteColon(path)}: File shrank by ${missing} byte${missing === 1 ? '' : 's'}; padding with zeros`);
      for (let left = missing; left > 0; left -= CHUNK) this.w.data(new Uint8Array(Math.min(CHUNK, left)));
    }
    this.w.endData(size);
  }

  private remove(path: string, isDir: boolean): void {
    try {
      if (isDir) this.t.sys.rmdir(path);
      else this.t.sys.unlink(path);
    } catch (e) {
      if (e instanceof SysError && e.errno === Errno.ENOTEMPTY) return;
      this.t.sysError(path, 'Cannot unlink', e);
    }
  }
}

const TYPES: Record<number, string> = {
  [S_IFREG]: REG, [S_IFDIR]: DIR, [S_IFLNK]: SYM, [S_IFCHR]: CHR, [S_IFBLK]: BLK, [S_IFIFO]: FIFO,
};

/** --owner/--group: a name (looked up) or a number (+N or N). */
function idOverride(v: string, table: { name: string; id: number }[]): { id: number; name: string } {
  const numeric = /^\+?(\d+)$/.exec(v);
  if (numeric) return { id: Number(numeric[1]), name: table.find((e) => e.id === Number(numeric[1]))?.name ?? '' };
  const [name, id] = v.split(':');
  const hit = table.find((e) => e.name === name);
  return { id: id !== undefined ? Number(id) : (hit?.id ?? 0), name };
}

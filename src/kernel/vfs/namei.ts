// Path resolution (Linux namei): walk components from "/" or a base directory,
// checking search permission, crossing mounts both ways and following symlinks.

import { Errno, SysError } from '../../abi/errno.js';
import { SYMLOOP_MAX } from '../../abi/fcntl.js';
import { isDir, isLnk } from '../../abi/stat.js';
import { MountTable, sameInode } from './mount.js';
import { checkName, checkPath, components, hasTrailingSlash, isAbsolute } from './path.js';
import { MAY_EXEC, checkPermission } from './perm.js';
import type { Cred, Inode, PathGuard } from './types.js';

/** What the final component is, which decides how each syscall treats it. */
export type LastKind = 'normal' | 'dot' | 'dotdot' | 'root';

/** A path walked up to (not including) its last component. */
export interface Last {
  /** Directory holding the last component (already searchable). */
  dir: Inode;
  /** The last component; "/" for a path of only slashes. */
  name: string;
  kind: LastKind;
  /** The path ended in "/": the last component must be a directory. */
  slash: boolean;
}

/** A fully resolved path: the inode and the directory entry that named it. */
export interface Found {
  inode: Inode;
  /** Directory holding the final entry (null when a magic link jumped to the inode). */
  dir: Inode | null;
  name: string;
}

/** Symlinks followed so far in one resolution (ELOOP past SYMLOOP_MAX). */
export class LinkBudget {
  count = 0;
  spend(): void {
    if (++this.count > SYMLOOP_MAX) throw new SysError(Errno.ELOOP);
  }
}

export class Namei {
  /** The VM policy's filesystem rules (policy/fs-guard.ts): sees every inode a lookup reaches. */
  guard: PathGuard | null = null;

  constructor(private readonly mounts: MountTable) {}

  root(): Inode {
    return this.mounts.root();
  }

  /** Walk all but the last component of `path`. */
  parent(cred: Cred, base: Inode, path: string, links = new LinkBudget()): Last {
    checkPath(path);
    const comps = components(path);
    if (comps.length === 0) return { dir: this.root(), name: '/', kind: 'root', slash: true };
    let dir = isAbsolute(path) ? this.root() : base;
    for (let i = 0; i < comps.length - 1; i++) {
      this.mayLookup(cred, dir);
      let next = this.step(cred, dir, comps[i]);
      if (isLnk(next.mode)) next = this.followLink(cred, dir, next, links).inode;
      dir = next;
    }
    this.mayLookup(cred, dir);
    const name = comps[comps.length - 1];
    const kind: LastKind = name === '.' ? 'dot' : name === '..' ? 'dotdot' : 'normal';
    return { dir, name, kind, slash: hasTrailingSlash(path) };
  }

  /**
   * The inode the last component names, without following a final symlink.
   * `cross` = false stays on the covered directory of a mountpoint (for rmdir,
   * rename, unlink, which act on the entry rather than what is mounted there).
   */
  child(cred: Cred, last: Last, cross = true): Inode | null {
    switch (last.kind) {
      case 'root': return this.root();
      case 'dot': return last.dir;
      case 'dotdot': return this.dotdot(cred, last.dir);
      default: {
        checkName(last.name);
        const found = last.dir.fs.lookup(last.dir, last.name, cred);
        const inode = found && cross ? this.mounts.cross(found) : found;
        if (inode) this.guard?.lookup(cred, inode, last.name);
        return inode;
      }
    }
  }

  /** Resolve a whole path. A trailing slash forces following and requires a directory. */
  resolve(cred: Cred, base: Inode, path: string, follow = true, links = new LinkBudget()): Found {
    const last = this.parent(cred, base, path, links);
    const inode = this.child(cred, last);
    if (!inode) throw new SysError(Errno.ENOENT, path);
    let found: Found = { inode, dir: last.kind === 'normal' ? last.dir : null, name: last.name };
    if (isLnk(inode.mode) && (follow || last.slash)) found = this.followLink(cred, last.dir, inode, links);
    if (last.slash && !isDir(found.inode.mode)) throw new SysError(Errno.ENOTDIR, path);
    return found;
  }

  /** Follow symlink `link` found in `dir` to its final target (which must exist). */
  followLink(cred: Cred, dir: Inode, link: Inode, links: LinkBudget): Found {
    links.spend();
    const magic = link.fs.followLink?.(link, cred);
    if (magic) {
      this.guard?.lookup(cred, magic, '');
      return { inode: magic, dir: null, name: '' };
    }
    const target = link.fs.readlink(link);
    if (target === '') throw new SysError(Errno.ENOENT, 'empty symlink');
    return this.resolve(cred, dir, target, true, links);
  }

  /** ".." of a directory: stays at the tree root, climbs out of mounted roots. */
  dotdot(cred: Cred, dir: Inode): Inode {
    let cur = dir;
    for (;;) {
      if (!sameInode(cur, cur.fs.root())) break;
      const mp = this.mounts.mountpointOf(cur.fs);
      if (!mp) return cur; // the tree root (or a detached fs): ".." is itself
      cur = mp;
    }
    const up = cur.fs.lookup(cur, '..', cred) ?? cur;
    return this.mounts.cross(up);
  }

  /** The directory must be searchable to look a name up in it. */
  mayLookup(cred: Cred, dir: Inode): void {
    if (!isDir(dir.mode)) throw new SysError(Errno.ENOTDIR);
    checkPermission(cred, dir, MAY_EXEC);
  }

  private step(cred: Cred, dir: Inode, name: string): Inode {
    if (name === '.') return dir;
    if (name === '..') return this.dotdot(cred, dir);
    checkName(name);
    const found = dir.fs.lookup(dir, name, cred);
    if (!found) throw new SysError(Errno.ENOENT, name);
    const inode = this.mounts.cross(found);
    this.guard?.lookup(cred, inode, name);
    return inode;
  }
}

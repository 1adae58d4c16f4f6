// A browser directory mounted into the VM: an OPFS directory, or a directory
// the user picked with the File System Access API. The kernel's filesystem
// interface is synchronous and those APIs are not, so the kernel worker asks
// a proxy worker (dirfs-proxy.ts) and waits for its answer with Atomics.wait;
// the proxy owns the directory handle.
//
// What the browser's directories cannot hold is refused, not faked: no
// symlinks or hard links (EPERM), no modes or owners (every file shows as the
// VM user's, 0644/0755; chmod and chown are EPERM). Times cannot be set on
// the host side: utimes changes only the VM's view until the file is next
// looked up.

import { Errno, SysError } from '../../../abi/errno.js';
import { NAME_MAX } from '../../../abi/fcntl.js';
import type { DirEntry, StatFs } from '../../../abi/stat.js';
import { DT_DIR, DT_REG, S_IFDIR, S_IFMT, S_IFREG } from '../../../abi/stat.js';
import type { FileSystem, Inode, SetAttr } from '../../../kernel/vfs/types.js';
import { REPLY_BYTES, type DirRequest, type DirStat } from './dirfs-proxy.js';

/** How long the kernel waits for the browser before failing the call with EIO. */
const TIMEOUT_MS = 30_000;

class DirInode implements Inode {
  readonly uid = 1000;
  readonly gid = 1000;
  mode: number;
  nlink: number;
  size = 0;
  rdev = 0;
  atimeMs = 0;
  mtimeMs = 0;
  ctimeMs = 0;

  constructor(readonly fs: DirFs, readonly ino: number, public path: string[], dir: boolean) {
    this.mode = dir ? S_IFDIR | 0o755 : S_IFREG | 0o644;
    this.nlink = dir ? 2 : 1;
  }
}

export interface DirProxy {
  post(req: DirRequest): void;
  reply: SharedArrayBuffer;
}

export class DirFs implements FileSystem {
  readonly type = 'dirfs';
  dev = 0;
  private readonly ctl: Int32Array;
  private readonly out: Uint8Array;
  private readonly inodes = new Map<string, DirInode>(); // path joined by '/'
  private nextIno = 1;
  private readonly rootInode: DirInode;
  private readonly dec = new TextDecoder();

  constructor(private readonly proxy: DirProxy, readonly readonly: boolean, private readonly quota: { usage: number; quota: number } | null) {
    this.ctl = new Int32Array(proxy.reply, 0, 4);
    this.out = new Uint8Array(proxy.reply, 16);
    this.rootInode = this.inodeFor([], true);
  }

  root(): Inode {
    return this.rootInode;
  }

  lookup(dir: Inode, name: string): Inode | null {
    const d = this.own(dir);
    if (name === '..') return d.path.length ? this.stat(d.path.slice(0, -1)) : d;
    return this.stat([...d.path, name]);
  }

  readdir(dir: Inode): DirEntry[] {
    const d = this.own(dir);
    const names = JSON.parse(this.dec.decode(this.call({ op: 'readdir', path: d.path }))) as [string, string][];
    return names.map(([name, kind]) => {
      const child = this.inodeFor([...d.path, name], kind === 'directory');
      return { name, ino: child.ino, type: kind === 'directory' ? DT_DIR : DT_REG };
    });
  }

  create(dir: Inode, name: string, mode: number): Inode {
    this.writable();
    const path = [...this.own(dir).path, name];
    const kind = mode & S_IFMT;
    if (kind !== S_IFREG && kind !== S_IFDIR) throw new SysError(Errno.EPERM, 'a browser directory holds only files and directories');
    this.call({ op: kind === S_IFDIR ? 'mkdir' : 'create', path });
    return this.mustStat(path);
  }

  symlink(): Inode {
    throw new SysError(Errno.EPERM, 'a browser directory cannot hold symbolic links');
  }

  link(): void {
    throw new SysError(Errno.EPERM, 'a browser directory cannot hold hard links');
  }

  unlink(dir: Inode, name: string): void {
    this.remove(dir, name);
  }

  rmdir(dir: Inode, name: string): void {
    this.remove(dir, name);
  }

  rename(odir: Inode, oname: string, ndir: Inode, nname: string): void {
    this.writable();
    const from = [...this.own(odir).path, oname];
    const to = [...this.own(ndir).path, nname];
    this.call({ op: 'rename', path: from, to });
    const replaced = this.inodes.get(to.join('/'));
    if (replaced) {
      replaced.nlink = 0;
      this.inodes.delete(to.join('/'));
    }
    const f = from.join('/');
    for (const [key, inode] of [...this.inodes]) {
      if (key !== f && !key.startsWith(f + '/')) continue;
      this.inodes.delete(key);
      inode.path = [...to, ...inode.path.slice(from.length)];
      this.inodes.set(inode.path.join('/'), inode);
    }
  }

  readlink(): string {
    throw new SysError(Errno.EINVAL);
  }

  read(inode: Inode, pos: number, len: number): Uint8Array {
    return this.call({ op: 'read', path: this.own(inode).path, pos, len: Math.min(len, REPLY_BYTES) });
  }

  write(inode: Inode, pos: number, data: Uint8Array): number {
    this.writable();
    const i = this.own(inode);
    this.call({ op: 'write', path: i.path, pos, data: data.slice() });
    i.size = Math.max(i.size, pos + data.length);
    i.mtimeMs = i.ctimeMs = Date.now();
    return data.length;
  }

  truncate(inode: Inode, size: number): void {
    this.writable();
    const i = this.own(inode);
    this.call({ op: 'truncate', path: i.path, size });
    i.size = size;
    i.mtimeMs = i.ctimeMs = Date.now();
  }

  setattr(inode: Inode, attr: SetAttr): void {
    this.writable();
    const i = this.own(inode);
    if (attr.mode !== undefined && attr.mode !== (i.mode & 0o7777)) throw new SysError(Errno.EPERM, 'a browser directory has no file modes');
    if ((attr.uid !== undefined && attr.uid !== i.uid) || (attr.gid !== undefined && attr.gid !== i.gid)) {
      throw new SysError(Errno.EPERM, 'a browser directory has no owners');
    }
    if (attr.atimeMs !== undefined) i.atimeMs = attr.atimeMs;
    if (attr.mtimeMs !== undefined) i.mtimeMs = attr.mtimeMs;
  }

  statfs(): StatFs {
    const bsize = 4096;
    const blocks = Math.floor((this.quota?.quota ?? 0) / bsize);
    const free = Math.max(0, Math.floor(((this.quota?.quota ?? 0) - (this.quota?.usage ?? 0)) / bsize));
    return { type: this.type, bsize, blocks, bfree: free, bavail: free, files: 0, ffree: 0, namelen: NAME_MAX };
  }

  dirName(dir: Inode, child: Inode): string | null {
    const c = this.own(child).path;
    const d = this.own(dir).path;
    return c.length === d.length + 1 && d.every((n, k) => c[k] === n) ? c[c.length - 1] : null;
  }

  private remove(dir: Inode, name: string): void {
    this.writable();
    const path = [...this.own(dir).path, name];
    this.call({ op: 'remove', path });
    const key = path.join('/');
    const gone = this.inodes.get(key);
    if (gone) gone.nlink = 0;
    this.inodes.delete(key);
  }

  private own(inode: Inode): DirInode {
    if (!(inode instanceof DirInode) || inode.fs !== this) throw new SysError(Errno.EXDEV);
    return inode;
  }

  private writable(): void {
    if (this.readonly) throw new SysError(Errno.EROFS);
  }

  private stat(path: string[]): DirInode | null {
    let st: DirStat;
    try {
      st = JSON.parse(this.dec.decode(this.call({ op: 'stat', path })));
    } catch (e) {
      if (e instanceof SysError && (e.errno === Errno.ENOENT || e.errno === Errno.ENOTDIR)) return null;
      throw e;
    }
    const inode = this.inodeFor(path, st.kind === 'directory');
    inode.size = st.size;
    if (st.mtimeMs) inode.mtimeMs = inode.ctimeMs = inode.atimeMs = st.mtimeMs;
    return inode;
  }

  private mustStat(path: string[]): DirInode {
    const inode = this.stat(path);
    if (!inode) throw new SysError(Errno.ENOENT);
    return inode;
  }

  private inodeFor(path: string[], dir: boolean): DirInode {
    const key = path.join('/');
    let inode = this.inodes.get(key);
    if (!inode || (inode.mode & S_IFMT) !== (dir ? S_IFDIR : S_IFREG)) {
      inode = new DirInode(this, this.nextIno++, path, dir);
      this.inodes.set(key, inode);
    }
    return inode;
  }

  /** One request to the proxy; the kernel thread sleeps until it answers. */
  private call(req: DirRequest): Uint8Array {
    Atomics.store(this.ctl, 0, 0);
    this.proxy.post(req);
    if (Atomics.wait(this.ctl, 0, 0, TIMEOUT_MS) === 'timed-out') throw new SysError(Errno.EIO, 'the browser directory did not answer');
    if (this.ctl[1]) throw new SysError(this.ctl[1]);
    return this.out.slice(0, this.ctl[2]);
  }
}

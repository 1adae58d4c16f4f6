// tmpfs: the in-memory filesystem behind "/" and /tmp. Stores inodes and file
// bytes only; path walking, permissions and POSIX rule checks are the VFS's.

import { byteLength } from '../../abi/bytestr.js';
import { Errno, SysError } from '../../abi/errno.js';
import { NAME_MAX } from '../../abi/fcntl.js';
import type { DirEntry, StatFs } from '../../abi/stat.js';
import { S_IFDIR, S_IFLNK, S_IFMT, S_IFREG, S_ISGID, dtype, isDir, isReg } from '../../abi/stat.js';
import type { Cred, FileSystem, Inode, SetAttr } from '../vfs/types.js';

/** Linux tmpfs reports a directory's size as 20 bytes per entry, "." and ".." included. */
const DIRENT_SIZE = 20;
const PAGE = 4096;

export interface MemFsOptions {
  /** Total bytes of file data allowed (ENOSPC beyond). */
  maxBytes?: number;
  /** Largest file size (EFBIG beyond). Storage is not sparse, so the default is 2 GiB. */
  maxFileSize?: number;
  /** Every mutating operation fails with EROFS. May be flipped after populating. */
  readonly?: boolean;
  /** Permission bits of the root directory (tmpfs mounts default to 01777; "/" wants 0755). */
  rootMode?: number;
  rootUid?: number;
  rootGid?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/**
 * Told of every change to the tree (the persistence journal listens). `meta`:
 * the inode's attributes or, for a directory, its entries changed; `data`: file
 * bytes in [lo, hi) changed (the size too). `writeOpened`/`writeClosed`: a
 * file's first writable open and its last close. `willChange`: bytes from `lo`
 * on are about to change; true means the observer keeps the current buffer,
 * so the change must go to a copy.
 */
export interface MemFsObserver {
  meta(node: MemInode): void;
  data(node: MemInode, lo: number, hi: number): void;
  /** A regular file was created (before its first open). */
  created(node: MemInode): void;
  writeOpened(node: MemInode): void;
  writeClosed(node: MemInode): void;
  willChange(node: MemInode, lo: number): boolean;
}

/** One inode as the persistence layer stores it (see MemFs.importTree). */
export interface InodeRecord {
  ino: number;
  mode: number;
  uid: number;
  gid: number;
  rdev: number;
  atimeMs: number;
  mtimeMs: number;
  ctimeMs: number;
  /** Symlinks. */
  target?: string;
  /** Directories: name → ino, in order. */
  entries?: [string, number][];
  /** Regular files. */
  data?: Uint8Array;
}

export class MemInode implements Inode {
  nlink: number;
  size = 0;
  atimeMs: number;
  mtimeMs: number;
  ctimeMs: number;
  /** Regular files: storage; bytes past `size` are always zero. */
  data: Uint8Array | null = null;
  /** Directories: entries in insertion order. */
  children: Map<string, MemInode> | null = null;
  /** Directories: the containing directory (the root's is itself) and the name there. */
  parent: MemInode | null = null;
  name = '';
  /** Symlinks: the target text. */
  target = '';
  /** Open file descriptions that may write this file (the journal defers their data). */
  writers = 0;

  constructor(
    readonly fs: MemFs,
    readonly ino: number,
    public mode: number,
    public uid: number,
    public gid: number,
    public rdev: number,
    now: number,
  ) {
    this.nlink = isDir(mode) ? 2 : 1;
    this.atimeMs = this.mtimeMs = this.ctimeMs = now;
  }
}

/** Files larger than this grow in place (resize). */
const BIG_FILE = 64 << 20;

export class MemFs implements FileSystem {
  readonly type = 'tmpfs';
  dev = 0;
  readonly: boolean;
  private nextIno = 1;
  private usedBytes = 0;
  private inodeCount = 0;
  private readonly rootInode: MemInode;
  /** Total bytes of file data allowed; the VM policy may lower it (maxLayerBytes). */
  maxBytes: number;
  /** What a persistent layer's store can still take (persister.ts); Infinity otherwise. */
  private storageLimit = Infinity;
  private readonly maxFileSize: number;
  private readonly now: () => number;
  observer: MemFsObserver | null = null;

  constructor(opts: MemFsOptions = {}) {
    this.maxBytes = opts.maxBytes ?? Infinity;
    this.maxFileSize = opts.maxFileSize ?? 2 ** 31;
    this.now = opts.now ?? Date.now;
    this.readonly = false;
    const root = this.newInode(S_IFDIR | ((opts.rootMode ?? 0o755) & 0o7777), opts.rootUid ?? 0, opts.rootGid ?? 0, 0);
    root.parent = root;
    this.rootInode = root;
    this.readonly = opts.readonly ?? false;
  }

  root(): MemInode {
    return this.rootInode;
  }

  /** Change the size limit (a persistent layer follows its store's free space); existing data stays. */
  setStorageLimit(bytes: number): void {
    this.storageLimit = bytes;
  }

  /** The lower of the two limits: the policy's and the store's. */
  private get limit(): number {
    return Math.min(this.maxBytes, this.storageLimit);
  }

  /** Bytes of file data currently stored (including unlinked-but-open files). */
  get bytesUsed(): number {
    return this.usedBytes;
  }

  lookup(dir: Inode, name: string): MemInode | null {
    const d = this.dir(dir);
    if (name === '..') return d.parent ?? d;
    if (name === '.') return d;
    return d.children!.get(name) ?? null;
  }

  dirName(dir: Inode, child: Inode): string | null {
    const c = this.own(child);
    return c.parent === dir && c !== this.rootInode && c.nlink > 0 ? c.name : null;
  }

  readdir(dir: Inode): DirEntry[] {
    const out: DirEntry[] = [];
    for (const [name, child] of this.dir(dir).children!) out.push({ name, ino: child.ino, type: dtype(child.mode) });
    return out;
  }

  create(dir: Inode, name: string, mode: number, rdev: number, cred: Cred): MemInode {
    const d = this.mutableDir(dir, name);
    const type = mode & S_IFMT || S_IFREG;
    let perm = mode & 0o7777;
    // A setgid directory hands its group (and, to subdirectories, the bit) down.
    const gid = d.mode & S_ISGID ? d.gid : cred.gid;
    if (d.mode & S_ISGID && type === S_IFDIR) perm |= S_ISGID;
    const node = this.newInode(type | perm, cred.uid, gid, rdev);
    if (type === S_IFDIR) {
      node.parent = d;
      node.name = name;
      d.nlink++;
    } else if (type === S_IFREG) {
      node.data = new Uint8Array(0);
    }
    this.addEntry(d, name, node);
    // A new file's bytes are all new: its span starts at 0 even if the first write does not.
    if (type === S_IFREG) {
      this.observer?.created(node);
      this.observer?.data(node, 0, 0);
    } else this.observer?.meta(node);
    return node;
  }

  symlink(dir: Inode, name: string, target: string, cred: Cred): MemInode {
    const d = this.mutableDir(dir, name);
    const node = this.newInode(S_IFLNK | 0o777, cred.uid, d.mode & S_ISGID ? d.gid : cred.gid, 0);
    node.target = target;
    node.size = byteLength(target);
    this.addEntry(d, name, node);
    this.observer?.meta(node);
    return node;
  }

  link(dir: Inode, name: string, target: Inode): void {
    const d = this.mutableDir(dir, name);
    const node = this.own(target);
    if (isDir(node.mode)) throw new SysError(Errno.EPERM, 'hard link to directory');
    node.nlink++;
    node.ctimeMs = this.now();
    this.addEntry(d, name, node);
    this.observer?.meta(node);
  }

  unlink(dir: Inode, name: string): void {
    const d = this.writableDir(dir);
    const node = this.entry(d, name);
    if (isDir(node.mode)) throw new SysError(Errno.EISDIR, name);
    this.removeEntry(d, name);
    node.nlink--;
    node.ctimeMs = this.now();
    this.observer?.meta(node);
  }

  rmdir(dir: Inode, name: string): void {
    const d = this.writableDir(dir);
    const node = this.entry(d, name);
    if (!isDir(node.mode)) throw new SysError(Errno.ENOTDIR, name);
    if (node.children!.size > 0) throw new SysError(Errno.ENOTEMPTY, name);
    this.removeEntry(d, name);
    node.nlink = 0;
    node.ctimeMs = this.now();
    d.nlink--;
    this.observer?.meta(d);
  }

  rename(odir: Inode, oname: string, ndir: Inode, nname: string): void {
    const od = this.writableDir(odir);
    const nd = this.writableDir(ndir);
    const node = this.entry(od, oname);
    const old = nd.children!.get(nname) ?? null;
    if (old === node) return;
    // Validate everything before touching anything, so the move is all-or-nothing.
    if (old) {
      if (isDir(node.mode) !== isDir(old.mode)) throw new SysError(isDir(old.mode) ? Errno.EISDIR : Errno.ENOTDIR, nname);
      if (isDir(old.mode) && old.children!.size > 0) throw new SysError(Errno.ENOTEMPTY, nname);
    } else {
      this.checkNewName(nname);
    }
    const now = this.now();
    od.children!.delete(oname);
    od.size -= DIRENT_SIZE;
    if (old) {
      if (isDir(old.mode)) {
        old.nlink = 0;
        nd.nlink--;
      } else {
        old.nlink--;
      }
      old.ctimeMs = now;
      nd.children!.set(nname, node); // keeps the replaced entry's position
    } else {
      nd.children!.set(nname, node);
      nd.size += DIRENT_SIZE;
    }
    if (isDir(node.mode)) {
      node.name = nname;
      if (od !== nd) {
        od.nlink--;
        nd.nlink++;
        node.parent = nd;
      }
    }
    node.ctimeMs = now;
    od.mtimeMs = od.ctimeMs = now;
    nd.mtimeMs = nd.ctimeMs = now;
    const o = this.observer;
    if (o) {
      o.meta(od);
      o.meta(nd);
      o.meta(node);
      if (old) o.meta(old);
    }
  }

  readlink(inode: Inode): string {
    const node = this.own(inode);
    if ((node.mode & S_IFMT) !== S_IFLNK) throw new SysError(Errno.EINVAL, 'not a symlink');
    return node.target;
  }

  read(inode: Inode, pos: number, len: number): Uint8Array {
    const node = this.file(inode);
    if (pos >= node.size || len <= 0) return new Uint8Array(0);
    return node.data!.subarray(pos, Math.min(node.size, pos + len));
  }

  write(inode: Inode, pos: number, data: Uint8Array): number {
    const node = this.file(inode);
    this.checkWritable();
    if (data.length === 0) return 0;
    // Like Linux: write what fits below the limit, fail only if nothing does.
    if (pos >= this.maxFileSize) throw new SysError(Errno.EFBIG, 'file too large');
    let len = Math.min(data.length, this.maxFileSize - pos);
    const growth = Math.max(0, pos + len - node.size);
    const room = this.limit - this.usedBytes;
    if (growth > room) {
      len -= growth - Math.max(0, room);
      if (len <= 0) throw new SysError(Errno.ENOSPC, 'filesystem full');
    }
    const end = pos + len;
    if (this.observer?.willChange(node, pos)) this.detach(node, node.size);
    if (end > node.size) this.resize(node, end);
    node.data!.set(len === data.length ? data : data.subarray(0, len), pos);
    node.mtimeMs = node.ctimeMs = this.now();
    this.observer?.data(node, pos, end);
    return len;
  }

  truncate(inode: Inode, size: number): void {
    const node = this.file(inode);
    this.checkWritable();
    if (size > this.maxFileSize) throw new SysError(Errno.EFBIG, 'file too large');
    if (size - node.size > this.limit - this.usedBytes) throw new SysError(Errno.ENOSPC, 'filesystem full');
    const old = node.size;
    if (size !== old && this.observer?.willChange(node, Math.min(size, old))) this.detach(node, Math.min(size, old));
    if (size !== old) this.resize(node, size);
    node.mtimeMs = node.ctimeMs = this.now();
    this.observer?.data(node, Math.min(size, old), Math.max(size, old));
  }

  setattr(inode: Inode, attr: SetAttr): void {
    const node = this.own(inode);
    this.checkWritable();
    if (attr.mode !== undefined) node.mode = (node.mode & S_IFMT) | (attr.mode & 0o7777);
    if (attr.uid !== undefined) node.uid = attr.uid;
    if (attr.gid !== undefined) node.gid = attr.gid;
    if (attr.atimeMs !== undefined) node.atimeMs = attr.atimeMs;
    if (attr.mtimeMs !== undefined) node.mtimeMs = attr.mtimeMs;
    node.ctimeMs = this.now();
    this.observer?.meta(node);
  }

  statfs(): StatFs {
    const total = Number.isFinite(this.limit) ? Math.ceil(this.limit / PAGE) : 1 << 30;
    const used = Math.ceil(this.usedBytes / PAGE);
    const free = Math.max(0, total - used);
    return {
      type: this.type, bsize: PAGE, blocks: total, bfree: free, bavail: free,
      files: 1 << 20, ffree: Math.max(0, (1 << 20) - this.inodeCount), namelen: NAME_MAX,
    };
  }

  writeOpen(inode: Inode, delta: 1 | -1): void {
    const node = this.own(inode);
    node.writers += delta;
    if (delta > 0 && node.writers === 1) this.observer?.writeOpened(node);
    else if (node.writers === 0) this.observer?.writeClosed(node);
  }

  /**
   * Replace the whole tree by `records` (the persisted layer), keeping inode
   * numbers. Only what is reachable from the root (ino 1) is adopted; nlink
   * is recounted from the entries, so stale records cannot corrupt the tree.
   */
  importTree(records: ReadonlyMap<number, InodeRecord>, nextIno: number): void {
    const rootRec = records.get(this.rootInode.ino);
    if (!rootRec?.entries) throw new Error('layer has no root directory');
    const made = new Map<number, MemInode>([[this.rootInode.ino, this.rootInode]]);
    const root = this.rootInode;
    root.children!.clear();
    root.size = 2 * DIRENT_SIZE;
    root.nlink = 2;
    this.usedBytes = 0;
    this.inodeCount = 1;
    let maxIno = root.ino;
    const fill = (node: MemInode, rec: InodeRecord): void => {
      node.mode = rec.mode;
      node.uid = rec.uid;
      node.gid = rec.gid;
      node.atimeMs = rec.atimeMs;
      node.mtimeMs = rec.mtimeMs;
      node.ctimeMs = rec.ctimeMs;
    };
    fill(root, rootRec);
    const stack: [MemInode, InodeRecord][] = [[root, rootRec]];
    while (stack.length) {
      const [dir, rec] = stack.pop()!;
      for (const [name, ino] of rec.entries!) {
        const childRec = records.get(ino);
        if (!childRec || ino === root.ino) continue;
        let child = made.get(ino);
        if (child) {
          if (isDir(child.mode)) continue; // a directory has one name only
          child.nlink++;
        } else {
          child = new MemInode(this, ino, childRec.mode, childRec.uid, childRec.gid, childRec.rdev, 0);
          fill(child, childRec);
          made.set(ino, child);
          this.inodeCount++;
          maxIno = Math.max(maxIno, ino);
          if (isDir(child.mode)) {
            child.children = new Map();
            child.size = 2 * DIRENT_SIZE;
            child.parent = dir;
            child.name = name;
            dir.nlink++;
            stack.push([child, childRec]);
          } else if (isReg(child.mode)) {
            child.data = childRec.data ?? new Uint8Array(0);
            child.size = child.data.length;
            this.usedBytes += child.size;
          } else if ((child.mode & S_IFMT) === S_IFLNK) {
            child.target = childRec.target ?? '';
            child.size = byteLength(child.target);
          }
        }
        dir.children!.set(name, child);
        dir.size += DIRENT_SIZE;
      }
    }
    // Inode numbers of records not adopted are never reused: their old bytes may still be in a journal.
    this.nextIno = Math.max(this.nextIno, maxIno + 1, nextIno);
  }

  /** Every inode reachable from the root, each once (for a full checkpoint). */
  *walk(): Generator<MemInode> {
    const seen = new Set<MemInode>();
    const stack = [this.rootInode];
    while (stack.length) {
      const node = stack.pop()!;
      if (seen.has(node)) continue;
      seen.add(node);
      yield node;
      if (node.children) for (const child of node.children.values()) stack.push(child);
    }
  }

  evict(inode: Inode): void {
    const node = this.own(inode);
    if (node.nlink > 0) return;
    if (node.data) {
      this.usedBytes -= node.size;
      node.data = new Uint8Array(0);
      node.size = 0;
    }
    node.children?.clear();
    this.inodeCount--;
  }

  // --- helpers ---

  private newInode(mode: number, uid: number, gid: number, rdev: number): MemInode {
    const node = new MemInode(this, this.nextIno++, mode, uid, gid, rdev, this.now());
    if (isDir(mode)) {
      node.children = new Map();
      node.size = 2 * DIRENT_SIZE;
    }
    this.inodeCount++;
    return node;
  }

  /** Give `node` a buffer of its own holding its first `keep` bytes (the observer keeps the old one). */
  private detach(node: MemInode, keep: number): void {
    const next = new Uint8Array(Math.max(keep, 64));
    next.set(node.data!.subarray(0, keep));
    node.data = next;
  }

  /**
   * Grow or shrink storage. Capacity grows geometrically (×2, then ×1.5 past
   * 64 MiB) so appends are amortised O(1) — a fixed step made a 1 GiB file
   * copy ~8 GiB — but never past what the filesystem may still hold. Past
   * 64 MiB a file moves, once, into a resizable buffer that reserves address
   * space up to that and grows in place: no more copies, and no old buffers
   * left for the GC (a 750 MiB file peaked at 2 GiB of host memory without).
   */
  private resize(node: MemInode, size: number): void {
    const data = node.data!;
    if (size > data.length) {
      const most = this.limit - this.usedBytes + node.size;
      const cap = Math.max(size, Math.min(data.length * 2, size + Math.max(BIG_FILE, size >> 1), most), 64);
      const buf = data.buffer as ArrayBuffer;
      if (buf.resizable && cap <= buf.maxByteLength) {
        try {
          buf.resize(cap); // node.data tracks the buffer's length
        } catch {
          throw new SysError(Errno.ENOSPC, 'out of memory for file data');
        }
      } else {
        let next: Uint8Array;
        try {
          next = cap > BIG_FILE && Number.isFinite(most) ? new Uint8Array(new ArrayBuffer(cap, { maxByteLength: most })) : new Uint8Array(cap);
        } catch {
          throw new SysError(Errno.ENOSPC, 'out of memory for file data');
        }
        next.set(data.subarray(0, node.size));
        node.data = next;
      }
    } else if (size < node.size) {
      if (size < data.length / 4 && data.length > 64) {
        const next = new Uint8Array(Math.max(size, 64));
        next.set(data.subarray(0, size));
        node.data = next;
      } else {
        data.fill(0, size, node.size); // keep the zero-past-size invariant
      }
    }
    this.usedBytes += size - node.size;
    node.size = size;
  }

  private addEntry(d: MemInode, name: string, node: MemInode): void {
    d.children!.set(name, node);
    d.size += DIRENT_SIZE;
    d.mtimeMs = d.ctimeMs = this.now();
    this.observer?.meta(d);
  }

  private removeEntry(d: MemInode, name: string): void {
    d.children!.delete(name);
    d.size -= DIRENT_SIZE;
    d.mtimeMs = d.ctimeMs = this.now();
    this.observer?.meta(d);
  }

  private checkWritable(): void {
    if (this.readonly) throw new SysError(Errno.EROFS, this.type);
  }

  private checkNewName(name: string): void {
    if (name === '' || name === '.' || name === '..' || name.includes('/')) throw new SysError(Errno.EINVAL, name);
  }

  private own(inode: Inode): MemInode {
    if (inode.fs !== this || !(inode instanceof MemInode)) throw new SysError(Errno.EXDEV, 'inode of another fs');
    return inode;
  }

  private dir(inode: Inode): MemInode {
    const node = this.own(inode);
    if (!node.children) throw new SysError(Errno.ENOTDIR);
    return node;
  }

  private writableDir(inode: Inode): MemInode {
    const d = this.dir(inode);
    this.checkWritable();
    return d;
  }

  /** A directory about to get the new entry `name`. */
  private mutableDir(inode: Inode, name: string): MemInode {
    const d = this.writableDir(inode);
    this.checkNewName(name);
    if (d.children!.has(name)) throw new SysError(Errno.EEXIST, name);
    if (d.nlink === 0) throw new SysError(Errno.ENOENT, 'directory removed');
    return d;
  }

  private entry(d: MemInode, name: string): MemInode {
    const node = d.children!.get(name);
    if (!node) throw new SysError(Errno.ENOENT, name);
    return node;
  }

  private file(inode: Inode): MemInode {
    const node = this.own(inode);
    if (!isReg(node.mode) || !node.data) {
      throw new SysError(isDir(node.mode) ? Errno.EISDIR : Errno.EINVAL, 'not a regular file');
    }
    return node;
  }
}

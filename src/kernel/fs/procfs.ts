// procfs: a read-mostly filesystem whose tree is generated from the kernel's
// state on every lookup and readdir (the tree's shape lives in procfs/).
// Errors follow Linux: unknown names fail lookup with ENOENT (so creating
// in /proc is ENOENT too), removing or renaming is EPERM, writing a file
// with no write handler is EIO (system files) or EINVAL (per-process ones).

import { encodeBytes } from '../../abi/bytestr.js';
import { Errno, SysError } from '../../abi/errno.js';
import type { DirEntry } from '../../abi/stat.js';
import { S_IFDIR, S_IFLNK, S_IFMT, S_IFREG, dtype } from '../../abi/stat.js';
import type { Cred, FileOps, FileSystem, Inode, SetAttr } from '../vfs/types.js';
import type { Ctx, DirSpec, Entry, FileEntry, LinkEntry, Node } from './procfs/entry.js';
import { ROOT_INO, pidBase } from './procfs/ino.js';
import { ProcInode, type LinkCounter } from './procfs/inode.js';
import { PID_DIR } from './procfs/pid.js';
import { snapshotOps } from './procfs/snapshot.js';
import type { ProcSource } from './procfs/source.js';
import { ROOT_DIR } from './procfs/system.js';
import { SyntheticFs } from './synthetic.js';

export type { MountEntry, ProcSource } from './procfs/source.js';

const ROOT_CRED: Cred = { uid: 0, gid: 0, groups: [], pid: 0, umask: 0 };

const TYPE_BITS: Record<Entry['type'], number> = { dir: S_IFDIR, file: S_IFREG, link: S_IFLNK };

/** Number every fixed entry below `dir` in tree order (inode offsets within its block). */
function numberTree(dir: DirSpec, out: Map<Entry, number>): void {
  for (const e of dir.children) {
    out.set(e, out.size);
    if (e.type === 'dir') numberTree(e, out);
  }
}

export class ProcFs extends SyntheticFs implements FileSystem, LinkCounter {
  readonly type = 'proc';
  private readonly systemIndex = new Map<Entry, number>();
  private readonly pidIndex = new Map<Entry, number>();
  private readonly rootInode: ProcInode;

  constructor(readonly src: ProcSource) {
    super();
    numberTree(ROOT_DIR, this.systemIndex);
    numberTree(PID_DIR, this.pidIndex);
    this.rootInode = this.make({ entry: ROOT_DIR, pid: null, fd: -1, ino: ROOT_INO }, null, ROOT_CRED);
  }

  root(): Inode {
    return this.rootInode;
  }

  lookup(dir: Inode, name: string, cred: Cred): Inode | null {
    const d = this.own(dir);
    const spec = this.dirSpec(d);
    if (name === '..') return d.parent ?? this.rootInode;
    if (name === '.') return d;
    const node = this.childNode(d, spec, this.ctx(d, cred), name);
    // proc_lookup fails outright rather than leaving a negative entry, so
    // even O_CREAT and mkdir in /proc see ENOENT, as on Linux.
    if (!node) throw new SysError(Errno.ENOENT, name);
    return this.make(node, d, cred);
  }

  readdir(dir: Inode, cred: Cred): DirEntry[] {
    const d = this.own(dir);
    const spec = this.dirSpec(d);
    const c = this.ctx(d, cred);
    const out: DirEntry[] = spec.children.map((e) => ({
      name: e.name, ino: this.staticIno(e, d.node.pid), type: dtype(TYPE_BITS[e.type]),
    }));
    if (spec.dynamic) {
      for (const name of spec.dynamic.names(c)) {
        const node = spec.dynamic.child(c, name);
        if (node) out.push({ name, ino: node.ino, type: dtype(TYPE_BITS[node.entry.type]) });
      }
    }
    return out;
  }

  readlink(inode: Inode): string {
    const i = this.own(inode);
    return this.linkEntry(i).target(this.ctx(i, i.cred));
  }

  followLink(inode: Inode, cred: Cred): Inode | null {
    const i = this.own(inode);
    return this.linkEntry(i).follow?.(this.ctx(i, cred)) ?? null;
  }

  open(inode: Inode, _flags: number, cred: Cred): FileOps | null {
    const i = this.own(inode);
    const e = i.node.entry;
    if (e.type !== 'file') return null; // directories take the generic ops
    const c = this.ctx(i, cred);
    e.check?.(c);
    return snapshotOps({
      generate: () => this.generate(i, e, cred),
      write: e.write ? (data) => e.write!(this.liveCtx(i, cred), data) : undefined,
      writeErrno: i.node.pid === null ? Errno.EIO : Errno.EINVAL,
    });
  }

  /** For callers that read file data directly (exec of a script): the content, generated now. */
  read(inode: Inode, pos: number, len: number): Uint8Array {
    const i = this.own(inode);
    const e = i.node.entry;
    if (e.type !== 'file') throw new SysError(e.type === 'dir' ? Errno.EISDIR : Errno.EINVAL);
    e.check?.(this.ctx(i, i.cred));
    return this.generate(i, e, i.cred).slice(pos, pos + len);
  }

  /** O_TRUNC on a proc file is accepted and changes nothing, as proc_setattr does. */
  truncate(): void {}

  /** Owners and modes are derived from the processes; only times may be "set" (and are forgotten). */
  setattr(_inode: Inode, attr: SetAttr): void {
    if (attr.mode !== undefined || attr.uid !== undefined || attr.gid !== undefined) throw new SysError(Errno.EPERM);
  }

  /** Unreachable through the VFS (lookup fails first); the errors are what Linux's missing ops give. */
  create(_dir: Inode, _name: string, mode: number): Inode {
    throw new SysError((mode & S_IFMT || S_IFREG) === S_IFREG ? Errno.EACCES : Errno.EPERM);
  }

  linkCount(inode: ProcInode): number {
    if (inode.proc && this.src.get(inode.proc.pid) !== inode.proc) return 0;
    const e = inode.node.entry;
    if (e.type !== 'dir') return 1;
    const subdirs = e.children.filter((c) => c.type === 'dir').length;
    const extra = e.extraLinks?.({ src: this.src, proc: inode.proc, cred: inode.cred, fd: inode.node.fd }) ?? 0;
    return 2 + subdirs + extra;
  }

  // --- helpers ---

  private make(node: Node, parent: ProcInode | null, cred: Cred): ProcInode {
    const proc = node.pid === null ? null : this.src.get(node.pid) ?? null;
    const c: Ctx = { src: this.src, proc, cred, fd: node.fd };
    const e = node.entry;
    const perm = typeof e.perm === 'function' ? e.perm(c) : e.perm;
    // Per-process entries belong to the process's owner, as on Linux.
    return new ProcInode(
      this, node, proc, parent, cred, TYPE_BITS[e.type] | perm, proc?.uid ?? 0, proc?.gid ?? 0,
      proc ? proc.startMs : this.src.bootMs,
    );
  }

  private childNode(d: ProcInode, spec: DirSpec, c: Ctx, name: string): Node | null {
    const e = spec.children.find((x) => x.name === name);
    if (e) return { entry: e, pid: d.node.pid, fd: -1, ino: this.staticIno(e, d.node.pid) };
    return spec.dynamic?.child(c, name) ?? null;
  }

  private staticIno(e: Entry, pid: number | null): number {
    if (pid === null) return ROOT_INO + 1 + this.systemIndex.get(e)!;
    return pidBase(pid) + 1 + this.pidIndex.get(e)!;
  }

  /** Context for a generator; ENOENT once the entry's process has been reaped. */
  private ctx(i: ProcInode, cred: Cred): Ctx {
    if (i.proc && this.src.get(i.proc.pid) !== i.proc) throw new SysError(Errno.ENOENT, 'process gone');
    return { src: this.src, proc: i.proc, cred, fd: i.node.fd };
  }

  /** An already-open file of a reaped process reads ESRCH, as get_proc_task failing does. */
  private liveCtx(i: ProcInode, cred: Cred): Ctx {
    if (i.proc && this.src.get(i.proc.pid) !== i.proc) throw new SysError(Errno.ESRCH);
    return this.ctx(i, cred);
  }

  private generate(i: ProcInode, e: FileEntry, cred: Cred): Uint8Array {
    const out = e.read(this.liveCtx(i, cred));
    return typeof out === 'string' ? encodeBytes(out) : out;
  }

  private own(inode: Inode): ProcInode {
    if (inode.fs !== this || !(inode instanceof ProcInode)) throw new SysError(Errno.EXDEV, 'inode of another fs');
    return inode;
  }

  private dirSpec(i: ProcInode): DirSpec {
    const e = i.node.entry;
    if (e.type !== 'dir') throw new SysError(Errno.ENOTDIR);
    return e;
  }

  private linkEntry(i: ProcInode): LinkEntry {
    const e = i.node.entry;
    if (e.type !== 'link') throw new SysError(Errno.EINVAL, 'not a symlink');
    return e;
  }
}

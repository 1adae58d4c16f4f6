// aosfs: /aos, the agents' synthetic filesystem (docs/aos-filesystem.md).
// Like procfs its tree is generated from the kernel's state on every lookup
// and readdir (the tree: aosfs/tree.ts). Nothing can be created, removed or
// renamed in it (EPERM); the operator's projections (config) are read-only
// whoever writes (EROFS); a rename onto an action file is EPERM, not EXDEV,
// so `mv` cannot fall back to copying a file in.

import { encodeBytes } from '../../abi/bytestr.js';
import { Errno, SysError } from '../../abi/errno.js';
import type { DirEntry } from '../../abi/stat.js';
import { S_IFDIR, S_IFLNK, S_IFREG, dtype } from '../../abi/stat.js';
import type { Kernel } from '../kernel.js';
import { SyntheticFs } from './synthetic.js';
import type { Cred, FileOps, FileSystem, Inode, SetAttr } from '../vfs/types.js';
import { snapshotOps } from './procfs/snapshot.js';
import type { DirNode, FileNode, Node } from './aosfs/node.js';
import { ROOT_DIR } from './aosfs/tree.js';

const TYPE_BITS: Record<Node['type'], number> = { dir: S_IFDIR, file: S_IFREG, link: S_IFLNK };
const ROOT_CRED: Cred = { uid: 0, gid: 0, groups: [], pid: 0, umask: 0 };

export class AosInode implements Inode {
  readonly rdev = 0;
  readonly nlink = 1;
  atimeMs: number;
  mtimeMs: number;
  ctimeMs: number;
  mode: number;
  uid: number;
  gid: number;

  constructor(
    readonly fs: AosFs,
    readonly ino: number,
    readonly node: Node,
    readonly parent: AosInode | null,
    /** Who looked it up (for the generated size). */
    private readonly cred: Cred,
  ) {
    this.mode = TYPE_BITS[node.type] | node.mode;
    this.uid = node.uid ?? 0;
    this.gid = node.gid ?? 0;
    this.atimeMs = this.mtimeMs = this.ctimeMs = Date.now();
  }

  /** Instant files report their length now, so `tail -f` sees a trace grow. */
  get size(): number {
    const n = this.node;
    if (n.type !== 'file' || !n.read) return 0;
    try {
      return encodeBytes(n.read({ k: this.fs.k, cred: this.cred })).byteLength;
    } catch {
      return 0;
    }
  }
}

export class AosFs extends SyntheticFs implements FileSystem {
  readonly type = 'aos';
  /** Inode numbers by path, stable for the same name (stat twice agrees). */
  private readonly inos = new Map<string, number>();
  private readonly paths = new WeakMap<AosInode, string>();
  private readonly rootInode: AosInode;

  constructor(readonly k: Kernel) {
    super();
    this.rootInode = new AosInode(this, 1, ROOT_DIR, null, ROOT_CRED);
    this.paths.set(this.rootInode, '');
    this.inos.set('', 1);
  }

  root(): Inode {
    return this.rootInode;
  }

  lookup(dir: Inode, name: string, cred: Cred): Inode | null {
    const d = this.own(dir);
    if (name === '..') return d.parent ?? d;
    const node = this.dirNode(d).child({ k: this.k, cred }, name);
    if (!node) return null;
    return this.make(d, name, node, cred);
  }

  readdir(dir: Inode, cred: Cred): DirEntry[] {
    const d = this.own(dir);
    const c = { k: this.k, cred };
    const spec = this.dirNode(d);
    const out: DirEntry[] = [];
    for (const name of spec.names(c)) {
      const node = spec.child(c, name);
      if (node) out.push({ name, ino: this.inoOf(`${this.paths.get(d)}/${name}`), type: dtype(TYPE_BITS[node.type]) });
    }
    return out;
  }

  readlink(inode: Inode): string {
    const n = this.own(inode).node;
    if (n.type !== 'link') throw new SysError(Errno.EINVAL, 'not a symlink');
    return n.target;
  }

  open(inode: Inode, _flags: number, cred: Cred): FileOps | null {
    const n = this.own(inode).node;
    if (n.type !== 'file') return null;
    const c = { k: this.k, cred };
    if (n.open) return n.open(c, _flags);
    return snapshotOps({ generate: () => this.generate(n, cred), writeErrno: n.readOnly ? Errno.EROFS : Errno.EACCES });
  }

  /** A write open of a projection is EROFS, before permissions (root too). */
  readOnlyFile(inode: Inode): boolean {
    const n = this.own(inode).node;
    return n.type === 'file' && !!n.readOnly;
  }

  /** Nothing is renamed onto /aos (an atomic-save editor must not slip a message past the inbox's rules). */
  renameTarget(): void {
    throw new SysError(Errno.EPERM, 'nothing can be renamed into /aos');
  }

  read(inode: Inode, pos: number, len: number): Uint8Array {
    const n = this.own(inode).node;
    if (n.type !== 'file' || !n.read) throw new SysError(Errno.EINVAL);
    return this.generate(n, ROOT_CRED).slice(pos, pos + len);
  }

  /** O_TRUNC: ignored on action files (`>` and `>>` both send); a projection is EROFS. */
  truncate(inode: Inode): void {
    if (this.readOnlyFile(inode)) throw new SysError(Errno.EROFS);
  }

  setattr(inode: Inode, attr: SetAttr): void {
    if (attr.mode !== undefined || attr.uid !== undefined || attr.gid !== undefined) {
      throw new SysError(this.readOnlyFile(inode) ? Errno.EROFS : Errno.EPERM);
    }
  }

  create(): Inode {
    throw new SysError(Errno.EPERM, 'nothing can be created in /aos');
  }

  // ---- helpers ----

  private make(parent: AosInode, name: string, node: Node, cred: Cred): AosInode {
    const path = `${this.paths.get(parent)}/${name}`;
    const i = new AosInode(this, this.inoOf(path), node, parent, cred);
    this.paths.set(i, path);
    return i;
  }

  private inoOf(path: string): number {
    let n = this.inos.get(path);
    if (n === undefined) this.inos.set(path, (n = this.inos.size + 1));
    return n;
  }

  private generate(n: FileNode, cred: Cred): Uint8Array {
    return encodeBytes(n.read ? n.read({ k: this.k, cred }) : '');
  }

  private own(inode: Inode): AosInode {
    if (inode.fs !== this || !(inode instanceof AosInode)) throw new SysError(Errno.EXDEV, 'inode of another fs');
    return inode;
  }

  private dirNode(i: AosInode): DirNode {
    if (i.node.type !== 'dir') throw new SysError(Errno.ENOTDIR);
    return i.node;
  }
}

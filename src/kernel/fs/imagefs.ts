// The read-only filesystem over an agentOS image (src/abi/image.ts), used in
// place: nothing is unpacked. Inodes are materialised from their fixed-size
// records on first lookup (one object per ino, so identity is stable), a
// directory's names are decoded on its first lookup, and file reads are views
// of the image buffer. It is the lower layer of the overlay root.

import { decodeBytes } from '../../abi/bytestr.js';
import { Errno, SysError } from '../../abi/errno.js';
import { NAME_MAX } from '../../abi/fcntl.js';
import {
  ENTRY_SIZE, E_INO, E_NAME, E_NAMELEN, E_TYPE, INODE_SIZE, I_GID, I_LEN, I_MODE, I_MTIME, I_NLINK, I_OFF, I_PARENT,
  I_RDEV, I_SIZE, I_UID, ROOT_INO, readImageHeader,
} from '../../abi/image.js';
import type { ImageHeader } from '../../abi/image.js';
import type { DirEntry, StatFs } from '../../abi/stat.js';
import { isDir, isLnk, isReg } from '../../abi/stat.js';
import type { Cred, FileSystem, Inode, SetAttr } from '../vfs/types.js';

const PAGE = 4096;

export class ImageInode implements Inode {
  mode: number;
  uid: number;
  gid: number;
  nlink: number;
  size: number;
  rdev: number;
  atimeMs: number;
  mtimeMs: number;
  ctimeMs: number;
  /** Directories: the parent's ino. */
  readonly parentIno: number;
  /** Files and symlinks: byte range in the data section; directories: entry range. */
  readonly off: number;
  readonly len: number;
  /** Directories: entries, decoded on first use. */
  entries: DirEntry[] | null = null;
  byName: Map<string, number> | null = null;
  /** Symlinks: the target, decoded on first use. */
  target: string | null = null;

  constructor(readonly fs: ImageFs, readonly ino: number, v: DataView, at: number) {
    this.mode = v.getUint32(at + I_MODE, true);
    this.uid = v.getUint32(at + I_UID, true);
    this.gid = v.getUint32(at + I_GID, true);
    this.nlink = v.getUint32(at + I_NLINK, true);
    this.rdev = v.getUint32(at + I_RDEV, true);
    this.parentIno = v.getUint32(at + I_PARENT, true);
    this.size = v.getUint32(at + I_SIZE, true);
    this.off = v.getUint32(at + I_OFF, true);
    this.len = v.getUint32(at + I_LEN, true);
    this.atimeMs = this.mtimeMs = this.ctimeMs = v.getFloat64(at + I_MTIME, true);
  }
}

export class ImageFs implements FileSystem {
  readonly type = 'imagefs';
  dev = 0;
  readonly readonly = true;
  readonly header: ImageHeader;
  private readonly view: DataView;
  private readonly inodes: (ImageInode | undefined)[];

  /** Only the header is read here; the rest is read on demand. */
  constructor(private readonly image: Uint8Array) {
    this.header = readImageHeader(image);
    this.view = new DataView(image.buffer, image.byteOffset, image.byteLength);
    this.inodes = new Array(this.header.inodeCount + 1);
  }

  /** The image's size in bytes. */
  get bytes(): number {
    return this.image.length;
  }

  root(): ImageInode {
    return this.inode(ROOT_INO);
  }

  /** The inode numbered `ino`, materialised once. */
  inode(ino: number): ImageInode {
    let node = this.inodes[ino];
    if (!node) {
      if (!(ino >= 1 && ino <= this.header.inodeCount)) throw new SysError(Errno.EIO, `image: bad ino ${ino}`);
      node = new ImageInode(this, ino, this.view, this.header.inodesOffset + (ino - 1) * INODE_SIZE);
      this.inodes[ino] = node;
    }
    return node;
  }

  lookup(dir: Inode, name: string): ImageInode | null {
    const d = this.dir(dir);
    if (name === '..') return this.inode(d.parentIno);
    if (name === '.') return d;
    const ino = this.names(d).get(name);
    return ino === undefined ? null : this.inode(ino);
  }

  readdir(dir: Inode): DirEntry[] {
    return this.entries(this.dir(dir)).map((e) => ({ ...e }));
  }

  dirName(dir: Inode, child: Inode): string | null {
    const c = this.own(child);
    if (!isDir(c.mode) || c.ino === ROOT_INO || c.parentIno !== dir.ino || dir.fs !== this) return null;
    return this.entries(this.dir(dir)).find((e) => e.ino === c.ino)?.name ?? null;
  }

  readlink(inode: Inode): string {
    const node = this.own(inode);
    if (!isLnk(node.mode)) throw new SysError(Errno.EINVAL, 'not a symlink');
    node.target ??= decodeBytes(this.data(node, 0, node.len));
    return node.target;
  }

  read(inode: Inode, pos: number, len: number): Uint8Array {
    const node = this.own(inode);
    if (!isReg(node.mode)) throw new SysError(isDir(node.mode) ? Errno.EISDIR : Errno.EINVAL, 'not a regular file');
    if (pos >= node.len || len <= 0) return new Uint8Array(0);
    return this.data(node, pos, Math.min(node.len, pos + len));
  }

  statfs(): StatFs {
    return {
      type: this.type, bsize: PAGE, blocks: Math.ceil(this.image.length / PAGE), bfree: 0, bavail: 0,
      files: this.header.inodeCount, ffree: 0, namelen: NAME_MAX,
    };
  }

  // Every mutation: the image is immutable (the overlay's upper layer takes writes).
  create(_dir: Inode, _name: string, _mode: number, _rdev: number, _cred: Cred): never {
    throw this.erofs();
  }
  symlink(_dir: Inode, _name: string, _target: string, _cred: Cred): never {
    throw this.erofs();
  }
  link(_dir: Inode, _name: string, _target: Inode): never {
    throw this.erofs();
  }
  unlink(_dir: Inode, _name: string): never {
    throw this.erofs();
  }
  rmdir(_dir: Inode, _name: string): never {
    throw this.erofs();
  }
  rename(_odir: Inode, _oname: string, _ndir: Inode, _nname: string): never {
    throw this.erofs();
  }
  write(_inode: Inode, _pos: number, _data: Uint8Array): never {
    throw this.erofs();
  }
  truncate(_inode: Inode, _size: number): never {
    throw this.erofs();
  }
  setattr(_inode: Inode, _attr: SetAttr): never {
    throw this.erofs();
  }

  // --- helpers ---

  private erofs(): SysError {
    return new SysError(Errno.EROFS, this.type);
  }

  /** Bytes [start, end) of the inode's range in the data section: a view, never a copy. */
  private data(node: ImageInode, start: number, end: number): Uint8Array {
    const base = this.header.dataOffset + node.off;
    if (node.off + node.len > this.header.dataBytes) throw new SysError(Errno.EIO, 'image: data out of bounds');
    return this.image.subarray(base + start, base + end);
  }

  private entries(d: ImageInode): DirEntry[] {
    if (!d.entries) {
      const { entriesOffset, entryCount, namesOffset, namesBytes } = this.header;
      if (d.off + d.len > entryCount) throw new SysError(Errno.EIO, 'image: entries out of bounds');
      const v = this.view;
      const out: DirEntry[] = new Array(d.len);
      for (let i = 0; i < d.len; i++) {
        const at = entriesOffset + (d.off + i) * ENTRY_SIZE;
        const nameAt = v.getUint32(at + E_NAME, true);
        const nameLen = v.getUint16(at + E_NAMELEN, true);
        if (nameAt + nameLen > namesBytes) throw new SysError(Errno.EIO, 'image: name out of bounds');
        const name = this.decodeName(namesOffset + nameAt, nameLen);
        out[i] = { name, ino: v.getUint32(at + E_INO, true), type: v.getUint8(at + E_TYPE) };
      }
      d.entries = out;
    }
    return d.entries;
  }

  private names(d: ImageInode): Map<string, number> {
    if (!d.byName) d.byName = new Map(this.entries(d).map((e) => [e.name, e.ino]));
    return d.byName;
  }

  /** Names are nearly always ASCII: skip TextDecoder's call overhead for them. */
  private decodeName(at: number, len: number): string {
    const b = this.image;
    let s = '';
    for (let i = at; i < at + len; i++) {
      if (b[i] >= 0x80) return decodeBytes(b.subarray(at, at + len));
      s += String.fromCharCode(b[i]);
    }
    return s;
  }

  private own(inode: Inode): ImageInode {
    if (inode.fs !== this || !(inode instanceof ImageInode)) throw new SysError(Errno.EXDEV, 'inode of another fs');
    return inode;
  }

  private dir(inode: Inode): ImageInode {
    const node = this.own(inode);
    if (!isDir(node.mode)) throw new SysError(Errno.ENOTDIR);
    return node;
  }
}

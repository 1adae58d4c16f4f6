// The agentOS image format: a whole directory tree in one immutable file that
// the kernel reads in place. Written at build time by `serializeImage` (over
// any populated filesystem), read by the kernel's ImageFs.
//
// Layout (integers little-endian; offsets are from the start of the image):
//
//   header   HEADER_SIZE bytes: magic, version, counts, section offsets
//   inodes   INODE_SIZE bytes each, ino 1 (the root) first. A record's place
//            is its ino, so any inode is read without parsing anything else:
//            opening an image costs one header check, whatever its size.
//   entries  ENTRY_SIZE bytes each. A directory's entries are one contiguous
//            run, sorted by name; hard links are entries sharing an ino.
//   names    entry names as bytes (deduplicated; abi/bytestr.ts), referenced by entries
//   data     regular-file bytes and symlink targets, one contiguous range per
//            inode, so file reads are views of the image buffer.
//
// Inode record: mode, uid, gid, nlink, rdev, parent (directories), size,
// off, len (u32 each), reserved u32, mtimeMs (f64). For regular files and
// symlinks off/len locate the bytes in the data section; for directories they
// are the first entry index and the entry count.
// Entry record: ino u32, name offset u32, name length u16, d_type u8, pad u8.

import { encodeBytes } from './bytestr.js';

/** "\x7fAOSIMG\n": like the runtime images' "\x7fAOS", never valid text. */
export const IMAGE_MAGIC = [0x7f, 0x41, 0x4f, 0x53, 0x49, 0x4d, 0x47, 0x0a];
export const IMAGE_VERSION = 1;
export const HEADER_SIZE = 64;
export const INODE_SIZE = 48;
export const ENTRY_SIZE = 12;
export const ROOT_INO = 1;

// Inode record field offsets.
export const I_MODE = 0, I_UID = 4, I_GID = 8, I_NLINK = 12, I_RDEV = 16, I_PARENT = 20;
export const I_SIZE = 24, I_OFF = 28, I_LEN = 32, I_MTIME = 40;
// Entry record field offsets.
export const E_INO = 0, E_NAME = 4, E_NAMELEN = 8, E_TYPE = 10;

const S_IFMT = 0o170000, S_IFDIR = 0o040000, S_IFREG = 0o100000, S_IFLNK = 0o120000;

export interface ImageHeader {
  version: number;
  inodeCount: number;
  entryCount: number;
  inodesOffset: number;
  entriesOffset: number;
  namesOffset: number;
  namesBytes: number;
  dataOffset: number;
  dataBytes: number;
  totalBytes: number;
}

/** Validate the header and section bounds of `image`; throws on anything else. */
export function readImageHeader(image: Uint8Array): ImageHeader {
  if (image.length < HEADER_SIZE || IMAGE_MAGIC.some((b, i) => image[i] !== b)) {
    throw new Error('not an agentOS image (bad magic)');
  }
  const v = new DataView(image.buffer, image.byteOffset, image.byteLength);
  const u = (at: number) => v.getUint32(at, true);
  const h: ImageHeader = {
    version: u(8), inodeCount: u(12), entryCount: u(16), inodesOffset: HEADER_SIZE, entriesOffset: 0,
    namesOffset: u(20), namesBytes: u(24), dataOffset: u(28), dataBytes: u(32), totalBytes: u(36),
  };
  if (h.version !== IMAGE_VERSION) throw new Error(`agentOS image version ${h.version}, expected ${IMAGE_VERSION}`);
  h.entriesOffset = h.inodesOffset + h.inodeCount * INODE_SIZE;
  const ok = h.inodeCount >= 1 && h.totalBytes === image.length
    && h.namesOffset === h.entriesOffset + h.entryCount * ENTRY_SIZE
    && h.namesOffset + h.namesBytes <= h.dataOffset && h.dataOffset + h.dataBytes === h.totalBytes;
  if (!ok) throw new Error('corrupt agentOS image (section bounds)');
  return h;
}

/** A credential the source filesystem accepts; serialization reads as root. */
export interface SourceCred {
  uid: number;
  gid: number;
  groups: readonly number[];
  pid: number;
  umask: number;
}

/** What serializeImage reads: every FileSystem (src/kernel/vfs/types.ts) fits. */
export interface SourceNode {
  readonly ino: number;
  mode: number;
  uid: number;
  gid: number;
  size: number;
  rdev: number;
  mtimeMs: number;
}

export interface ImageSource<N extends SourceNode> {
  root(): N;
  readdir(dir: N, cred: SourceCred): { name: string }[];
  lookup(dir: N, name: string, cred: SourceCred): N | null;
  readlink(node: N): string;
  read(node: N, pos: number, len: number): Uint8Array;
}

const ROOT_CRED: SourceCred = { uid: 0, gid: 0, groups: [], pid: 0, umask: 0o022 };

interface Pending {
  node: SourceNode;
  parent: number;
  nlink: number;
  off: number;
  len: number;
}

/** Serialize the tree under `src.root()` into one image. */
export function serializeImage<N extends SourceNode>(src: ImageSource<N>, cred: SourceCred = ROOT_CRED): Uint8Array {
  const inodes: Pending[] = [];
  const inoOf = new Map<number, number>(); // source ino -> image ino (hard links meet here)
  const entries: { ino: number; name: number; nameLen: number; type: number }[] = [];
  const names: Uint8Array[] = [];
  const nameAt = new Map<string, [number, number]>();
  let namesBytes = 0;

  const add = (node: N, parent: number): number => {
    inodes.push({ node, parent, nlink: 0, off: 0, len: 0 });
    inoOf.set(node.ino, inodes.length);
    return inodes.length;
  };
  const internName = (name: string): [number, number] => {
    let at = nameAt.get(name);
    if (!at) {
      const b = encodeBytes(name);
      if (b.length > 0xffff) throw new Error(`image: name too long: ${name}`);
      at = [namesBytes, b.length];
      names.push(b);
      namesBytes += b.length;
      nameAt.set(name, at);
    }
    return at;
  };

  // Breadth-first, so each directory's entries are written as one run.
  const root = src.root();
  const queue: [N, number][] = [[root, add(root, ROOT_INO)]];
  for (let q = 0; q < queue.length; q++) {
    const [dir, dino] = queue[q];
    const rec = inodes[dino - 1];
    rec.nlink = 2;
    const list = src.readdir(dir, cred).map((e) => e.name).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    rec.off = entries.length;
    rec.len = list.length;
    for (const name of list) {
      const child = src.lookup(dir, name, cred);
      if (!child) throw new Error(`image: ${name} vanished while serializing`);
      const isDir = (child.mode & S_IFMT) === S_IFDIR;
      let ino = inoOf.get(child.ino);
      if (ino === undefined) {
        ino = add(child, isDir ? dino : 0);
        if (isDir) queue.push([child, ino]);
      } else if (isDir) {
        throw new Error(`image: directory ${name} reached twice`);
      }
      if (isDir) rec.nlink++;
      else inodes[ino - 1].nlink++;
      const [at, len] = internName(name);
      entries.push({ ino, name: at, nameLen: len, type: (child.mode & S_IFMT) >> 12 });
    }
  }

  // File data and symlink targets, in ino order.
  const blobs: Uint8Array[] = [];
  let dataBytes = 0;
  for (const rec of inodes) {
    const type = rec.node.mode & S_IFMT;
    let bytes: Uint8Array | null = null;
    if (type === S_IFREG) bytes = readAll(src, rec.node as N);
    else if (type === S_IFLNK) bytes = encodeBytes(src.readlink(rec.node as N));
    if (!bytes) continue;
    rec.off = dataBytes;
    rec.len = bytes.length;
    blobs.push(bytes);
    dataBytes += bytes.length;
  }

  const entriesOffset = HEADER_SIZE + inodes.length * INODE_SIZE;
  const namesOffset = entriesOffset + entries.length * ENTRY_SIZE;
  const dataOffset = align8(namesOffset + namesBytes);
  const total = dataOffset + dataBytes;
  if (total > 0xffffffff) throw new Error('image: larger than 4 GiB');

  const out = new Uint8Array(total);
  const v = new DataView(out.buffer);
  out.set(IMAGE_MAGIC, 0);
  [IMAGE_VERSION, inodes.length, entries.length, namesOffset, namesBytes, dataOffset, dataBytes, total]
    .forEach((x, i) => v.setUint32(8 + 4 * i, x, true));
  inodes.forEach((rec, i) => {
    const at = HEADER_SIZE + i * INODE_SIZE;
    const n = rec.node;
    const size = (n.mode & S_IFMT) === S_IFREG || (n.mode & S_IFMT) === S_IFLNK ? rec.len : n.size;
    [n.mode, n.uid, n.gid, rec.nlink, n.rdev, rec.parent, size, rec.off, rec.len]
      .forEach((x, j) => v.setUint32(at + 4 * j, x, true));
    v.setFloat64(at + I_MTIME, n.mtimeMs, true);
  });
  entries.forEach((e, i) => {
    const at = entriesOffset + i * ENTRY_SIZE;
    v.setUint32(at + E_INO, e.ino, true);
    v.setUint32(at + E_NAME, e.name, true);
    v.setUint16(at + E_NAMELEN, e.nameLen, true);
    v.setUint8(at + E_TYPE, e.type);
  });
  let p = namesOffset;
  for (const b of names) {
    out.set(b, p);
    p += b.length;
  }
  p = dataOffset;
  for (const b of blobs) {
    out.set(b, p);
    p += b.length;
  }
  return out;
}

/** A regular file's whole contents; read() may return less than asked. */
function readAll<N extends SourceNode>(src: ImageSource<N>, node: N): Uint8Array {
  const out = new Uint8Array(node.size);
  let at = 0;
  while (at < node.size) {
    const chunk = src.read(node, at, node.size - at);
    if (chunk.length === 0) break;
    out.set(chunk, at);
    at += chunk.length;
  }
  return at === node.size ? out : out.subarray(0, at);
}

const align8 = (n: number): number => Math.ceil(n / 8) * 8;

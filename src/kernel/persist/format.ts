// The persisted layer's byte format (documented in docs/decisions/0014 and 0033).
//
// A layer is a checkpoint followed by journal frames. Both hold the same
// records; a checkpoint holds every live inode, a frame only what changed.
//
//   frame      = header, payload
//   header     = u32 FRAME_MAGIC, u32 payloadLength, f64 seq, u32 crc32(payload),
//                u32 crc32(the 20 header bytes before it)
//   payload    = u32 MAGIC, u32 SCHEMA, f64 seq, str imageId, record*, u8 END
//   record     = u8 META ino mode uid gid rdev f64 atime mtime ctime
//                   [str target (symlink) | u32 n, (str name, u32 ino)*n (dir)]
//              | u8 DATA ino f64 size u32 n, (f64 offset, u32 length, bytes)*n
//   str        = u32 byteLength, bytes (names are bytes: abi/bytestr.ts)
//
// Records are absolute (the new value, not a delta), so replaying a frame
// twice is harmless. The header's own checksum makes its length and sequence
// number trustworthy on their own: a frame cut short by a crash (the file ends
// inside it) is told apart from a damaged one (scan.ts).
//
// Schema 1 frames (u32 payloadLength, u32 crc32(payload), payload) are still read.

import { decodeBytes, encodeBytes } from '../../abi/bytestr.js';
import { frameCrc32 as crc32 } from './checksum.js';
import type { InodeRecord } from '../fs/memfs.js';

export const MAGIC = 0x4c534f41; // "AOSL"
export const FRAME_MAGIC = 0x46534f41; // "AOSF"
export const HEADER = 24;
/** Bump on any change to the layout above; older layers are read (scan.ts) or refused. */
export const SCHEMA = 2;

const END = 0;
const META = 1;
const DATA = 2;

export interface Commit {
  seq: number;
  imageId: string;
  meta: InodeRecord[];
  data: DataRecord[];
}

/** New bytes of a regular file: its size, and the ranges that changed since the last commit. */
export interface DataRecord {
  ino: number;
  size: number;
  ranges: { offset: number; bytes: Uint8Array }[];
}

export class LayerFormatError extends Error {}

/** A layer written by a newer agentOS: refused whole, never repaired. */
export class NewerLayerError extends LayerFormatError {}

/**
 * A frame under construction: small fields go to a scratch buffer, large
 * byte runs are kept by reference (file data is not copied to be framed).
 */
class Out {
  private readonly parts: Uint8Array[] = [];
  private buf = new Uint8Array(64 << 10);
  private view = new DataView(this.buf.buffer);
  private len = 0;
  private total = 0;

  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    this.flush();
    if (n > this.buf.length) {
      this.buf = new Uint8Array(n);
      this.view = new DataView(this.buf.buffer);
    }
  }

  private flush(): void {
    if (this.len === 0) return;
    this.parts.push(this.buf.slice(0, this.len));
    this.len = 0;
  }

  u8(v: number): void {
    this.room(1);
    this.buf[this.len++] = v;
    this.total++;
  }

  u32(v: number): void {
    this.room(4);
    this.view.setUint32(this.len, v >>> 0, true);
    this.len += 4;
    this.total += 4;
  }

  f64(v: number): void {
    this.room(8);
    this.view.setFloat64(this.len, v, true);
    this.len += 8;
    this.total += 8;
  }

  bytes(b: Uint8Array): void {
    if (b.length > 4096) {
      this.flush();
      this.parts.push(b);
    } else {
      this.room(b.length);
      this.buf.set(b, this.len);
      this.len += b.length;
    }
    this.total += b.length;
  }

  str(s: string): void {
    const b = encodeBytes(s);
    this.u32(b.length);
    this.bytes(b);
  }

  /**
   * The frame as its pieces, in order: its header, then everything written.
   * Large byte runs are the caller's buffers, not copies (a 100 MB file is
   * not copied to be written); the pieces are one frame's bytes end to end.
   */
  pieces(seq: number): Uint8Array[] {
    this.flush();
    let crc = 0;
    for (const p of this.parts) crc = crc32(p, crc);
    const head = new Uint8Array(HEADER);
    const view = new DataView(head.buffer);
    view.setUint32(0, FRAME_MAGIC, true);
    view.setUint32(4, this.total, true);
    view.setFloat64(8, seq, true);
    view.setUint32(16, crc, true);
    view.setUint32(20, crc32(head.subarray(0, 20)), true);
    return [head, ...this.parts];
  }
}

class In {
  private readonly view: DataView;
  pos = 0;

  constructor(private readonly buf: Uint8Array, private readonly share: boolean) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  private need(n: number): void {
    if (this.pos + n > this.buf.length) throw new LayerFormatError('record runs past the end of its frame');
  }

  u8(): number {
    this.need(1);
    return this.buf[this.pos++];
  }

  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  f64(): number {
    this.need(8);
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  bytes(n: number): Uint8Array {
    this.need(n);
    // A view where the caller gives the frame away (see decodePayload), else a copy.
    return this.share ? this.buf.subarray(this.pos, (this.pos += n)) : this.buf.slice(this.pos, (this.pos += n));
  }

  str(): string {
    const n = this.u32();
    this.need(n);
    return decodeBytes(this.buf.subarray(this.pos, (this.pos += n)));
  }
}

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

/** A commit as one frame (header included), in one buffer. */
export function encodeFrame(c: Commit): Uint8Array {
  return joinPieces(encodeFramePieces(c));
}

/** The bytes of `pieces` end to end. */
export function joinPieces(pieces: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(piecesLength(pieces));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function piecesLength(pieces: readonly Uint8Array[]): number {
  return pieces.reduce((n, p) => n + p.length, 0);
}

/** A commit as one frame in pieces (Out.pieces): the large byte runs are `c`'s own buffers. */
export function encodeFramePieces(c: Commit): Uint8Array[] {
  const o = new Out();
  o.u32(MAGIC);
  o.u32(SCHEMA);
  o.f64(c.seq);
  o.str(c.imageId);
  for (const r of c.meta) {
    o.u8(META);
    o.u32(r.ino);
    o.u32(r.mode);
    o.u32(r.uid);
    o.u32(r.gid);
    o.u32(r.rdev);
    o.f64(r.atimeMs);
    o.f64(r.mtimeMs);
    o.f64(r.ctimeMs);
    const type = r.mode & S_IFMT;
    if (type === S_IFLNK) o.str(r.target ?? '');
    else if (type === S_IFDIR) {
      const entries = r.entries ?? [];
      o.u32(entries.length);
      for (const [name, ino] of entries) {
        o.str(name);
        o.u32(ino);
      }
    }
  }
  for (const d of c.data) {
    o.u8(DATA);
    o.u32(d.ino);
    o.f64(d.size);
    o.u32(d.ranges.length);
    for (const r of d.ranges) {
      o.f64(r.offset);
      o.u32(r.bytes.length);
      o.bytes(r.bytes);
    }
  }
  o.u8(END);
  return o.pieces(c.seq);
}

/**
 * A frame's payload as a commit (its checksum already checked). With `share`,
 * file data are views of `payload`, not copies: for a checkpoint or snapshot
 * frame read for this alone, where every data byte belongs to one file of the
 * layer (so the frame's buffer is the files' storage, nothing is wasted) and
 * nothing else holds the buffer. A journal is decoded with copies: its frames
 * may hold many versions of a file, and views would keep them all alive.
 */
export function decodePayload(payload: Uint8Array, share = false): Commit {
  const i = new In(payload, share);
  if (i.u32() !== MAGIC) throw new LayerFormatError('not an agentOS layer');
  const schema = i.u32();
  if (schema > SCHEMA || schema < 1) {
    throw new NewerLayerError(`layer schema ${schema} is not one this agentOS reads (${SCHEMA}); it was written by a newer agentOS`);
  }
  const c: Commit = { seq: i.f64(), imageId: i.str(), meta: [], data: [] };
  for (;;) {
    const tag = i.u8();
    if (tag === END) break;
    if (tag === META) {
      const r: InodeRecord = {
        ino: i.u32(), mode: i.u32(), uid: i.u32(), gid: i.u32(), rdev: i.u32(),
        atimeMs: i.f64(), mtimeMs: i.f64(), ctimeMs: i.f64(),
      };
      const type = r.mode & S_IFMT;
      if (type === S_IFLNK) r.target = i.str();
      else if (type === S_IFDIR) {
        const n = i.u32();
        r.entries = [];
        for (let k = 0; k < n; k++) r.entries.push([i.str(), i.u32()]);
      }
      c.meta.push(r);
    } else if (tag === DATA) {
      const d: DataRecord = { ino: i.u32(), size: i.f64(), ranges: [] };
      const n = i.u32();
      for (let k = 0; k < n; k++) {
        const offset = i.f64();
        d.ranges.push({ offset, bytes: i.bytes(i.u32()) });
      }
      c.data.push(d);
    } else {
      throw new LayerFormatError(`unknown record type ${tag}`);
    }
  }
  return c;
}

// The zip format as Info-ZIP zip 3.0 writes it on Unix (names as their UTF-8
// bytes without the UTF-8 flag, as Info-ZIP does in the C locale, whose UnZip
// would otherwise show "#U00e9" escapes): local headers with
// the "UT" (times) and "ux" (uid/gid) extra fields, central directory
// entries that carry the Unix mode in the high half of the external
// attributes, an end-of-central-directory record; DOS times in local time
// (UTC in agentOS), rounded up to even seconds.

import { decodeBytes, encodeBytes } from '../../../abi/bytestr.js';

export const LOCAL_SIG = 0x04034b50;
export const CENTRAL_SIG = 0x02014b50;
export const EOCD_SIG = 0x06054b50;
export const DESCRIPTOR_SIG = 0x08074b50;
export const STORED = 0;
export const DEFLATED = 8;
/** General purpose flags: data descriptor follows the data; UTF-8 names. */
export const FLAG_DESCRIPTOR = 0x08;
export const FLAG_UTF8 = 0x800;
const VERSION_MADE_BY = 0x031e; // Unix, zip 3.0

export interface Entry {
  name: string;
  method: number;
  flags: number;
  crc: number;
  csize: number;
  usize: number;
  /** Unix mode (type and permissions), 0 when the archive was not made on Unix. */
  mode: number;
  /** Seconds since the epoch: the UT field's when present, else the DOS time. */
  mtime: number;
  dosTime: number;
  dosDate: number;
  uid: number | null;
  gid: number | null;
  /** Where its local header starts. */
  offset: number;
  versionMadeBy: number;
  versionNeeded: number;
  internalAttrs: number;
  externalAttrs: number;
  /** The central directory record as read (zip copies it when updating). */
  raw: Uint8Array;
}

/** Info-ZIP's unix2dostime: local time (UTC here), odd seconds rounded up. */
export function toDos(secs: number): { time: number; date: number } {
  const s = Math.floor(secs);
  const d = new Date((s % 2 ? s + 1 : s) * 1000);
  const y = d.getUTCFullYear();
  if (y < 1980) return { time: 0, date: (1 << 5) | 1 };
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1),
    date: ((y - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

export function fromDos(time: number, date: number): number {
  return Date.UTC(1980 + (date >> 9), ((date >> 5) & 15) - 1, date & 31, time >> 11, (time >> 5) & 63, (time & 31) * 2) / 1000;
}

class Out {
  readonly b: Uint8Array;
  readonly v: DataView;
  p = 0;
  constructor(n: number) {
    this.b = new Uint8Array(n);
    this.v = new DataView(this.b.buffer);
  }
  u16(x: number): this {
    this.v.setUint16(this.p, x, true);
    this.p += 2;
    return this;
  }
  u32(x: number): this {
    this.v.setUint32(this.p, x >>> 0, true);
    this.p += 4;
    return this;
  }
  u8(x: number): this {
    this.b[this.p++] = x;
    return this;
  }
  bytes(x: Uint8Array): this {
    this.b.set(x, this.p);
    this.p += x.byteLength;
    return this;
  }
}

export interface NewEntry {
  name: string;
  method: number;
  level: number;
  mode: number;
  mtime: number;
  atime: number;
  uid: number;
  gid: number;
  /** false: -X, no extra attributes. */
  extras: boolean;
  descriptor: boolean;
}

const levelFlags = (e: NewEntry): number => (e.method !== DEFLATED ? 0 : e.level >= 8 ? 2 : e.level <= 2 ? 4 : 0);
const needed = (e: NewEntry): number => (e.method === DEFLATED ? 20 : 10);

function uxField(uid: number, gid: number): Uint8Array {
  return new Out(15).u16(0x7875).u16(11).u8(1).u8(4).u32(uid).u8(4).u32(gid).b;
}

/** The local header; crc and sizes are zero until patched (or, streaming, in a descriptor). */
export function localHeader(e: NewEntry, crc = 0, csize = 0, usize = 0): Uint8Array {
  const name = encodeBytes(e.name);
  const extra = e.extras ? [new Out(13).u16(0x5455).u16(9).u8(3).u32(e.mtime).u32(e.atime).b, uxField(e.uid, e.gid)] : [];
  const extraLen = extra.reduce((n, x) => n + x.byteLength, 0);
  const { time, date } = toDos(e.mtime);
  const o = new Out(30 + name.byteLength + extraLen)
    .u32(LOCAL_SIG).u16(needed(e)).u16(levelFlags(e) | (e.descriptor ? FLAG_DESCRIPTOR : 0)).u16(e.method)
    .u16(time).u16(date).u32(crc).u32(csize).u32(usize).u16(name.byteLength).u16(extraLen).bytes(name);
  for (const x of extra) o.bytes(x);
  return o.b;
}

/** Offset of the CRC field within a local header (where zip patches crc and sizes). */
export const LOCAL_CRC_OFFSET = 14;

export function descriptor(crc: number, csize: number, usize: number): Uint8Array {
  return new Out(16).u32(DESCRIPTOR_SIG).u32(crc).u32(csize).u32(usize).b;
}


export function centralHeader(e: NewEntry, crc: number, csize: number, usize: number, offset: number, text: boolean): Uint8Array {
  const name = encodeBytes(e.name);
  const extra = e.extras ? [new Out(9).u16(0x5455).u16(5).u8(3).u32(e.mtime).b, uxField(e.uid, e.gid)] : [];
  const extraLen = extra.reduce((n, x) => n + x.byteLength, 0);
  const { time, date } = toDos(e.mtime);
  const dosAttrs = (e.mode & 0o170000) === 0o040000 ? 0x10 : 0;
  const o = new Out(46 + name.byteLength + extraLen)
    .u32(CENTRAL_SIG).u16(VERSION_MADE_BY).u16(needed(e)).u16(levelFlags(e) | (e.descriptor ? FLAG_DESCRIPTOR : 0))
    .u16(e.method).u16(time).u16(date).u32(crc).u32(csize).u32(usize).u16(name.byteLength).u16(extraLen)
    .u16(0).u16(0).u16(text ? 1 : 0).u32(((e.mode & 0xffff) << 16 | dosAttrs) >>> 0).u32(offset).bytes(name);
  for (const x of extra) o.bytes(x);
  return o.b;
}

export function endRecord(count: number, cdSize: number, cdOffset: number): Uint8Array {
  return new Out(22).u32(EOCD_SIG).u16(0).u16(0).u16(count).u16(count).u32(cdSize).u32(cdOffset).u16(0).b;
}

// ---------------------------------------------------------------- reading

/** Find the end-of-central-directory record in the file's last 64 KiB + 22 bytes. */
export function findEnd(tail: Uint8Array): { count: number; cdSize: number; cdOffset: number } | null {
  const v = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  for (let i = tail.byteLength - 22; i >= 0; i--) {
    if (v.getUint32(i, true) !== EOCD_SIG) continue;
    const commentLen = v.getUint16(i + 20, true);
    if (i + 22 + commentLen > tail.byteLength) continue;
    return { count: v.getUint16(i + 10, true), cdSize: v.getUint32(i + 12, true), cdOffset: v.getUint32(i + 16, true) };
  }
  return null;
}

/** Parse the central directory; null when it is damaged. */
export function parseCentral(cd: Uint8Array, count: number): Entry[] | null {
  const v = new DataView(cd.buffer, cd.byteOffset, cd.byteLength);
  const out: Entry[] = [];
  let p = 0;
  for (let k = 0; k < count; k++) {
    if (p + 46 > cd.byteLength || v.getUint32(p, true) !== CENTRAL_SIG) return null;
    const nameLen = v.getUint16(p + 28, true);
    const extraLen = v.getUint16(p + 30, true);
    const commentLen = v.getUint16(p + 32, true);
    const versionMadeBy = v.getUint16(p + 4, true);
    const flags = v.getUint16(p + 8, true);
    const externalAttrs = v.getUint32(p + 38, true);
    const nameBytes = cd.subarray(p + 46, p + 46 + nameLen);
    const name = flags & FLAG_UTF8 ? decodeBytes(nameBytes) : decodeName(nameBytes);
    const dosTime = v.getUint16(p + 12, true);
    const dosDate = v.getUint16(p + 14, true);
    const e: Entry = {
      name,
      method: v.getUint16(p + 10, true),
      flags,
      crc: v.getUint32(p + 16, true),
      csize: v.getUint32(p + 20, true),
      usize: v.getUint32(p + 24, true),
      mode: versionMadeBy >> 8 === 3 ? externalAttrs >>> 16 : 0,
      mtime: fromDos(dosTime, dosDate),
      dosTime,
      dosDate,
      uid: null,
      gid: null,
      offset: v.getUint32(p + 42, true),
      versionMadeBy,
      versionNeeded: v.getUint16(p + 6, true),
      internalAttrs: v.getUint16(p + 36, true),
      externalAttrs,
      raw: cd.subarray(p, p + 46 + nameLen + extraLen + commentLen),
    };
    readExtra(e, cd.subarray(p + 46 + nameLen, p + 46 + nameLen + extraLen));
    out.push(e);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/** UT gives the exact mtime; ux/Ux the owner. */
function readExtra(e: Entry, x: Uint8Array): void {
  const v = new DataView(x.buffer, x.byteOffset, x.byteLength);
  for (let p = 0; p + 4 <= x.byteLength; ) {
    const id = v.getUint16(p, true);
    const len = v.getUint16(p + 2, true);
    const d = p + 4;
    if (d + len > x.byteLength) break;
    if (id === 0x5455 && len >= 5 && x[d] & 1) e.mtime = v.getInt32(d + 1, true);
    else if (id === 0x7875 && len >= 3 && x[d] === 1) {
      const us = x[d + 1];
      const gs = x[d + 2 + us];
      if (us === 4 && gs === 4) {
        e.uid = v.getUint32(d + 2, true);
        e.gid = v.getUint32(d + 3 + us, true);
      }
    }
    p = d + len;
  }
}

/** Names without the UTF-8 flag: UTF-8 when valid (what Unix zips hold), else the bytes as they are, as unzip on Linux keeps them. */
const decodeName = decodeBytes;

/** The length of a local header (its name and extra field lengths may differ from the central ones). */
export function localHeaderLength(h: Uint8Array): number | null {
  const v = new DataView(h.buffer, h.byteOffset, h.byteLength);
  if (h.byteLength < 30 || v.getUint32(0, true) !== LOCAL_SIG) return null;
  return 30 + v.getUint16(26, true) + v.getUint16(28, true);
}

export const isDirEntry = (e: Entry): boolean => e.name.endsWith('/') || (e.mode & 0o170000) === 0o040000;
export const isSymlinkEntry = (e: Entry): boolean => (e.mode & 0o170000) === 0o120000;

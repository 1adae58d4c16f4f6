// Tar header blocks: the ustar layout with GNU's and POSIX's variations.
// Decoding accepts ustar, GNU (long names come as separate 'L'/'K' members,
// handled by the reader) and octal or base-256 numbers; encoding writes what
// GNU tar 1.34 writes by default (--format=gnu), or ustar/pax on request.

import { decodeBytes, encodeBytes } from '../../../abi/bytestr.js';

export const BLOCK = 512;

/** Type flags (typeflag byte) as characters. */
export const REG = '0', AREG = '\0', LNK = '1', SYM = '2', CHR = '3', BLK = '4', DIR = '5', FIFO = '6', CONT = '7';
export const LONGNAME = 'L', LONGLINK = 'K', PAX = 'x', PAXGLOBAL = 'g';

export interface Header {
  name: string;
  mode: number;
  uid: number;
  gid: number;
  size: number;
  /** Seconds since the epoch (pax headers may add a fraction). */
  mtime: number;
  type: string;
  linkname: string;
  uname: string;
  gname: string;
  devmajor: number;
  devminor: number;
}

export type Format = 'gnu' | 'oldgnu' | 'ustar' | 'posix' | 'v7';

// Field offsets and lengths.
const F = {
  name: [0, 100], mode: [100, 8], uid: [108, 8], gid: [116, 8], size: [124, 12], mtime: [136, 12],
  chksum: [148, 8], type: [156, 1], linkname: [157, 100], magic: [257, 6], version: [263, 2],
  uname: [265, 32], gname: [297, 32], devmajor: [329, 8], devminor: [337, 8], prefix: [345, 155],
} as const;

function str(b: Uint8Array, [off, len]: readonly [number, number]): string {
  const f = b.subarray(off, off + len);
  const end = f.indexOf(0);
  return decodeBytes(end < 0 ? f : f.subarray(0, end));
}

/** A numeric field: octal (spaces and NULs around it) or GNU base-256; null when it is neither. */
function num(b: Uint8Array, [off, len]: readonly [number, number]): number | null {
  const f = b.subarray(off, off + len);
  if (f[0] & 0x80) {
    // Base-256: bit 7 marks it, bit 6 is the sign (two's complement over the field).
    let x = 0n;
    for (let i = 0; i < len; i++) x = (x << 8n) | BigInt(f[i]);
    x = f[0] & 0x40 ? x - (1n << BigInt(8 * len)) : x - (0x80n << BigInt(8 * (len - 1)));
    return Number(x);
  }
  let i = 0;
  while (i < len && (f[i] === 0x20 || f[i] === 0)) i++;
  if (i === len) return 0;
  let v = 0;
  let digits = 0;
  for (; i < len && f[i] >= 0x30 && f[i] <= 0x37; i++, digits++) v = v * 8 + (f[i] - 0x30);
  for (; i < len; i++) if (f[i] !== 0x20 && f[i] !== 0) return null;
  return digits ? v : null;
}

export const isZeroBlock = (b: Uint8Array): boolean => b.every((x) => x === 0);

/** tar_checksum: the unsigned (or, for old archives, signed) sum with the checksum field as spaces. */
export function checksumOk(b: Uint8Array): boolean {
  const recorded = num(b, F.chksum);
  if (recorded === null) return false;
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const x = i >= 148 && i < 156 ? 0x20 : b[i];
    unsigned += x;
    signed += x > 127 ? x - 256 : x;
  }
  return recorded === unsigned || recorded === signed;
}

/** Decode a header block whose checksum is good. */
export function decode(b: Uint8Array): Header {
  const magic = str(b, F.magic);
  const posix = magic === 'ustar' && b[262] === 0;
  let name = str(b, F.name);
  if (posix) {
    const prefix = str(b, F.prefix);
    if (prefix) name = `${prefix}/${name}`;
  }
  const type = String.fromCharCode(b[156]);
  return {
    name,
    mode: (num(b, F.mode) ?? 0) & 0o7777,
    uid: num(b, F.uid) ?? 0,
    gid: num(b, F.gid) ?? 0,
    // GNU: "links 0 size on tape".
    size: type === LNK ? 0 : (num(b, F.size) ?? 0),
    mtime: num(b, F.mtime) ?? 0,
    type,
    linkname: str(b, F.linkname),
    uname: str(b, F.uname),
    gname: str(b, F.gname),
    devmajor: num(b, F.devmajor) ?? 0,
    devminor: num(b, F.devminor) ?? 0,
  };
}

/** Parse pax extended header records ("LEN key=value\n"). */
export function parsePax(data: Uint8Array): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < data.byteLength; ) {
    const sp = data.indexOf(0x20, i);
    if (sp < 0) break;
    const len = Number(decodeBytes(data.subarray(i, sp)));
    if (!Number.isInteger(len) || len <= sp - i || i + len > data.byteLength) break;
    const rec = decodeBytes(data.subarray(sp + 1, i + len - 1));
    const eq = rec.indexOf('=');
    if (eq > 0) out.set(rec.slice(0, eq), rec.slice(eq + 1));
    i += len;
  }
  return out;
}

/** Apply pax records to a header (path, linkpath, size, mtime, ids and names). */
export function applyPax(h: Header, pax: Map<string, string>): void {
  for (const [k, v] of pax) {
    switch (k) {
      case 'path': h.name = v; break;
      case 'linkpath': h.linkname = v; break;
      case 'size': h.size = Number(v); break;
      case 'mtime': h.mtime = Number(v); break;
      case 'uid': h.uid = Number(v); break;
      case 'gid': h.gid = Number(v); break;
      case 'uname': h.uname = v; break;
      case 'gname': h.gname = v; break;
    }
  }
}

// ------------------------------------------------------------------ encoding

export class FieldOverflow extends Error {}

function putStr(b: Uint8Array, [off, len]: readonly [number, number], s: string | Uint8Array): void {
  const bytes = typeof s === 'string' ? encodeBytes(s) : s;
  b.set(bytes.subarray(0, len), off);
}

/** An octal field: digits then NUL, zero-padded ("%07o\0"); GNU formats fall back to base-256. */
function putNum(b: Uint8Array, [off, len]: readonly [number, number], v: number, format: Format): void {
  const s = Math.trunc(v).toString(8);
  if (v >= 0 && s.length <= len - 1) {
    putStr(b, [off, len], `${s.padStart(len - 1, '0')}\0`);
    return;
  }
  if (format !== 'gnu' && format !== 'oldgnu') throw new FieldOverflow();
  let x = BigInt(Math.trunc(v));
  if (x < 0n) x += 1n << BigInt(8 * len);
  for (let i = len - 1; i >= 1; i--) {
    b[off + i] = Number(x & 0xffn);
    x >>= 8n;
  }
  b[off] = v < 0 ? 0xff : 0x80;
}

function seal(b: Uint8Array): void {
  b.fill(0x20, 148, 156);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += b[i];
  putStr(b, F.chksum, `${sum.toString(8).padStart(6, '0')}\0 `);
}

const nameBytes = (s: string): Uint8Array => encodeBytes(s);

/** One header block, names as given (the caller made long names fit first). */
export function encodeBlock(h: Header, format: Format): Uint8Array {
  const b = new Uint8Array(BLOCK);
  putStr(b, F.name, h.name);
  putNum(b, F.mode, h.mode & 0o7777, format);
  putNum(b, F.uid, h.uid, format);
  putNum(b, F.gid, h.gid, format);
  putNum(b, F.size, h.size, format);
  putNum(b, F.mtime, h.mtime, format);
  b[156] = h.type.charCodeAt(0);
  putStr(b, F.linkname, h.linkname);
  if (format === 'v7') {
    seal(b);
    return b;
  }
  // magic and version together: GNU's "ustar  \0", POSIX's "ustar\0" "00".
  putStr(b, [257, 8], format === 'gnu' || format === 'oldgnu' ? 'ustar  \0' : 'ustar\x0000');
  putStr(b, F.uname, h.uname);
  putStr(b, F.gname, h.gname);
  const device = h.type === CHR || h.type === BLK;
  if (device || format === 'ustar' || format === 'posix') {
    putNum(b, F.devmajor, h.devmajor, format);
    putNum(b, F.devminor, h.devminor, format);
  }
  seal(b);
  return b;
}

/** GNU's ././@LongLink member carrying a name or link target of 100 bytes or more. */
export function longLinkBlocks(kind: typeof LONGNAME | typeof LONGLINK, value: string, rootName: string): Uint8Array[] {
  const v = nameBytes(value);
  const data = new Uint8Array(v.byteLength + 1);
  data.set(v);
  const h: Header = {
    name: '././@LongLink', mode: 0o644, uid: 0, gid: 0, size: data.byteLength, mtime: 0, type: kind,
    linkname: '', uname: rootName, gname: rootName, devmajor: 0, devminor: 0,
  };
  return [encodeBlock(h, 'gnu'), ...dataBlocks(data)];
}

/** Split a ustar name into prefix and name at a '/', or null when it cannot fit (max 255 bytes). */
export function splitUstar(name: string): { prefix: string; name: string } | null {
  const b = nameBytes(name);
  if (b.byteLength <= 100) return { prefix: '', name };
  for (let i = Math.min(b.byteLength - 1, 155); i > 0; i--) {
    if (b[i] === 0x2f && b.byteLength - i - 1 <= 100 && b.byteLength - i - 1 > 0) {
      return { prefix: decodeBytes(b.subarray(0, i)), name: decodeBytes(b.subarray(i + 1)) };
    }
  }
  return null;
}

export function encodeUstar(h: Header, split: { prefix: string; name: string }, format: Format): Uint8Array {
  const b = encodeBlock({ ...h, name: split.name }, format);
  if (split.prefix) {
    putStr(b, F.prefix, split.prefix);
    seal(b);
  }
  return b;
}

/** A pax extended header member ('x') with the given records. */
export function paxBlocks(name: string, records: [string, string][]): Uint8Array[] {
  let text = '';
  for (const [k, v] of records) {
    const body = ` ${k}=${v}\n`;
    const bodyLen = nameBytes(body).byteLength;
    let len = bodyLen + String(bodyLen).length;
    if (String(len).length !== String(bodyLen).length) len = bodyLen + String(len).length;
    text += `${len}${body}`;
  }
  const data = nameBytes(text);
  const base = name.replace(/\/+$/, '');
  const slash = base.lastIndexOf('/');
  const paxName = `${slash >= 0 ? base.slice(0, slash + 1) : ''}PaxHeaders/${base.slice(slash + 1)}`.slice(0, 100);
  const h: Header = {
    name: paxName, mode: 0o644, uid: 0, gid: 0, size: data.byteLength, mtime: 0, type: PAX,
    linkname: '', uname: '', gname: '', devmajor: 0, devminor: 0,
  };
  return [encodeBlock(h, 'posix'), ...dataBlocks(data)];
}

/** Data padded to whole blocks. */
export function dataBlocks(data: Uint8Array): Uint8Array[] {
  const padded = new Uint8Array(Math.ceil(data.byteLength / BLOCK) * BLOCK);
  padded.set(data);
  return [padded];
}

export const byteLength = (s: string): number => nameBytes(s).byteLength;

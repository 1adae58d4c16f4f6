// Binary formats recognised by their magic numbers, worded like libmagic:
// ELF, WebAssembly, gzip, bzip2, xz, zip, tar, ar, PNG, JPEG, GIF, PDF.

import { describeElf, type Reader } from './elf.js';

export interface Found {
  desc: string;
  mime: string;
}

const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));
const starts = (b: Uint8Array, magic: number[], at = 0) => magic.every((m, i) => b[at + i] === m);
const le16 = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8);
const le32 = (b: Uint8Array, o: number) => (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
const be16 = (b: Uint8Array, o: number) => (b[o] << 8) | b[o + 1];
const be32 = (b: Uint8Array, o: number) => ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0;

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** asctime() of a Unix time, in UTC: "Thu Jan  2 03:04:05 2020". */
function asctime(secs: number): string {
  const d = new Date(secs * 1000);
  const p2 = (n: number) => String(n).padStart(2, '0');
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2)} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} ${d.getUTCFullYear()}`;
}

const GZIP_OS: Record<number, string> = {
  0: 'FAT filesystem (MS-DOS, OS/2, NT)', 1: 'Amiga', 2: 'VMS', 3: 'Unix', 5: 'Atari', 6: 'HPFS filesystem (OS/2, NT)',
  7: 'Macintosh', 10: 'Tops/20', 11: 'NTFS filesystem (NT)', 13: 'Acorn RISCOS',
};

function gzip(b: Uint8Array, size: number, read: Reader): string {
  let d = 'gzip compressed data';
  const flags = b[3];
  if (flags & 0x01) d += ', ASCII';
  if (flags & 0x02) d += ', has CRC';
  if (flags & 0x04) d += ', extra field';
  if (flags & 0x08) {
    let at = 10;
    if (flags & 0x04) at += 2 + le16(b, 10);
    const end = b.indexOf(0, at);
    d += `, was "${ascii(b, at, end < 0 ? b.length : end)}"`;
  }
  if (flags & 0x10) d += ', has comment';
  const mtime = le32(b, 4);
  if (mtime) d += `, last modified: ${asctime(mtime)}`;
  if (b[8] === 2) d += ', max compression';
  else if (b[8] === 4) d += ', max speed';
  if (GZIP_OS[b[9]]) d += `, from ${GZIP_OS[b[9]]}`;
  const tail = read(size - 4, 4);
  if (tail.length === 4) d += `, original size modulo 2^32 ${le32(tail, 0)}`;
  return d;
}

const ZIP_METHODS: Record<number, string> = { 0: 'store', 8: 'deflate', 9: 'deflate64', 12: 'bzip2', 14: 'lzma', 93: 'zstd', 95: 'xz' };

const PNG_COLOR: Record<number, string> = { 0: ' grayscale', 2: '/color RGB', 3: ' colormap', 4: ' gray+alpha', 6: '/color RGBA' };

function jpeg(b: Uint8Array): string {
  let d = 'JPEG image data';
  let p = 2;
  while (p + 4 <= b.length && b[p] === 0xff) {
    const marker = b[p + 1];
    const len = be16(b, p + 2);
    if (marker === 0xe0 && ascii(b, p + 4, p + 9) === 'JFIF\0') {
      const units = b[p + 11];
      d += `, JFIF standard ${b[p + 9]}.${String(b[p + 10]).padStart(2, '0')}`;
      d += units === 1 ? ', resolution (DPI)' : units === 2 ? ', resolution (DPCM)' : ', aspect ratio';
      d += `, density ${be16(b, p + 12)}x${be16(b, p + 14)}, segment length ${len}`;
    } else if (marker >= 0xc0 && marker <= 0xc3) {
      const kind = ['baseline', 'extended sequential', 'progressive', 'lossless'][marker - 0xc0];
      d += `, ${kind}, precision ${b[p + 4]}, ${be16(b, p + 7)}x${be16(b, p + 5)}, components ${b[p + 9]}`;
      break;
    } else if (marker === 0xda || marker === 0xd9) break;
    p += 2 + len;
  }
  return d;
}

/** A tar header's checksum (octal at 148) is the sum of its bytes with that field as spaces. */
function tarChecksumOk(b: Uint8Array): boolean {
  if (b.length < 512) return false;
  const field = /^\s*([0-7]+)/.exec(ascii(b, 148, 156));
  if (!field) return false;
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : b[i];
  return sum === parseInt(field[1], 8);
}

/** The first matching format, or null. */
export function binaryKind(b: Uint8Array, size: number, read: Reader): Found | null {
  if (starts(b, [0x7f, 0x45, 0x4c, 0x46])) return describeElf(b, read);
  if (starts(b, [0, 0x61, 0x73, 0x6d]) && b.length >= 8) {
    const v = le32(b, 4);
    return {
      desc: `WebAssembly (wasm) binary module version 0x${v.toString(16)}${v === 1 ? ' (MVP)' : ''}`,
      mime: v === 1 ? 'application/wasm' : 'application/octet-stream',
    };
  }
  if (starts(b, [0x1f, 0x8b]) && b.length >= 10) return { desc: gzip(b, size, read), mime: 'application/gzip' };
  if (ascii(b, 0, 3) === 'BZh' && b[3] >= 0x31 && b[3] <= 0x39) {
    return { desc: `bzip2 compressed data, block size = ${b[3] - 0x30}00k`, mime: 'application/x-bzip2' };
  }
  if (starts(b, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0])) {
    const check = { 0: 'no check', 1: 'CRC32', 4: 'CRC64', 10: 'SHA-256' }[b[7] & 0xf] ?? 'unknown';
    return { desc: `XZ compressed data, checksum ${check}`, mime: 'application/x-xz' };
  }
  if (starts(b, [0x50, 0x4b, 5, 6])) return { desc: 'Zip archive data (empty)', mime: 'application/zip' };
  if (starts(b, [0x50, 0x4b, 3, 4]) && b.length >= 10) {
    const v = le16(b, 4);
    const m = le16(b, 8);
    return {
      desc: `Zip archive data, at least v${Math.floor(v / 10)}.${v % 10} to extract, compression method=${ZIP_METHODS[m] ?? m}`,
      mime: 'application/zip',
    };
  }
  if (tarChecksumOk(b)) {
    const kind = ascii(b, 257, 265) === 'ustar  \0' ? 'POSIX tar archive (GNU)' : ascii(b, 257, 263) === 'ustar\0' ? 'POSIX tar archive' : 'tar archive';
    return { desc: kind, mime: 'application/x-tar' };
  }
  if (ascii(b, 0, 8) === '!<arch>\n') return { desc: 'current ar archive', mime: 'application/x-archive' };
  if (starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) && ascii(b, 12, 16) === 'IHDR' && b.length >= 29) {
    const color = PNG_COLOR[b[25]] ?? '';
    return {
      desc: `PNG image data, ${be32(b, 16)} x ${be32(b, 20)}, ${b[24]}-bit${color}, ${b[28] ? 'interlaced' : 'non-interlaced'}`,
      mime: 'image/png',
    };
  }
  if (/^GIF8[79]a$/.test(ascii(b, 0, 6)) && b.length >= 10) {
    return { desc: `GIF image data, version 8${ascii(b, 4, 5)}a, ${le16(b, 6)} x ${le16(b, 8)}`, mime: 'image/gif' };
  }
  if (starts(b, [0xff, 0xd8, 0xff])) return { desc: jpeg(b), mime: 'image/jpeg' };
  if (ascii(b, 0, 5) === '%PDF-' && b.length >= 8) return { desc: `PDF document, version ${ascii(b, 5, 6)}.${ascii(b, 7, 8)}`, mime: 'application/pdf' };
  return null;
}

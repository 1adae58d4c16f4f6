// The character sets iconv knows: names and aliases as glibc spells them,
// a decoder (bytes to code points, one character at a time, saying when a
// sequence is illegal or cut short) and an encoder for each.

export const ILLEGAL = -1;
export const INCOMPLETE = -2;
/** A byte order mark was read: no character. */
export const MARK = -3;

export interface Decoder {
  /** Decode one character at b[at] (b ends at `end`): a code point and its length, or ILLEGAL / INCOMPLETE. */
  decode(b: Uint8Array, at: number, end: number): [number, number];
}

export interface Encoder {
  /** Append the bytes of `cp`; false when the set cannot represent it. */
  encode(cp: number, out: number[]): boolean;
  /** Bytes written once before the first character (a byte order mark). */
  readonly bom?: number[];
}

export interface Charset {
  name: string;
  aliases: string[];
  decoder(): Decoder;
  encoder(): Encoder;
}

/** A single-byte set given by its table of code points (-1: unassigned). */
function singleByte(name: string, aliases: string[], table: (b: number) => number): Charset {
  const toCp = Array.from({ length: 256 }, (_, b) => table(b));
  const fromCp = new Map<number, number>();
  toCp.forEach((cp, b) => cp >= 0 && !fromCp.has(cp) && fromCp.set(cp, b));
  return {
    name,
    aliases,
    decoder: () => ({ decode: (b, at) => [toCp[b[at]] >= 0 ? toCp[b[at]] : ILLEGAL, 1] }),
    encoder: () => ({
      encode: (cp, out) => {
        const v = fromCp.get(cp);
        if (v === undefined) return false;
        out.push(v);
        return true;
      },
    }),
  };
}

const CP1252_HIGH = [
  0x20ac, -1, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, -1, 0x017d, -1,
  -1, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, -1, 0x017e, 0x0178,
];

const ISO8859_15: Record<number, number> = { 0xa4: 0x20ac, 0xa6: 0x0160, 0xa8: 0x0161, 0xb4: 0x017d, 0xb8: 0x017e, 0xbc: 0x0152, 0xbd: 0x0153, 0xbe: 0x0178 };

const isSurrogate = (cp: number): boolean => cp >= 0xd800 && cp <= 0xdfff;

const utf8: Charset = {
  name: 'UTF-8',
  aliases: ['UTF8', 'ISO-10646/UTF8', 'ISO-10646/UTF-8', 'ISO-IR-193', 'OSF05010001'],
  decoder: () => ({
    decode(b, at, end) {
      const c = b[at];
      if (c < 0x80) return [c, 1];
      const n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? (c <= 0xef ? 3 : 0) : c >= 0xc2 ? 2 : 0;
      if (n === 0) return [ILLEGAL, 1];
      let cp = c & (0xff >> (n + 1));
      for (let k = 1; k < n; k++) {
        if (at + k >= end) return [INCOMPLETE, end - at];
        const d = b[at + k];
        if ((d & 0xc0) !== 0x80) return [ILLEGAL, 1];
        cp = cp * 64 + (d & 0x3f);
      }
      const min = [0, 0, 0x80, 0x800, 0x10000][n];
      if (cp < min || cp > 0x10ffff || isSurrogate(cp)) return [ILLEGAL, 1];
      return [cp, n];
    },
  }),
  encoder: () => ({
    encode(cp, out) {
      if (cp < 0x80) out.push(cp);
      else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
      else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
      else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
      return true;
    },
  }),
};

const get16 = (b: Uint8Array, at: number, big: boolean): number => (big ? (b[at] << 8) | b[at + 1] : b[at] | (b[at + 1] << 8));
const get32 = (b: Uint8Array, at: number, big: boolean): number =>
  big ? ((b[at] << 24) >>> 0) + (b[at + 1] << 16) + (b[at + 2] << 8) + b[at + 3] : b[at] + (b[at + 1] << 8) + (b[at + 2] << 16) + ((b[at + 3] << 24) >>> 0);
const put16 = (v: number, out: number[], big: boolean) => (big ? out.push(v >> 8, v & 255) : out.push(v & 255, v >> 8));
const put32 = (v: number, out: number[], big: boolean) =>
  big ? out.push((v >>> 24) & 255, (v >> 16) & 255, (v >> 8) & 255, v & 255) : out.push(v & 255, (v >> 8) & 255, (v >> 16) & 255, (v >>> 24) & 255);

/** UTF-16 / UCS-2: `bom` reads and writes a byte order mark (then little-endian by default, as glibc on x86). */
function utf16(name: string, aliases: string[], big: boolean, bom: boolean, surrogates: boolean): Charset {
  return {
    name,
    aliases,
    decoder: () => {
      let order = big;
      let first = bom;
      return {
        decode(b, at, end) {
          if (end - at < 2) return [INCOMPLETE, end - at];
          let v = get16(b, at, order);
          if (first) {
            first = false;
            if (v === 0xfeff || v === 0xfffe) {
              order = v === 0xfeff ? order : !order;
              return [MARK, 2];
            }
          }
          v = get16(b, at, order);
          if (!surrogates) return isSurrogate(v) ? [ILLEGAL, 2] : [v, 2];
          if (v >= 0xdc00 && v <= 0xdfff) return [ILLEGAL, 2];
          if (v < 0xd800 || v > 0xdbff) return [v, 2];
          if (end - at < 4) return [INCOMPLETE, end - at];
          const w = get16(b, at + 2, order);
          if (w < 0xdc00 || w > 0xdfff) return [ILLEGAL, 2];
          return [0x10000 + ((v - 0xd800) << 10) + (w - 0xdc00), 4];
        },
      };
    },
    encoder: () => ({
      bom: bom ? (big ? [0xfe, 0xff] : [0xff, 0xfe]) : undefined,
      encode(cp, out) {
        if (isSurrogate(cp)) return false;
        if (cp < 0x10000) put16(cp, out, big);
        else if (!surrogates) return false;
        else {
          put16(0xd800 + ((cp - 0x10000) >> 10), out, big);
          put16(0xdc00 + ((cp - 0x10000) & 0x3ff), out, big);
        }
        return true;
      },
    }),
  };
}

function utf32(name: string, aliases: string[], big: boolean, bom: boolean): Charset {
  return {
    name,
    aliases,
    decoder: () => {
      let order = big;
      let first = bom;
      return {
        decode(b, at, end) {
          if (end - at < 4) return [INCOMPLETE, end - at];
          const v = get32(b, at, order);
          if (first) {
            first = false;
            if (v === 0xfeff || v === 0xfffe0000) {
              if (v === 0xfffe0000) order = !order;
              return [MARK, 4];
            }
          }
          return v > 0x10ffff || isSurrogate(v) ? [ILLEGAL, 4] : [v, 4];
        },
      };
    },
    encoder: () => ({
      bom: bom ? (big ? [0, 0, 0xfe, 0xff] : [0xff, 0xfe, 0, 0]) : undefined,
      encode(cp, out) {
        if (isSurrogate(cp)) return false;
        put32(cp, out, big);
        return true;
      },
    }),
  };
}

export const CHARSETS: Charset[] = [
  utf8,
  singleByte('ANSI_X3.4-1968', ['ASCII', 'US-ASCII', 'US', '646', 'ISO646-US', 'ISO_646.IRV:1991', 'ISO-IR-6', 'CP367', 'IBM367', 'CSASCII', 'ANSI_X3.4-1986', 'OSF00010020'], (b) => (b < 128 ? b : -1)),
  singleByte('ISO-8859-1', ['ISO8859-1', 'ISO_8859-1', 'ISO_8859-1:1987', 'LATIN1', 'L1', 'CP819', 'IBM819', 'ISO-IR-100', 'CSISOLATIN1', '8859_1', 'ISO88591', 'OSF00010001'], (b) => b),
  singleByte('ISO-8859-15', ['ISO8859-15', 'ISO_8859-15', 'ISO_8859-15:1998', 'LATIN-9', 'LATIN9', 'ISO-IR-203', 'ISO885915'], (b) => ISO8859_15[b] ?? b),
  singleByte('CP1252', ['WINDOWS-1252', 'MS-ANSI'], (b) => (b >= 0x80 && b < 0xa0 ? CP1252_HIGH[b - 0x80] : b)),
  utf16('UTF-16', ['UTF16'], false, true, true),
  utf16('UTF-16LE', ['UTF16LE'], false, false, true),
  utf16('UTF-16BE', ['UTF16BE'], true, false, true),
  utf16('UCS-2', ['ISO-10646-UCS-2', 'CSUNICODE', 'OSF00010100', 'OSF00010101', 'OSF00010102'], false, false, false),
  utf16('UCS-2LE', ['UNICODELITTLE'], false, false, false),
  utf16('UCS-2BE', ['UNICODEBIG'], true, false, false),
  utf32('UTF-32', ['UTF32'], false, true),
  utf32('UTF-32LE', ['UTF32LE'], false, false),
  utf32('UTF-32BE', ['UTF32BE'], true, false),
  utf32('UCS-4', ['ISO-10646', 'ISO-10646/UCS4', 'ISO-10646-UCS-4', 'UCS4', 'CSUCS4', '10646-1:1993', '10646-1:1993/UCS4'], true, false),
  utf32('UCS-4LE', [], false, false),
  utf32('UCS-4BE', [], true, false),
  utf32('WCHAR_T', ['INTERNAL'], false, false),
];

/** Look a set up by any of its names, case-insensitively. */
export function findCharset(name: string): Charset | undefined {
  const n = name.toUpperCase();
  return CHARSETS.find((c) => c.name === n || c.aliases.includes(n));
}

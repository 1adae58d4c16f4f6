// The gzip member header (RFC 1952): parsing as GNU gzip checks it, and
// writing it as GNU gzip does (name and mtime unless -n, XFL for -1/-9, OS Unix).

export const MAGIC1 = 0x1f;
export const MAGIC2 = 0x8b;
const DEFLATED = 8;
const utf8 = new TextDecoder();
const enc = new TextEncoder();
const FHCRC = 0x02, FEXTRA = 0x04, FNAME = 0x08, FCOMMENT = 0x10, ENCRYPTED = 0x20, RESERVED = 0xc0;

export interface GzHeader {
  /** The stored original name (its bytes read as UTF-8, as agentOS names are), if any. */
  name: string | null;
  /** Seconds since the epoch; 0 = none stored. */
  mtime: number;
  /** Bytes of the header, for gzip -l's ratio. */
  length: number;
}

/** What went wrong in a header, in GNU gzip's words: `message` follows "gzip: NAME". */
export type HeaderProblem = { message: string; leadingNewline: boolean };

/** null: more bytes needed; a problem; or the parsed header. */
export function parseHeader(b: Uint8Array): GzHeader | HeaderProblem | null {
  if (b.byteLength < 10) return b.byteLength >= 2 && !isMagic(b) ? notGzip() : null;
  if (!isMagic(b)) return notGzip();
  if (b[2] !== DEFLATED) return { message: `: unknown method ${b[2]} -- not supported`, leadingNewline: false };
  const flags = b[3];
  if (flags & ENCRYPTED) return { message: ' is encrypted -- not supported', leadingNewline: false };
  if (flags & RESERVED) return { message: ` has flags 0x${flags.toString(16)} -- not supported`, leadingNewline: false };
  const mtime = (b[4] | b[5] << 8 | b[6] << 16 | b[7] << 24) >>> 0;
  let p = 10;
  if (flags & FEXTRA) {
    if (b.byteLength < p + 2) return null;
    p += 2 + (b[p] | b[p + 1] << 8);
  }
  let name: string | null = null;
  if (flags & FNAME) {
    const end = b.indexOf(0, p);
    if (end < 0) return null;
    name = utf8.decode(b.subarray(p, end));
    p = end + 1;
  }
  if (flags & FCOMMENT) {
    const end = b.indexOf(0, p);
    if (end < 0) return null;
    p = end + 1;
  }
  if (flags & FHCRC) p += 2;
  if (b.byteLength < p) return null;
  return { name, mtime, length: p };
}

export const isMagic = (b: Uint8Array): boolean => b[0] === MAGIC1 && b[1] === MAGIC2;

const notGzip = (): HeaderProblem => ({ message: ': not in gzip format', leadingNewline: true });

export const isProblem = (h: GzHeader | HeaderProblem | null): h is HeaderProblem => h !== null && 'message' in h;

/** The header gzip writes: the name (no directory) and mtime in seconds, XFL 2 for -9 and 4 for -1. */
export function buildHeader(name: string | null, mtime: number, level: number): Uint8Array {
  const nameBytes = name === null ? null : enc.encode(name);
  const out = new Uint8Array(10 + (nameBytes ? nameBytes.byteLength + 1 : 0));
  out.set([MAGIC1, MAGIC2, DEFLATED, nameBytes ? FNAME : 0]);
  const t = mtime > 0 && mtime < 2 ** 32 ? mtime : 0;
  out[4] = t & 0xff;
  out[5] = (t >>> 8) & 0xff;
  out[6] = (t >>> 16) & 0xff;
  out[7] = t >>> 24;
  out[8] = level === 9 ? 2 : level === 1 ? 4 : 0;
  out[9] = 3; // Unix
  if (nameBytes) out.set(nameBytes, 10);
  return out;
}

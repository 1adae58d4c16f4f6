// Whole-buffer byte work that JS does slowly one byte at a time: counting one
// byte value, checking for ASCII, and latin1 conversion (one char per byte,
// the form the text applets compare in). The word-at-a-time loops read four
// bytes per step through an Int32Array over the aligned middle of the buffer.

const u16 = new TextDecoder('utf-16le');
const u8 = new TextDecoder();
const enc = new TextEncoder();

/** The aligned middle of `b` as 32-bit words, and where it starts and ends in `b`. */
function words(b: Uint8Array): [Int32Array, number, number] {
  const head = (4 - (b.byteOffset & 3)) & 3;
  // Too short to reach an aligned word: all of it is head.
  if (b.byteLength < head + 4) return [new Int32Array(0), b.byteLength, b.byteLength];
  const n = (b.byteLength - head) >> 2;
  return [new Int32Array(b.buffer, b.byteOffset + head, n), head, head + n * 4];
}

/**
 * High bit of each byte set exactly where that byte of x is zero (no carries
 * cross bytes: 0x7f + 0x7f fits in one).
 */
const zeroBytes = (x: number): number => ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f);

/** How many bytes of `b` equal `v` (0–255). */
export function countByte(b: Uint8Array, v: number): number {
  const [w, head, tail] = words(b);
  let c = 0;
  for (let i = 0; i < head; i++) if (b[i] === v) c++;
  const pat = Math.imul(v, 0x01010101);
  // Four words a step: most steps hold no match and cost one test.
  const quads = w.length & ~3;
  for (let j = 0; j < quads; j += 4) {
    const t0 = zeroBytes(w[j] ^ pat);
    const t1 = zeroBytes(w[j + 1] ^ pat);
    const t2 = zeroBytes(w[j + 2] ^ pat);
    const t3 = zeroBytes(w[j + 3] ^ pat);
    if ((t0 | t1 | t2 | t3) !== 0) {
      // Per-byte lane sums (at most 4 each), then the lanes added by a multiply into the top byte.
      const lanes = ((t0 >>> 7) & 0x01010101) + ((t1 >>> 7) & 0x01010101) + ((t2 >>> 7) & 0x01010101) + ((t3 >>> 7) & 0x01010101);
      c += Math.imul(lanes, 0x01010101) >>> 24;
    }
  }
  for (let j = quads; j < w.length; j++) c += Math.imul((zeroBytes(w[j] ^ pat) >>> 7) & 0x01010101, 0x01010101) >>> 24;
  for (let i = tail; i < b.byteLength; i++) if (b[i] === v) c++;
  return c;
}

/** True when no byte has its high bit set. */
export function isAscii(b: Uint8Array): boolean {
  const [w, head, tail] = words(b);
  let acc = 0;
  for (let i = 0; i < head; i++) acc |= b[i];
  for (let j = 0; j < w.length; j++) acc |= w[j];
  for (let i = tail; i < b.byteLength; i++) acc |= b[i];
  return (acc & 0x80808080) === 0;
}

/**
 * Bytes to a latin1 string, exactly (TextDecoder's "latin1" is really
 * windows-1252, so it cannot be used): ASCII goes through the native UTF-8
 * decoder; otherwise the bytes are widened to UTF-16 code units.
 */
export function latin1(b: Uint8Array): string {
  if (isAscii(b)) return u8.decode(b);
  const w = new Uint16Array(b.byteLength);
  for (let i = 0; i < b.byteLength; i++) w[i] = b[i];
  return u16.decode(w);
}

/** A latin1 string (every char below 256) back to its bytes. */
export function latin1Bytes(s: string): Uint8Array {
  const b = new Uint8Array(s.length);
  // All-ASCII strings encode natively; a wider char makes the encoder write two bytes, so it stops short.
  const r = enc.encodeInto(s, b);
  if (r.read === s.length && r.written === s.length) return b;
  for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
  return b;
}

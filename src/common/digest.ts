// Message digests for md5sum/sha*sum, openssl, uuidgen, the node runtime's
// crypto and the agent record's request hashes, written from the RFC 1321 /
// FIPS 180-4 definitions: synchronous so the applets stay ordinary sync programs.

export type Algo = 'md5' | 'sha1' | 'sha256' | 'sha512';

const hex = (words: number[], le: boolean): string =>
  words.map((w) => {
    const x = le ? ((w & 255) << 24) | ((w >>> 8 & 255) << 16) | ((w >>> 16 & 255) << 8) | (w >>> 24) : w;
    return (x >>> 0).toString(16).padStart(8, '0');
  }).join('');

/** Merkle–Damgård padding: 0x80, zeros, the bit length (64-bit, or 128-bit for SHA-512). */
function pad(data: Uint8Array, block: number, lenBytes: number, le: boolean): DataView {
  const total = Math.ceil((data.length + 1 + lenBytes) / block) * block;
  const b = new Uint8Array(total);
  b.set(data);
  b[data.length] = 0x80;
  const v = new DataView(b.buffer);
  const bits = data.length * 8;
  const hi = Math.floor(bits / 2 ** 32);
  if (le) {
    v.setUint32(total - 8, bits >>> 0, true);
    v.setUint32(total - 4, hi, true);
  } else {
    v.setUint32(total - 4, bits >>> 0);
    v.setUint32(total - 8, hi);
  }
  return v;
}

const rotl = (x: number, n: number) => (x << n) | (x >>> (32 - n));
const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

const MD5_S = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
const MD5_K = Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) | 0);

function md5(data: Uint8Array): string {
  const v = pad(data, 64, 8, true);
  const h = [0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476];
  for (let off = 0; off < v.byteLength; off += 64) {
    const m = Array.from({ length: 16 }, (_, i) => v.getUint32(off + i * 4, true));
    let [a, b, c, d] = h;
    for (let i = 0; i < 64; i++) {
      let f: number;
      let g: number;
      if (i < 16) [f, g] = [(b & c) | (~b & d), i];
      else if (i < 32) [f, g] = [(d & b) | (~d & c), (5 * i + 1) % 16];
      else if (i < 48) [f, g] = [b ^ c ^ d, (3 * i + 5) % 16];
      else [f, g] = [c ^ (b | ~d), (7 * i) % 16];
      const t = d;
      d = c;
      c = b;
      b = (b + rotl((a + f + MD5_K[i] + m[g]) | 0, MD5_S[(i >> 4) * 4 + (i % 4)])) | 0;
      a = t;
    }
    h[0] = (h[0] + a) | 0;
    h[1] = (h[1] + b) | 0;
    h[2] = (h[2] + c) | 0;
    h[3] = (h[3] + d) | 0;
  }
  return hex(h, true);
}

function sha1(data: Uint8Array): string {
  const v = pad(data, 64, 8, false);
  const h = [0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476, 0xc3d2e1f0 | 0];
  const w = new Array<number>(80);
  for (let off = 0; off < v.byteLength; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = v.getUint32(off + i * 4);
    for (let i = 16; i < 80; i++) w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    let [a, b, c, d, e] = h;
    for (let i = 0; i < 80; i++) {
      const [f, k] =
        i < 20 ? [(b & c) | (~b & d), 0x5a827999] : i < 40 ? [b ^ c ^ d, 0x6ed9eba1] : i < 60 ? [(b & c) | (b & d) | (c & d), 0x8f1bbcdc] : [b ^ c ^ d, 0xca62c1d6];
      const t = (rotl(a, 5) + f + e + k + w[i]) | 0;
      e = d;
      d = c;
      c = rotl(b, 30);
      b = a;
      a = t;
    }
    [a, b, c, d, e].forEach((x, i) => (h[i] = (h[i] + x) | 0));
  }
  return hex(h, false);
}

/** The first 32/64 bits of the fractional parts of roots of the first primes (FIPS 180-4 constants). */
const PRIMES = ((n: number) => {
  const out: number[] = [];
  for (let p = 2; out.length < n; p++) if (out.every((q) => p % q !== 0)) out.push(p);
  return out;
})(80);

/** floor(frac(p^(1/k)) * 2^64) exactly, by integer k-th root of p * 2^(64k). */
function root64(p: number, k: 2 | 3): bigint {
  const target = BigInt(p) << BigInt(64 * k);
  let lo = 0n;
  let hi = 1n << 70n;
  while (lo < hi) {
    const mid = (lo + hi + 1n) >> 1n;
    if (mid ** BigInt(k) <= target) lo = mid;
    else hi = mid - 1n;
  }
  return BigInt.asUintN(64, lo);
}

// The first 32 bits of the 64-bit fractions (exact, unlike floating-point roots),
// computed on first use: this module is part of every coreutils command, and they took ~1 ms.
let SHA256: { K: number[]; H: number[] } | null = null;

function sha256(data: Uint8Array): string {
  SHA256 ??= {
    K: PRIMES.slice(0, 64).map((p) => Number(root64(p, 3) >> 32n) | 0),
    H: PRIMES.slice(0, 8).map((p) => Number(root64(p, 2) >> 32n) | 0),
  };
  const { K } = SHA256;
  const v = pad(data, 64, 8, false);
  const h = SHA256.H.slice();
  const w = new Array<number>(64);
  for (let off = 0; off < v.byteLength; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = v.getUint32(off + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      [hh, g, f, e, d, c, b, a] = [g, f, e, (d + t1) | 0, c, b, a, (t1 + t2) | 0];
    }
    [a, b, c, d, e, f, g, hh].forEach((x, i) => (h[i] = (h[i] + x) | 0));
  }
  return hex(h, false);
}

const M64 = (x: bigint) => BigInt.asUintN(64, x);
const rotr64 = (x: bigint, n: bigint) => M64((x >> n) | (x << (64n - n)));
let K512: bigint[] | null = null;

function sha512(data: Uint8Array): string {
  K512 ??= PRIMES.map((p) => root64(p, 3));
  const v = pad(data, 128, 16, false);
  const h = PRIMES.slice(0, 8).map((p) => root64(p, 2));
  const w = new Array<bigint>(80);
  for (let off = 0; off < v.byteLength; off += 128) {
    for (let i = 0; i < 16; i++) w[i] = v.getBigUint64(off + i * 8);
    for (let i = 16; i < 80; i++) {
      const s0 = rotr64(w[i - 15], 1n) ^ rotr64(w[i - 15], 8n) ^ (w[i - 15] >> 7n);
      const s1 = rotr64(w[i - 2], 19n) ^ rotr64(w[i - 2], 61n) ^ (w[i - 2] >> 6n);
      w[i] = M64(w[i - 16] + s0 + w[i - 7] + s1);
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 80; i++) {
      const t1 = M64(hh + (rotr64(e, 14n) ^ rotr64(e, 18n) ^ rotr64(e, 41n)) + ((e & f) ^ (~e & g)) + K512[i] + w[i]);
      const t2 = M64((rotr64(a, 28n) ^ rotr64(a, 34n) ^ rotr64(a, 39n)) + ((a & b) ^ (a & c) ^ (b & c)));
      [hh, g, f, e, d, c, b, a] = [g, f, e, M64(d + t1), c, b, a, M64(t1 + t2)];
    }
    [a, b, c, d, e, f, g, hh].forEach((x, i) => (h[i] = M64(h[i] + x)));
  }
  return h.map((x) => x.toString(16).padStart(16, '0')).join('');
}

export const DIGESTS: Record<Algo, { fn: (d: Uint8Array) => string; hexLen: number; tag: string }> = {
  md5: { fn: md5, hexLen: 32, tag: 'MD5' },
  sha1: { fn: sha1, hexLen: 40, tag: 'SHA1' },
  sha256: { fn: sha256, hexLen: 64, tag: 'SHA256' },
  sha512: { fn: sha512, hexLen: 128, tag: 'SHA512' },
};

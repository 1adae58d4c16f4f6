// SHA-256 (FIPS 180-4) on 64-byte blocks with a state that can be copied:
// what PBKDF2 needs to run HMAC's inner and outer hashes from precomputed
// key states (two compressions per iteration instead of four and the padding).

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
  0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
  0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
  0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

export const SHA256_INIT = Int32Array.of(0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19);

const W = new Int32Array(64);

/** Compress one 64-byte block (16 big-endian words in `m`) into state `h`. */
export function compress(h: Int32Array, m: Uint32Array): void {
  for (let i = 0; i < 16; i++) W[i] = m[i];
  for (let i = 16; i < 64; i++) {
    const a = W[i - 15];
    const b = W[i - 2];
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    W[i] = (W[i - 16] + s0 + W[i - 7] + s1) | 0;
  }
  let a = h[0];
  let b = h[1];
  let c = h[2];
  let d = h[3];
  let e = h[4];
  let f = h[5];
  let g = h[6];
  let k = h[7];
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (k + S1 + ((e & f) ^ (~e & g)) + K[i] + W[i]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    k = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  h[0] = (h[0] + a) | 0;
  h[1] = (h[1] + b) | 0;
  h[2] = (h[2] + c) | 0;
  h[3] = (h[3] + d) | 0;
  h[4] = (h[4] + e) | 0;
  h[5] = (h[5] + f) | 0;
  h[6] = (h[6] + g) | 0;
  h[7] = (h[7] + k) | 0;
}

/** The state after one block of `key XOR pad` (key already at most 64 bytes). */
export function padState(key: Uint8Array, pad: number): Int32Array {
  const m = new Uint32Array(16);
  for (let i = 0; i < 64; i++) m[i >> 2] |= ((key[i] ?? 0) ^ pad) << (24 - 8 * (i & 3));
  const h = Int32Array.from(SHA256_INIT);
  compress(h, m);
  return h;
}

/**
 * HMAC-SHA256 of a 32-byte message (a previous HMAC output, as words) from
 * the precomputed inner and outer states: PBKDF2's inner loop.
 */
const M = new Uint32Array(16);
const H = new Int32Array(8);

export function hmac32(inner: Int32Array, outer: Int32Array, msg: Uint32Array, out: Uint32Array): void {
  M.set(msg.subarray(0, 8));
  M.fill(0, 8);
  M[8] = 0x80000000;
  M[15] = (64 + 32) * 8;
  H.set(inner);
  compress(H, M);
  for (let i = 0; i < 8; i++) M[i] = H[i];
  H.set(outer);
  compress(H, M);
  for (let i = 0; i < 8; i++) out[i] = H[i];
}

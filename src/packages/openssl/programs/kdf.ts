// Digests as bytes (the coreutils implementations), HMAC (RFC 2104), PBKDF2
// (RFC 8018) and OpenSSL's EVP_BytesToKey — what `openssl enc` derives keys with.

import { DIGESTS, type Algo } from '../../../common/digest.js';
import { hmac32, padState } from './sha256.js';

export const BLOCK: Record<Algo, number> = { md5: 64, sha1: 64, sha256: 64, sha512: 128 };

export function fromHex(h: string): Uint8Array {
  const b = new Uint8Array(h.length >> 1);
  for (let i = 0; i < b.length; i++) b[i] = parseInt(h.substr(2 * i, 2), 16);
  return b;
}

export const toHex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

export function digest(algo: Algo, data: Uint8Array): Uint8Array {
  return fromHex(DIGESTS[algo].fn(data));
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export function hmac(algo: Algo, key: Uint8Array, data: Uint8Array): Uint8Array {
  const bs = BLOCK[algo];
  let k = key.length > bs ? digest(algo, key) : key;
  k = concat(k, new Uint8Array(bs - k.length));
  const ipad = k.map((x) => x ^ 0x36);
  const opad = k.map((x) => x ^ 0x5c);
  return digest(algo, concat(opad, digest(algo, concat(ipad, data))));
}

export function pbkdf2(algo: Algo, pass: Uint8Array, salt: Uint8Array, iter: number, len: number): Uint8Array {
  if (algo === 'sha256') return pbkdf2Sha256(pass, salt, iter, len);
  const out = new Uint8Array(len);
  for (let block = 1, o = 0; o < len; block++) {
    let u = hmac(algo, pass, concat(salt, Uint8Array.of(block >>> 24, (block >>> 16) & 0xff, (block >>> 8) & 0xff, block & 0xff)));
    const t = Uint8Array.from(u);
    for (let i = 1; i < iter; i++) {
      u = hmac(algo, pass, u);
      for (let j = 0; j < t.length; j++) t[j] ^= u[j];
    }
    out.set(t.subarray(0, Math.min(t.length, len - o)), o);
    o += t.length;
  }
  return out;
}

/** EVP_BytesToKey with one iteration: D_i = H(D_{i-1} || pass || salt), concatenated. */
export function bytesToKey(algo: Algo, pass: Uint8Array, salt: Uint8Array | null, len: number): Uint8Array {
  const out = new Uint8Array(len);
  let prev = new Uint8Array(0);
  for (let o = 0; o < len; ) {
    prev = Uint8Array.from(digest(algo, concat(prev, pass, salt ?? new Uint8Array(0))));
    out.set(prev.subarray(0, Math.min(prev.length, len - o)), o);
    o += prev.length;
  }
  return out;
}

/** PBKDF2-HMAC-SHA256 with the key's inner and outer states computed once (OpenSSL's default). */
function pbkdf2Sha256(pass: Uint8Array, salt: Uint8Array, iter: number, len: number): Uint8Array {
  const key = pass.length > 64 ? digest('sha256', pass) : pass;
  const inner = padState(key, 0x36);
  const outer = padState(key, 0x5c);
  const out = new Uint8Array(len);
  const u = new Uint32Array(8);
  const t = new Uint32Array(8);
  for (let block = 1, o = 0; o < len; block++) {
    const first = hmac('sha256', key, concat(salt, Uint8Array.of(block >>> 24, (block >>> 16) & 0xff, (block >>> 8) & 0xff, block & 0xff)));
    for (let i = 0; i < 8; i++) u[i] = t[i] = ((first[4 * i] << 24) | (first[4 * i + 1] << 16) | (first[4 * i + 2] << 8) | first[4 * i + 3]) >>> 0;
    for (let i = 1; i < iter; i++) {
      hmac32(inner, outer, u, u);
      for (let j = 0; j < 8; j++) t[j] ^= u[j];
    }
    for (let i = 0; i < 32 && o + i < len; i++) out[o + i] = (t[i >> 2] >>> (24 - 8 * (i & 3))) & 0xff;
    o += 32;
  }
  return out;
}

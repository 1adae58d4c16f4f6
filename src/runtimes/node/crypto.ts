// The `crypto` module: hashes (md5, sha1, sha256, sha512) and HMAC on the
// digests coreutils uses, random bytes/UUIDs/ints from the host's CSPRNG,
// timingSafeEqual and the Web Crypto object.

import { Buffer } from 'buffer';
import { DIGESTS, type Algo } from '../../common/digest.js';
import { nodeError } from './errors.js';

const ALIASES: Record<string, Algo> = { md5: 'md5', sha1: 'sha1', 'sha-1': 'sha1', sha256: 'sha256', 'sha-256': 'sha256', sha512: 'sha512', 'sha-512': 'sha512' };
const BLOCK: Record<Algo, number> = { md5: 64, sha1: 64, sha256: 64, sha512: 128 };

const algo = (name: string): Algo => {
  const a = ALIASES[String(name).toLowerCase()];
  if (!a) throw Object.assign(new Error('Digest method not supported'), { code: 'ERR_CRYPTO_INVALID_DIGEST' });
  return a;
};
const digestBytes = (a: Algo, data: Uint8Array): Buffer => Buffer.from(DIGESTS[a].fn(data), 'hex');
const toBytes = (d: unknown, enc?: string): Uint8Array => {
  if (typeof d === 'string') return Buffer.from(d, (enc as BufferEncoding) ?? 'utf8');
  if (ArrayBuffer.isView(d)) return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
  throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${d === null ? 'null' : typeof d}`);
};
const out = (b: Buffer, enc?: string) => (enc ? b.toString(enc as BufferEncoding) : b);

class Hash {
  private parts: Uint8Array[] = [];
  private done = false;
  constructor(private a: Algo, private key?: Uint8Array) {}
  update(d: unknown, enc?: string): this {
    if (this.done) throw nodeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
    this.parts.push(toBytes(d, enc));
    return this;
  }
  digest(enc?: string): Buffer | string {
    if (this.done) throw nodeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
    this.done = true;
    const data = Buffer.concat(this.parts);
    if (!this.key) return out(digestBytes(this.a, data), enc);
    const bs = BLOCK[this.a];
    let k = this.key.length > bs ? digestBytes(this.a, this.key) : this.key;
    k = Buffer.concat([k, Buffer.alloc(bs - k.length)]);
    const ipad = Buffer.from(k.map((x) => x ^ 0x36));
    const opad = Buffer.from(k.map((x) => x ^ 0x5c));
    const inner = digestBytes(this.a, Buffer.concat([ipad, data]));
    return out(digestBytes(this.a, Buffer.concat([opad, inner])), enc);
  }
  copy(): Hash {
    const h = new Hash(this.a, this.key);
    h.parts = [...this.parts];
    return h;
  }
}

const fill = (b: Uint8Array) => {
  for (let i = 0; i < b.length; i += 65536) globalThis.crypto.getRandomValues(b.subarray(i, i + 65536));
  return b;
};

export function makeCrypto(nextTick: (cb: (...a: unknown[]) => void, args: unknown[]) => void) {
  const randomBytes = (n: number, cb?: (e: Error | null, b: Buffer) => void) => {
    const b = fill(Buffer.alloc(n)) as Buffer;
    if (cb) nextTick(cb as (...a: unknown[]) => void, [null, b]);
    else return b;
  };
  const randomInt = (min: number, max?: number | ((e: Error | null, n: number) => void), cb?: (e: Error | null, n: number) => void) => {
    if (max === undefined || typeof max === 'function') { cb = max as typeof cb; max = min; min = 0; }
    const range = max - min;
    if (!(range > 0)) throw nodeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "max" is out of range. It must be greater than the value of "min" (${min}). Received ${max}`);
    const lim = Math.floor(2 ** 48 / range) * range;
    let x: number;
    do {
      const b = fill(new Uint8Array(6));
      x = b.reduce((a, v) => a * 256 + v, 0);
    } while (x >= lim);
    const r = min + (x % range);
    if (cb) nextTick(cb as (...a: unknown[]) => void, [null, r]);
    else return r;
  };
  return {
    createHash: (name: string) => new Hash(algo(name)),
    createHmac: (name: string, key: unknown) => new Hash(algo(name), toBytes(key)),
    getHashes: () => ['md5', 'sha1', 'sha256', 'sha512'],
    hash: (name: string, data: unknown, enc = 'hex') => new Hash(algo(name)).update(data).digest(enc),
    randomBytes,
    pseudoRandomBytes: randomBytes,
    randomFillSync: (b: Uint8Array, off = 0, size?: number) => { fill(b.subarray(off, size === undefined ? undefined : off + size)); return b; },
    randomFill: (b: Uint8Array, ...a: unknown[]) => { const cb = a.pop() as (e: null, b: Uint8Array) => void; fill(b); nextTick(cb as (...x: unknown[]) => void, [null, b]); },
    randomUUID: () => globalThis.crypto.randomUUID(),
    randomInt,
    getRandomValues: (b: Uint8Array) => fill(b),
    timingSafeEqual: (a: Uint8Array, b: Uint8Array) => {
      if (a.byteLength !== b.byteLength) throw nodeError(RangeError, 'ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH', 'Input buffers must have the same byte length');
      let d = 0;
      for (let i = 0; i < a.byteLength; i++) d |= a[i] ^ b[i];
      return d === 0;
    },
    webcrypto: globalThis.crypto,
    subtle: globalThis.crypto.subtle,
    constants: {},
  };
}

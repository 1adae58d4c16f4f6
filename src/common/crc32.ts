// CRC-32 in its two bit orders: IEEE 802.3 reflected (zlib: gzip, zip, the
// persistent layer's frames) and most significant bit first (POSIX cksum,
// bzip2). Pure code every layer may use (docs/architecture.md).

/** Eight 256-entry tables, one after another (slicing by 8). */
const T = new Int32Array(8 * 256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  T[n] = c;
}
for (let n = 0; n < 256; n++) {
  for (let t = 1; t < 8; t++) T[t * 256 + n] = T[(t - 1) * 256 + n] >>> 8 ^ T[T[(t - 1) * 256 + n] & 0xff];
}

/** Words load in little-endian order here (every platform a browser or Node runs on today). */
const LITTLE = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * CRC-32 (IEEE, reflected, as zlib), slicing by 8 over 32-bit word loads
 * (two loads per 8 bytes instead of eight: about 2× the byte loop), so a
 * 50 MB file costs tens of milliseconds; `prev` continues a running CRC
 * (start with 0).
 */
export function crc32(b: Uint8Array, prev = 0): number {
  const n = b.byteLength;
  let c = ~prev;
  let i = 0;
  if (LITTLE && n >= 64) {
    for (; (b.byteOffset + i) & 3; i++) c = T[(c ^ b[i]) & 0xff] ^ c >>> 8;
    const words = ((n - i) >>> 3) << 1;
    const w = new Int32Array(b.buffer, b.byteOffset + i, words);
    for (let k = 0; k < words; k += 2) {
      const lo = c ^ w[k];
      const hi = w[k + 1];
      c = T[1792 + (lo & 0xff)] ^ T[1536 + (lo >>> 8 & 0xff)] ^ T[1280 + (lo >>> 16 & 0xff)] ^ T[1024 + (lo >>> 24)] ^
        T[768 + (hi & 0xff)] ^ T[512 + (hi >>> 8 & 0xff)] ^ T[256 + (hi >>> 16 & 0xff)] ^ T[hi >>> 24];
    }
    i += words << 2;
  }
  for (; i + 8 <= n; i += 8) {
    const lo = c ^ (b[i] | b[i + 1] << 8 | b[i + 2] << 16 | b[i + 3] << 24);
    c = T[1792 + (lo & 0xff)] ^ T[1536 + (lo >>> 8 & 0xff)] ^ T[1280 + (lo >>> 16 & 0xff)] ^ T[1024 + (lo >>> 24)] ^
      T[768 + b[i + 4]] ^ T[512 + b[i + 5]] ^ T[256 + b[i + 6]] ^ T[b[i + 7]];
  }
  for (; i < n; i++) c = T[(c ^ b[i]) & 0xff] ^ c >>> 8;
  return ~c >>> 0;
}

/** The table of CRC-32 with polynomial 0x04C11DB7 most significant bit first, unreflected (POSIX cksum, bzip2). */
export const CRC32_MSB_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 24;
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    t[i] = c >>> 0;
  }
  return t;
})();

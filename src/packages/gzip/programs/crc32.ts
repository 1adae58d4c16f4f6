// CRC-32 (IEEE 802.3, reflected, as gzip and zip use it), slicing by 8 so a
// 50 MB file costs tens of milliseconds. fflate keeps its own CRC private.

const T = new Int32Array(8 * 256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  T[n] = c;
}
for (let n = 0; n < 256; n++) {
  for (let t = 1; t < 8; t++) T[t * 256 + n] = T[(t - 1) * 256 + n] >>> 8 ^ T[T[(t - 1) * 256 + n] & 0xff];
}

/** Continue a CRC over `b` (start with 0); returns the unsigned CRC. */
export function crc32(crc: number, b: Uint8Array): number {
  let c = ~crc;
  let i = 0;
  const n = b.byteLength;
  for (; i + 8 <= n; i += 8) {
    const lo = c ^ (b[i] | b[i + 1] << 8 | b[i + 2] << 16 | b[i + 3] << 24);
    c = T[1792 + (lo & 0xff)] ^ T[1536 + (lo >>> 8 & 0xff)] ^ T[1280 + (lo >>> 16 & 0xff)] ^ T[1024 + (lo >>> 24)] ^
      T[768 + b[i + 4]] ^ T[512 + b[i + 5]] ^ T[256 + b[i + 6]] ^ T[b[i + 7]];
  }
  for (; i < n; i++) c = T[(c ^ b[i]) & 0xff] ^ c >>> 8;
  return ~c >>> 0;
}

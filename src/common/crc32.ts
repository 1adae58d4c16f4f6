// CRC-32 in its two bit orders: IEEE 802.3 reflected (zlib: gzip, zip, the
// persistent layer's frames) and most significant bit first (POSIX cksum,
// bzip2). Pure code every layer may use (docs/architecture.md).

let tables: Uint32Array[] | null = null;

/**
 * CRC-32 (IEEE, reflected, as zlib), slicing by 8 so a 50 MB file costs tens
 * of milliseconds; `prev` continues a running CRC (start with 0).
 */
export function crc32(b: Uint8Array, prev = 0): number {
  if (!tables) {
    tables = Array.from({ length: 8 }, () => new Uint32Array(256));
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      tables[0][n] = c >>> 0;
    }
    for (let n = 0; n < 256; n++) {
      for (let t = 1; t < 8; t++) tables[t][n] = (tables[t - 1][n] >>> 8) ^ tables[0][tables[t - 1][n] & 0xff];
    }
  }
  const [t0, t1, t2, t3, t4, t5, t6, t7] = tables;
  let c = ~prev >>> 0;
  let i = 0;
  for (const end = b.length - 8; i <= end; i += 8) {
    const lo = (c ^ (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24))) >>> 0;
    c = t7[lo & 0xff] ^ t6[(lo >>> 8) & 0xff] ^ t5[(lo >>> 16) & 0xff] ^ t4[lo >>> 24] ^
      t3[b[i + 4]] ^ t2[b[i + 5]] ^ t1[b[i + 6]] ^ t0[b[i + 7]];
  }
  for (; i < b.length; i++) c = t0[(c ^ b[i]) & 0xff] ^ (c >>> 8);
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

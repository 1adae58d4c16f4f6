// bzip2's CRC-32: polynomial 0x04C11DB7, most significant bit first, no
// reflection (the same table as POSIX cksum), initial and final inversion.

export const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 24;
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    t[i] = c >>> 0;
  }
  return t;
})();

/** The running CRC after `n` copies of byte `b` (the caller starts from 0xffffffff and inverts at the end). */
export function crcRun(crc: number, b: number, n: number): number {
  for (let i = 0; i < n; i++) crc = (crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ b) & 0xff];
  return crc >>> 0;
}

/** The stream's combined CRC after one more block. */
export const combine = (combined: number, block: number): number => (((combined << 1) | (combined >>> 31)) ^ block) >>> 0;

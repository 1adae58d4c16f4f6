// bzip2's CRC-32: the MSB-first table POSIX cksum uses too, initial and
// final inversion.

import { CRC32_MSB_TABLE } from '../../../common/crc32.js';

/** The running CRC after `n` copies of byte `b` (the caller starts from 0xffffffff and inverts at the end). */
export function crcRun(crc: number, b: number, n: number): number {
  for (let i = 0; i < n; i++) crc = (crc << 8) ^ CRC32_MSB_TABLE[((crc >>> 24) ^ b) & 0xff];
  return crc >>> 0;
}

/** The stream's combined CRC after one more block. */
export const combine = (combined: number, block: number): number => (((combined << 1) | (combined >>> 31)) ^ block) >>> 0;

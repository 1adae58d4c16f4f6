// xz -l: read each stream's footer and index from the end of the file (as
// xz does, without decompressing) and print XZ Utils' table.

import type { Sys } from '../../../libc/sys.js';

export interface BlockInfo {
  /** Padded size of the block (header, data, check), as xz -lv's TotalSize. */
  total: number;
  uncompressed: number;
}

export interface StreamInfo {
  blocks: number;
  blockList: BlockInfo[];
  compressed: number;
  uncompressed: number;
  check: number;
  padding: number;
}

export class ListError extends Error {}

const CHECK_NAMES: Record<number, string> = { 0: 'None', 1: 'CRC32', 4: 'CRC64', 10: 'SHA-256' };
export const checkName = (c: number): string => CHECK_NAMES[c] ?? `Unknown-${c}`;

function vli(b: Uint8Array, pos: { i: number }): number {
  let v = 0;
  let mul = 1;
  for (let k = 0; k < 9; k++) {
    if (pos.i >= b.length) throw new ListError('corrupt');
    const x = b[pos.i++];
    v += (x & 0x7f) * mul;
    mul *= 128;
    if (!(x & 0x80)) return v;
  }
  throw new ListError('corrupt');
}

/** The streams of an .xz file of `size` bytes, first to last. */
export function readStreams(sys: Sys, fd: number, size: number): StreamInfo[] {
  const streams: StreamInfo[] = [];
  let end = size;
  while (end > 0) {
    // Stream padding: zero bytes in multiples of four.
    let padding = 0;
    while (end >= 4) {
      const w = sys.pread(fd, 4, end - 4);
      if (w.some((x) => x !== 0)) break;
      end -= 4;
      padding += 4;
    }
    if (end < 24) throw new ListError('format');
    const footer = sys.pread(fd, 12, end - 12);
    if (footer[10] !== 0x59 || footer[11] !== 0x5a) throw new ListError('format');
    const backward = (new DataView(footer.buffer, footer.byteOffset).getUint32(4, true) + 1) * 4;
    const check = footer[9] & 0x0f;
    const indexStart = end - 12 - backward;
    if (indexStart < 12) throw new ListError('corrupt');
    const index = sys.pread(fd, backward, indexStart);
    if (index[0] !== 0) throw new ListError('corrupt');
    const pos = { i: 1 };
    const records = vli(index, pos);
    let blocksSize = 0;
    let uncompressed = 0;
    const blockList: BlockInfo[] = [];
    for (let r = 0; r < records; r++) {
      const unpadded = vli(index, pos);
      const u = vli(index, pos);
      uncompressed += u;
      blocksSize += Math.ceil(unpadded / 4) * 4;
      blockList.push({ total: Math.ceil(unpadded / 4) * 4, uncompressed: u });
    }
    const start = indexStart - blocksSize - 12;
    if (start < 0) throw new ListError('corrupt');
    const header = sys.pread(fd, 6, start);
    if (header[0] !== 0xfd || header[1] !== 0x37 || header[5] !== 0) throw new ListError('corrupt');
    streams.unshift({ blocks: records, blockList, compressed: end - start, uncompressed, check, padding });
    end = start;
  }
  return streams;
}

/** Bytes as xz -l shows them: under 10000 in B, else KiB, MiB, … with one decimal (and the bytes too, when `exact`). */
export function sizeText(n: number, exact = false): string {
  if (n < 10000) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 10000 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}${exact ? ` (${n} B)` : ''}`;
}

export function ratioText(comp: number, uncomp: number): string {
  if (uncomp === 0) return '---';
  const r = comp / uncomp;
  return r > 9.999 ? '---' : r.toFixed(3);
}

// Reading zip archives from a file descriptor: the end record and central
// directory by position, and an entry's data in chunks (never the whole
// archive in memory).

import type { Sys } from '../../../libc/sys.js';
import { findEnd, localHeaderLength, parseCentral, type Entry } from './format.js';

const CHUNK = 128 * 1024;

/** Read exactly `len` bytes at `pos` (fewer at the end of the file). */
export function readAt(sys: Sys, fd: number, pos: number, len: number): Uint8Array {
  const out = new Uint8Array(len);
  let got = 0;
  while (got < len) {
    const b = sys.pread(fd, Math.min(CHUNK, len - got), pos + got);
    if (!b.byteLength) break;
    out.set(b, got);
    got += b.byteLength;
  }
  return got === len ? out : out.subarray(0, got);
}

export interface Directory {
  entries: Entry[];
}

/** The archive's entries; 'no-end' when there is no end record, 'bad' when the directory is damaged. */
export function readDirectory(sys: Sys, fd: number, size: number): Directory | 'no-end' | 'bad' {
  const tailLen = Math.min(size, 65535 + 22);
  const end = findEnd(readAt(sys, fd, size - tailLen, tailLen));
  if (!end) return 'no-end';
  const cd = readAt(sys, fd, end.cdOffset, end.cdSize);
  if (cd.byteLength < end.cdSize) return 'bad';
  const entries = parseCentral(cd, end.count);
  return entries ? { entries } : 'bad';
}

/** Where an entry's data starts, from its local header; null if that header is not there. */
export function dataOffset(sys: Sys, fd: number, e: Entry): number | null {
  const h = readAt(sys, fd, e.offset, 30);
  const n = localHeaderLength(h);
  return n === null ? null : e.offset + n;
}

/** The entry's compressed bytes, chunk by chunk. */
export function* entryData(sys: Sys, fd: number, start: number, csize: number): Generator<Uint8Array> {
  for (let done = 0; done < csize; ) {
    const b = sys.pread(fd, Math.min(CHUNK, csize - done), start + done);
    if (!b.byteLength) return;
    done += b.byteLength;
    yield b;
  }
}

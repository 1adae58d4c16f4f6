// An entry's data, uncompressed chunk by chunk (stored or deflated through
// fflate's streaming Inflate), with its CRC checked as UnZip checks it.

import { crc32 } from '../../../common/crc32.js';
import { RawInflater } from '../../gzip/programs/inflate.js';
import { DEFLATED, STORED, type Entry } from './format.js';
import { dataOffset, entryData } from './io.js';
import type { Unzip } from './unzip.js';

export type Outcome = { ok: true } | { ok: false; crc: number } | { ok: false; error: string };

/** Stream the entry to `sink` (null: just check it). */
export function readEntry(u: Unzip, e: Entry, sink: ((b: Uint8Array) => void) | null): Outcome {
  const sys = u.os.sys;
  const start = dataOffset(sys, u.fd, e);
  if (start === null) return { ok: false, error: 'bad zipfile offset (local header sig):  ' + e.offset };
  let crc = 0;
  const take = (b: Uint8Array) => {
    crc = crc32(b, crc);
    sink?.(b);
  };
  if (e.method === STORED) {
    for (const c of entryData(sys, u.fd, start, e.csize)) take(c);
  } else if (e.method === DEFLATED) {
    const inf = new RawInflater(take);
    let ended = false;
    try {
      for (const c of entryData(sys, u.fd, start, e.csize)) if (inf.push(c) !== null) ended = true;
    } catch {
      return { ok: false, error: 'invalid compressed data to inflate' };
    }
    if (!ended && e.usize > 0) return { ok: false, error: 'invalid compressed data to inflate' };
  } else return { ok: false, error: `unsupported compression method ${e.method}` };
  return crc === e.crc ? { ok: true } : { ok: false, crc };
}

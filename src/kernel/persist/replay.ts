// Rebuild the inode records of a layer from its checkpoint and journal frames.

import type { InodeRecord } from '../fs/memfs.js';
import type { Commit } from './format.js';

export interface Replayed {
  records: Map<number, InodeRecord>;
  /** One past the highest inode number any record used (adopted or not). */
  nextIno: number;
  seq: number;
  imageId: string | null;
}

/** Apply commits in order; each record is the inode's new value. */
export function replay(commits: Commit[]): Replayed {
  const records = new Map<number, InodeRecord>();
  const data = new Map<number, Uint8Array>();
  let nextIno = 2;
  let seq = 0;
  let imageId: string | null = null;
  for (const c of commits) {
    seq = c.seq;
    imageId = c.imageId;
    for (const r of c.meta) {
      records.set(r.ino, r);
      nextIno = Math.max(nextIno, r.ino + 1);
    }
    for (const d of c.data) {
      const old = data.get(d.ino);
      let bytes: Uint8Array;
      const whole = d.ranges.length === 1 && d.ranges[0].offset === 0 && d.ranges[0].bytes.length === d.size ? d.ranges[0].bytes : null;
      // A file written whole (every file of a checkpoint or snapshot): the decoded bytes are its own copy already (format.ts).
      if (whole && !data.has(d.ino)) {
        data.set(d.ino, whole);
        nextIno = Math.max(nextIno, d.ino + 1);
        continue;
      }
      if (old && old.length === d.size) bytes = old;
      else {
        bytes = new Uint8Array(d.size);
        if (old) bytes.set(old.subarray(0, Math.min(old.length, d.size)));
      }
      for (const r of d.ranges) bytes.set(r.bytes.subarray(0, Math.max(0, d.size - r.offset)), r.offset);
      data.set(d.ino, bytes);
      nextIno = Math.max(nextIno, d.ino + 1);
    }
  }
  for (const [ino, bytes] of data) {
    const r = records.get(ino);
    if (r) r.data = bytes;
  }
  return { records, nextIno, seq, imageId };
}

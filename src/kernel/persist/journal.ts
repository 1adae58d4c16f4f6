// What changed in a MemFs since the last commit: the inodes whose attributes
// or entries changed, and per file the span of bytes that changed. A commit's
// records are encoded as soon as they are taken, so later writes cannot tear it.

import { S_IFMT, S_IFREG } from '../../abi/stat.js';
import type { InodeRecord, MemFs, MemFsObserver, MemInode } from '../fs/memfs.js';
import type { DataRecord } from './format.js';

interface Span {
  lo: number;
  hi: number;
}

/** The dirty state a commit took, to put back if the commit fails. */
export interface Taken {
  meta: MemInode[];
  data: [MemInode, Span][];
}

export class Journal implements MemFsObserver {
  private readonly metaDirty = new Set<MemInode>();
  private readonly dataDirty = new Map<MemInode, Span>();
  /** When the oldest unsaved change was made (0 = clean). */
  dirtySinceMs = 0;
  onDirty: (() => void) | null = null;

  constructor(private readonly fs: MemFs) {}

  get dirty(): boolean {
    return this.metaDirty.size > 0 || this.dataDirty.size > 0;
  }

  meta(node: MemInode): void {
    this.metaDirty.add(node);
    this.touched();
  }

  data(node: MemInode, lo: number, hi: number): void {
    this.metaDirty.add(node); // times and size go with the bytes
    const s = this.dataDirty.get(node);
    if (s) {
      s.lo = Math.min(s.lo, lo);
      s.hi = Math.max(s.hi, hi);
    } else {
      this.dataDirty.set(node, { lo, hi });
    }
    this.touched();
  }

  private touched(): void {
    if (this.dirtySinceMs === 0) {
      this.dirtySinceMs = Date.now();
      this.onDirty?.();
    }
  }

  /** Files open for writing right now (a background commit waits for them to close). */
  get openWriters(): boolean {
    for (const node of this.dataDirty.keys()) if (node.writers > 0 && node.nlink > 0) return true;
    return false;
  }

  /** Everything dirty, as records; the journal is clean afterwards. */
  take(): { meta: InodeRecord[]; data: DataRecord[]; taken: Taken } {
    const taken: Taken = { meta: [...this.metaDirty], data: [...this.dataDirty] };
    this.metaDirty.clear();
    this.dataDirty.clear();
    this.dirtySinceMs = 0;
    const root = this.fs.root();
    const meta: InodeRecord[] = [];
    // An inode with no name left is simply not referenced any more; the loader drops it.
    for (const node of taken.meta) if (node.nlink > 0 || node === root) meta.push(metaRecord(node));
    const data: DataRecord[] = [];
    for (const [node, span] of taken.data) {
      if (node.nlink === 0 || (node.mode & S_IFMT) !== S_IFREG) continue;
      const hi = Math.min(span.hi, node.size);
      const lo = Math.min(span.lo, hi);
      // A view, not a copy: the commit is encoded before anything can write again.
      data.push({ ino: node.ino, size: node.size, ranges: hi > lo ? [{ offset: lo, bytes: node.data!.subarray(lo, hi) }] : [] });
    }
    return { meta, data, taken };
  }

  /** A commit failed: its changes are dirty again (merged with any made since). */
  putBack(t: Taken): void {
    for (const node of t.meta) this.metaDirty.add(node);
    for (const [node, span] of t.data) this.data(node, span.lo, span.hi);
    if (t.meta.length) this.touched();
  }
}

/** The record of one inode as it is now. */
export function metaRecord(node: MemInode): InodeRecord {
  const r: InodeRecord = {
    ino: node.ino, mode: node.mode, uid: node.uid, gid: node.gid, rdev: node.rdev,
    atimeMs: node.atimeMs, mtimeMs: node.mtimeMs, ctimeMs: node.ctimeMs,
  };
  if (node.children) r.entries = [...node.children].map(([name, child]) => [name, child.ino]);
  else if ((node.mode & S_IFMT) === 0o120000) r.target = node.target;
  return r;
}

/** Every live inode of `fs`, meta and whole data: the content of a checkpoint. */
export function fullState(fs: MemFs): { meta: InodeRecord[]; data: DataRecord[] } {
  const meta: InodeRecord[] = [];
  const data: DataRecord[] = [];
  for (const node of fs.walk()) {
    meta.push(metaRecord(node));
    if ((node.mode & S_IFMT) === S_IFREG && node.data) {
      data.push({ ino: node.ino, size: node.size, ranges: node.size ? [{ offset: 0, bytes: node.data.subarray(0, node.size) }] : [] });
    }
  }
  return { meta, data };
}

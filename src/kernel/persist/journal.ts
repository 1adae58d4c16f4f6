// What changed in a MemFs since the last commit: the inodes whose attributes
// or entries changed, and per file the span of bytes that changed. A commit's
// records are encoded as soon as they are taken, so later writes cannot tear it.
//
// A file open for writing is saved as it was when it was last closed (or, the
// first time, opened), unless the commit is a sync(2), or an fsync(2) of that
// file: a process still writing when exec returns must not leave half its
// output on disk (decision 0033). So when a file is opened for writing the
// journal notes its size, attributes and unsaved span, and when a write is
// about to change bytes of that version it keeps the old buffer (MemFs then
// writes into a copy). Appends change none of those bytes, so they cost nothing.
//
// A commit's frame refers to file buffers rather than copying them (format.ts):
// its data records pin those buffers until the store has written them
// (release()), and a write into a pinned span goes to a copy the same way.

import { S_IFMT, S_IFREG } from '../../abi/stat.js';
import type { InodeRecord, MemFs, MemFsObserver, MemInode } from '../fs/memfs.js';
import type { DataRecord } from './format.js';

interface Span {
  lo: number;
  hi: number;
}

/** A file open for writing, as of its last close: what commits save while it stays open. */
interface Closed {
  /** Created by this open and never closed since: it has no version to save (a crash leaves no file). */
  fresh: boolean;
  size: number;
  meta: InodeRecord;
  /** That version has changes not yet saved: its attributes, and (span) its bytes. */
  dirty: boolean;
  span: Span | null;
  /** Its bytes, once a write changed the live buffer in [0, size); until then the live buffer holds them. */
  data: Uint8Array | null;
}

/** The dirty state a commit took, to put back if the commit fails. */
export interface Taken {
  meta: MemInode[];
  data: [MemInode, Span][];
  closed: [MemInode, Closed][];
}

/** What a commit saves: everything (sync), or files open for writing only as of their last close, except `include`. */
export interface CommitScope {
  all: boolean;
  include: ReadonlySet<MemInode>;
}

export class Journal implements MemFsObserver {
  private readonly metaDirty = new Set<MemInode>();
  private readonly dataDirty = new Map<MemInode, Span>();
  private readonly open = new Map<MemInode, Closed>();
  /** Files created, not yet closed nor saved. */
  private readonly unclosed = new Set<MemInode>();
  /** Live buffers a commit's frame refers to, until it is written: bytes [0, end) of each must not change. */
  private readonly pinned = new Map<MemInode, number>();
  onDirty: (() => void) | null = null;

  constructor(private readonly fs: MemFs) {}

  get dirty(): boolean {
    return this.metaDirty.size > 0 || this.dataDirty.size > 0;
  }

  meta(node: MemInode): void {
    this.metaDirty.add(node);
    this.onDirty?.();
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
    this.onDirty?.();
  }

  created(node: MemInode): void {
    this.unclosed.add(node);
  }

  writeOpened(node: MemInode): void {
    const span = this.dataDirty.get(node);
    this.open.set(node, { fresh: this.unclosed.has(node), size: node.size, meta: metaRecord(node), dirty: this.metaDirty.has(node), span: span ? { ...span } : null, data: null });
  }

  writeClosed(node: MemInode): void {
    this.open.delete(node);
    this.unclosed.delete(node);
    if (this.metaDirty.has(node)) this.onDirty?.(); // its new content may be saved now
  }

  willChange(node: MemInode, lo: number): boolean {
    let copy = false;
    const end = this.pinned.get(node);
    if (end !== undefined && lo < end) {
      this.pinned.delete(node); // the frame keeps the old buffer; MemFs writes into a copy
      copy = true;
    }
    const c = this.open.get(node);
    if (c && !c.data && lo < c.size) {
      c.data = node.data;
      copy = true;
    }
    return copy;
  }

  /** The frame of the last take() or fullState() is written: its buffers may change in place again. */
  release(): void {
    this.pinned.clear();
  }

  /** The data record of bytes `span` of `node`'s live buffer, pinned until release(). */
  private live(node: MemInode, size: number, span: Span): DataRecord {
    const r = dataRecord(node.ino, size, node.data!, span);
    if (r.ranges.length) this.pinned.set(node, Math.max(this.pinned.get(node) ?? 0, span.hi));
    return r;
  }

  /** A file whose saved version must stay its last close under `scope`. */
  private deferred(node: MemInode, scope: CommitScope): Closed | undefined {
    if (scope.all || scope.include.has(node) || !this.dataDirty.has(node) || node.nlink === 0) return undefined;
    return this.open.get(node);
  }

  /**
   * The records of what changed. The journal is clean afterwards but for
   * deferred files (open for writing, outside `scope`): their last closed
   * version is taken instead, and they stay dirty.
   */
  take(scope: CommitScope): { meta: InodeRecord[]; data: DataRecord[]; taken: Taken } {
    const taken: Taken = { meta: [], data: [], closed: [] };
    const root = this.fs.root();
    const meta: InodeRecord[] = [];
    const data: DataRecord[] = [];
    for (const [node, c] of this.open) {
      if (this.deferred(node, scope)) {
        if (!c.dirty || c.fresh) continue;
        taken.closed.push([node, { ...c }]);
        meta.push(c.meta);
        if (c.span) data.push(c.data ? dataRecord(node.ino, c.size, c.data, c.span) : this.live(node, c.size, c.span));
        c.dirty = false;
        c.span = null;
      } else if (this.metaDirty.has(node)) {
        // Saved as it is now: that is the version a crash must keep until its next close.
        taken.closed.push([node, { ...c }]);
        this.open.set(node, { fresh: false, size: node.size, meta: metaRecord(node), dirty: false, span: null, data: null });
      }
    }
    for (const node of this.metaDirty) {
      if (this.deferred(node, scope)) continue;
      this.metaDirty.delete(node);
      this.unclosed.delete(node);
      taken.meta.push(node);
      // An inode with no name left is simply not referenced any more; the loader drops it.
      if (node.nlink > 0 || node === root) meta.push(metaRecord(node));
    }
    for (const [node, span] of this.dataDirty) {
      if (this.deferred(node, scope)) continue;
      this.dataDirty.delete(node);
      taken.data.push([node, span]);
      if (node.nlink === 0 || (node.mode & S_IFMT) !== S_IFREG) continue;
      data.push(this.live(node, node.size, span));
    }
    return { meta, data, taken };
  }

  /** A commit failed: its changes are dirty again (merged with any made since). */
  putBack(t: Taken): void {
    for (const [node, c] of t.closed) {
      if (!this.open.has(node)) continue;
      this.open.set(node, c);
      if (c.fresh) this.unclosed.add(node);
    }
    for (const node of t.meta) this.metaDirty.add(node);
    for (const [node, span] of t.data) this.data(node, span.lo, span.hi);
    if (t.meta.length || t.closed.length) this.onDirty?.();
  }

  /** Every live inode, meta and whole data — deferred files as of their last close: a checkpoint's content. */
  fullState(scope: CommitScope): { meta: InodeRecord[]; data: DataRecord[] } {
    return fullState(this.fs, (node) => this.deferred(node, scope), (node, end) => this.pinned.set(node, end));
  }
}

/** Bytes [lo, hi) of a file of `size` bytes, clamped to it. A view, not a copy: pinned (Journal.live) while a frame refers to it. */
function dataRecord(ino: number, size: number, bytes: Uint8Array, span: Span): DataRecord {
  const hi = Math.min(span.hi, size);
  const lo = Math.min(span.lo, hi);
  return { ino, size, ranges: hi > lo ? [{ offset: lo, bytes: bytes.subarray(lo, hi) }] : [] };
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

/**
 * Every live inode of `fs`, meta and whole data (files `asClosed` names as
 * that version): a checkpoint's content. `pin` is told of each live buffer
 * the records refer to.
 */
export function fullState(
  fs: MemFs,
  asClosed: (node: MemInode) => Closed | undefined = () => undefined,
  pin: (node: MemInode, end: number) => void = () => {},
): { meta: InodeRecord[]; data: DataRecord[] } {
  const meta: InodeRecord[] = [];
  const data: DataRecord[] = [];
  for (const node of fs.walk()) {
    const c = asClosed(node);
    if (c?.fresh) continue; // no version yet: its directory entry is dropped at load
    meta.push(c ? c.meta : metaRecord(node));
    if ((node.mode & S_IFMT) === S_IFREG && node.data) {
      const size = c ? c.size : node.size;
      if (!c?.data) pin(node, size);
      data.push(dataRecord(node.ino, size, c?.data ?? node.data, { lo: 0, hi: size }));
    }
  }
  return { meta, data };
}

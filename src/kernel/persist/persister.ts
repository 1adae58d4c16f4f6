// Write-back persistence of the root's writable layer (decisions 0014, 0033).
//
// The in-memory MemFs stays authoritative; the Journal notes what changed and
// commits go to the LayerStore one at a time. sync() commits and resolves once
// the store says it is durable: the host calls it after every exec, and a
// background commit follows a short quiet period. Files open for writing are
// committed as they were at their last close (journal.ts), so a crash leaves
// every file as one of its closes left it, never half-written — except what a
// process asked for itself: sync(2) commits every file as it is now, fsync(2)
// its own file.
// The journal is folded into a new checkpoint when it outgrows the last one.

import { MemInode, type MemFs } from '../fs/memfs.js';
import { OvlInode } from '../fs/overlay/inode.js';
import type { Inode } from '../vfs/types.js';
import { encodeFramePieces, piecesLength } from './format.js';
import { Journal, type CommitScope } from './journal.js';
import { migrate } from './migrate.js';
import { LayerDamagedError, readLayer } from './read.js';
import { replay } from './replay.js';
import type { StorageEstimate } from '../../api/types.js';
import type { LayerStore, StoredSnapshot } from './store.js';

const QUIET_MS = 100;
/**
 * While an exec runs, whose end commits everything it wrote (the host syncs
 * before the exec returns), background commits only bound what a crash loses
 * of writes nobody was told are durable yet: one a second instead of ten, so
 * a 400 ms shell loop makes one journal frame and one fsync, not five.
 */
const BUSY_MS = 1000;
/** Fold the journal into a checkpoint once it is this large and larger than the checkpoint. */
const MIN_JOURNAL_FOLD = 8 << 20;

export interface LayerInfo {
  where: string;
  /** Frames replayed at open, and whether a torn tail was cut off. */
  replayedFrames: number;
  tornTail: boolean;
  /** The layer was written over another base image and was migrated. */
  migratedFrom: string | null;
}

const EVERYTHING: CommitScope = { all: true, include: new Set() };

export class Persister {
  private journal: Journal;
  private chain: Promise<void> = Promise.resolve();
  /** A commit queued but not started: later sync() calls join it, adding to its scope. */
  private queued: Promise<void> | null = null;
  private queuedAll = false;
  private queuedFiles = new Set<MemInode>();
  /** An append failed, maybe half-written: the next commit rewrites the layer instead. */
  private mustCheckpoint = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Execs running (hold()): their end commits, so background commits wait longer. */
  private held = 0;
  private journalBytes = 0;
  private checkpointBytes = 0;
  private closed = false;
  /** The last store failure, reported to sync callers until a commit succeeds. */
  lastError: Error | null = null;
  /** The store's last usage/quota figures (refreshed at each checkpoint). */
  storage: StorageEstimate | null = null;

  private constructor(
    public fs: MemFs,
    readonly store: LayerStore,
    private readonly imageId: string,
    private seq: number,
    readonly info: LayerInfo,
  ) {
    this.journal = this.watch(fs);
  }

  private watch(fs: MemFs): Journal {
    const j = new Journal(fs);
    fs.observer = j;
    j.onDirty = () => this.arm(this.held ? BUSY_MS : QUIET_MS);
    return j;
  }

  /**
   * The root layer was replaced (a snapshot restore): persist `fs` from now
   * on. Its checkpoint replaces the old layer in one atomic step: the stored
   * snapshot `from` itself where the store can share its bytes (`fs` is that
   * snapshot as stored), else `fs` written whole.
   */
  adopt(fs: MemFs, from?: StoredSnapshot): Promise<void> {
    // At once, so no change to the old layer is journalled from here on; the
    // checkpoint joins the chain, so a sync or close made after this waits for it.
    this.fs.observer = null;
    this.fs = fs;
    this.journal = this.watch(fs);
    const run = this.chain.then(async () => {
      if (from && await this.store.checkpointFromSnapshot?.(from.snapshot)) {
        this.seq = from.seq;
        this.checkpointBytes = from.bytes;
        this.journalBytes = 0;
        this.mustCheckpoint = false;
        this.lastError = null;
        await this.budget();
      } else await this.writeCheckpoint(EVERYTHING);
    });
    this.chain = run.catch(() => {});
    this.queued = null; // a sync from now on comes after the checkpoint
    return run;
  }

  /**
   * The layer may hold what it holds plus half the store's free space: a
   * checkpoint fold briefly needs the journal and the new checkpoint at once.
   * Writes past that fail with ENOSPC when made, not at the next commit.
   */
  private async budget(): Promise<void> {
    const est = await this.store.estimate().catch(() => null);
    this.storage = est;
    if (est) this.fs.setStorageLimit(this.fs.bytesUsed + Math.floor(Math.max(0, est.quota - est.usage) / 2));
  }

  /**
   * Load the layer from `store` into a fresh MemFs (created by `makeFs`) and
   * start persisting it. A damaged layer is refused (LayerDamagedError) and
   * left as it is: repair.ts decides what to keep.
   */
  static async open(store: LayerStore, imageId: string, makeFs: () => MemFs): Promise<Persister> {
    const bytes = await store.load();
    const layer = readLayer(bytes);
    if (layer.damage) throw new LayerDamagedError(layer.damage, store);
    const fs = makeFs();
    const state = replay(layer.commits);
    let migratedFrom: string | null = null;
    if (state.records.size) {
      if (state.imageId !== imageId) {
        migratedFrom = state.imageId;
        migrate(state.records);
      }
      fs.importTree(state.records, state.nextIno);
    }
    const info = { where: store.where, replayedFrames: layer.journalFrames, tornTail: layer.torn, migratedFrom };
    const p = new Persister(fs, store, imageId, state.seq, info);
    p.checkpointBytes = bytes.checkpoint?.length ?? 0;
    p.journalBytes = layer.journalBytes;
    // A new, migrated, torn or schema 1 layer starts from a clean checkpoint.
    if (!bytes.checkpoint || migratedFrom !== null || layer.torn || layer.legacy) await p.writeCheckpoint(EVERYTHING);
    else await p.budget();
    return p;
  }

  /**
   * Commit what changed so far; resolves when it is durable. Files open for
   * writing go in as of their last close, unless `all` (sync(2)) or `file`
   * names one (fsync(2) of it).
   */
  sync(opts: { all?: boolean; file?: Inode } = {}): Promise<void> {
    if (this.closed) return Promise.reject(new Error('layer closed'));
    if (opts.all) this.queuedAll = true;
    const file = opts.file instanceof OvlInode ? opts.file.upper : opts.file;
    if (file instanceof MemInode && file.fs === this.fs) this.queuedFiles.add(file);
    if (!this.queued) {
      const run: Promise<void> = this.chain.then(() => {
        const scope: CommitScope = { all: this.queuedAll, include: this.queuedFiles };
        // A commit queued before a snapshot restore (adopt) leaves what was asked since to the one queued after it.
        if (this.queued === run) {
          this.queued = null;
          this.queuedAll = false;
          this.queuedFiles = new Set();
        }
        return this.commit(scope);
      });
      this.queued = run;
      this.chain = run.catch(() => {});
    }
    return this.queued;
  }

  /**
   * An exec has started whose end will sync(): until the returned function is
   * called, background commits come at most once a second (BUSY_MS).
   */
  hold(): () => void {
    if (this.held++ === 0) this.rearm(BUSY_MS);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      // Writes made after the last exec (background jobs, a terminal) are back to the short wait.
      if (--this.held === 0) this.rearm(QUIET_MS);
    };
  }

  /** A pending background commit waits `ms` from now instead. */
  private rearm(ms: number): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.arm(ms);
  }

  get dirty(): boolean {
    return this.journal.dirty;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.sync({ all: true });
    } finally {
      this.closed = true;
      if (this.timer) clearTimeout(this.timer);
      this.fs.observer = null;
      await this.store.close();
    }
  }

  private arm(ms: number): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.background();
    }, ms);
  }

  private background(): void {
    if (!this.journal.dirty || this.closed) return;
    this.sync().catch(() => this.arm(1000)); // lastError tells the next sync caller
  }

  private async commit(scope: CommitScope): Promise<void> {
    if (!this.journal.dirty) return;
    if (this.mustCheckpoint || (this.journalBytes > MIN_JOURNAL_FOLD && this.journalBytes > this.checkpointBytes)) {
      const { taken } = this.journal.take(scope);
      try {
        await this.writeCheckpoint(scope);
      } catch (e) {
        this.journal.putBack(taken);
        throw this.failed(e);
      }
      return;
    }
    const { meta, data, taken } = this.journal.take(scope);
    if (!meta.length && !data.length) return; // only files still being written, already saved as of their last close
    const frame = encodeFramePieces({ seq: this.seq + 1, imageId: this.imageId, meta, data });
    try {
      await this.store.append(frame);
    } catch (e) {
      this.journal.putBack(taken);
      this.mustCheckpoint = true;
      throw this.failed(e);
    } finally {
      this.journal.release();
    }
    this.seq++;
    this.journalBytes += piecesLength(frame);
    this.lastError = null;
  }

  private async writeCheckpoint(scope: CommitScope): Promise<void> {
    const journal = this.journal;
    const frame = encodeFramePieces({ seq: this.seq + 1, imageId: this.imageId, ...journal.fullState(scope) });
    try {
      await this.store.checkpoint(frame);
    } finally {
      journal.release();
    }
    this.seq++;
    this.checkpointBytes = piecesLength(frame);
    this.journalBytes = 0;
    this.mustCheckpoint = false;
    this.lastError = null;
    await this.budget();
  }

  private failed(e: unknown): Error {
    this.lastError = e instanceof Error ? e : new Error(String(e));
    return this.lastError;
  }
}

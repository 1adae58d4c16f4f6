// Write-back persistence of the root's writable layer (docs/decisions/0014).
//
// The in-memory MemFs stays authoritative; the Journal notes what changed and
// commits go to the LayerStore one at a time:
//  - sync() (the `sync`/`fsync` syscalls, and the host after every exec)
//    commits everything and resolves once the store says it is durable;
//  - in the background, a commit follows a short quiet period, but only while
//    no file is open for writing, so a crash leaves each file as it was at a
//    close (old or new content, never half-written) — unless a writer stays
//    open past MAX_DEFER_MS, when its bytes so far are saved anyway.
// The journal is folded into a new checkpoint when it outgrows the last one.

import type { MemFs } from '../fs/memfs.js';
import { decodeFrames, encodeFrame, LayerFormatError } from './format.js';
import { fullState, Journal } from './journal.js';
import { migrate } from './migrate.js';
import { replay } from './replay.js';
import type { LayerStore, StorageEstimate } from './store.js';

const QUIET_MS = 100;
const MAX_DEFER_MS = 5000;
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

export class Persister {
  private journal: Journal;
  private chain: Promise<void> = Promise.resolve();
  /** A full commit queued but not started: later sync() calls join it. */
  private queued: Promise<void> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
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
    j.onDirty = () => this.arm(QUIET_MS);
    return j;
  }

  /**
   * The root layer was replaced (a snapshot restore): persist `fs` from now
   * on. Its checkpoint replaces the old layer in one atomic step.
   */
  async adopt(fs: MemFs): Promise<void> {
    await this.chain;
    this.fs.observer = null;
    this.fs = fs;
    this.journal = this.watch(fs);
    await this.writeCheckpoint();
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

  /** Load the layer from `store` into a fresh MemFs (created by `makeFs`) and start persisting it. */
  static async open(store: LayerStore, imageId: string, makeFs: () => MemFs): Promise<Persister> {
    const bytes = await store.load();
    const commits = [];
    if (bytes.checkpoint) {
      const cp = decodeFrames(bytes.checkpoint);
      if (cp.commits.length !== 1 || cp.validBytes !== bytes.checkpoint.length) {
        throw new LayerFormatError(`the layer's checkpoint in ${store.where} is damaged`);
      }
      commits.push(cp.commits[0]);
    }
    const j = decodeFrames(bytes.journal);
    const after = commits.length ? commits[0].seq : -1;
    commits.push(...j.commits.filter((c) => c.seq > after));
    const fs = makeFs();
    const state = replay(commits);
    let migratedFrom: string | null = null;
    if (state.records.size) {
      if (state.imageId !== imageId) {
        migratedFrom = state.imageId;
        migrate(state.records);
      }
      fs.importTree(state.records, state.nextIno);
    }
    const info = { where: store.where, replayedFrames: j.commits.length, tornTail: j.validBytes !== bytes.journal.length, migratedFrom };
    const p = new Persister(fs, store, imageId, state.seq, info);
    p.checkpointBytes = bytes.checkpoint?.length ?? 0;
    p.journalBytes = j.validBytes;
    // A new, migrated or torn layer starts from a clean checkpoint.
    if (!bytes.checkpoint || migratedFrom !== null || info.tornTail) await p.writeCheckpoint();
    else await p.budget();
    return p;
  }

  /** Commit everything changed so far; resolves when it is durable. */
  sync(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('layer closed'));
    if (!this.queued) {
      const run = this.chain.then(() => {
        this.queued = null;
        return this.commit();
      });
      this.queued = run;
      this.chain = run.catch(() => {});
    }
    return this.queued;
  }

  get dirty(): boolean {
    return this.journal.dirty;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.sync();
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
    const waited = Date.now() - this.journal.dirtySinceMs;
    if (this.journal.openWriters && waited < MAX_DEFER_MS) return this.arm(QUIET_MS);
    this.sync().catch(() => this.arm(1000)); // lastError tells the next sync caller
  }

  private async commit(): Promise<void> {
    if (!this.journal.dirty) return;
    if (this.journalBytes > MIN_JOURNAL_FOLD && this.journalBytes > this.checkpointBytes) {
      const { taken } = this.journal.take();
      try {
        await this.writeCheckpoint();
      } catch (e) {
        this.journal.putBack(taken);
        throw this.failed(e);
      }
      return;
    }
    const { meta, data, taken } = this.journal.take();
    const frame = encodeFrame({ seq: this.seq + 1, imageId: this.imageId, meta, data });
    try {
      await this.store.append(frame);
    } catch (e) {
      this.journal.putBack(taken);
      throw this.failed(e);
    }
    this.seq++;
    this.journalBytes += frame.length;
    this.lastError = null;
  }

  private async writeCheckpoint(): Promise<void> {
    const frame = encodeFrame({ seq: this.seq + 1, imageId: this.imageId, ...fullState(this.fs) });
    await this.store.checkpoint(frame);
    this.seq++;
    this.checkpointBytes = frame.length;
    this.journalBytes = 0;
    this.lastError = null;
    await this.budget();
  }

  private failed(e: unknown): Error {
    this.lastError = e instanceof Error ? e : new Error(String(e));
    return this.lastError;
  }
}

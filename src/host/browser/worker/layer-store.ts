// A persistent layer in IndexedDB (browser): the kernel's LayerStore, run in
// the kernel worker. One database per named VM, one object store, via
// idb-keyval (docs/decisions/0014), with transactions opened `strict` so a
// commit is on disk, not just in the browser's write cache, when it resolves.
//
//   key 'checkpoint'        the checkpoint frame, or { snap: name } after a
//                           restore: that snapshot's frame is the checkpoint
//   key <number>            journal frames, in key order
//   key 'snap:<name>'       { frame, mtimeMs } of a named snapshot
//   key 'damaged:<time>'    { checkpoint, journal } as they were before a repair
//
// A restore shares the snapshot's bytes instead of copying them (copy on
// write): only replacing or deleting the snapshot the checkpoint names
// copies its frame to 'checkpoint' first, in the same transaction.

import { get, keys, promisifyRequest, type UseStore } from 'idb-keyval';
import type { StorageEstimate } from '../../../api/types.js';
import { joinPieces } from '../../../kernel/persist/format.js';
import type { LayerBytes, LayerStore } from '../../../kernel/persist/store.js';

const CHECKPOINT = 'checkpoint';
const SNAP = 'snap:';
const DAMAGED = 'damaged:';
const JOURNAL = IDBKeyRange.bound(-Infinity, Infinity);

/** The checkpoint as stored: a frame, or the name of the snapshot that is it. */
type StoredCheckpoint = Uint8Array | { snap: string };
interface StoredSnapshot {
  frame: Uint8Array;
  mtimeMs: number;
}

export const databaseName = (vm: string): string => `agentos-vm:${vm}`;

function strictStore(dbName: string, storeName: string): UseStore {
  const open = indexedDB.open(dbName);
  open.onupgradeneeded = () => open.result.createObjectStore(storeName);
  const db = promisifyRequest(open);
  return (mode, callback) =>
    db.then((d) => callback(d.transaction(storeName, mode, { durability: 'strict' }).objectStore(storeName)));
}

export class IdbLayerStore implements LayerStore {
  readonly where: string;
  readonly repairHint: string;
  private readonly store: UseStore;
  private nextKey = 0;
  /** The journal as loaded: each frame's key and where it starts in the concatenated bytes. */
  private frames: { key: number; offset: number }[] = [];
  /** Where the checkpoint as loaded lives ('checkpoint', or the snapshot it names). */
  private checkpointKey = CHECKPOINT;

  constructor(vm: string) {
    this.where = `IndexedDB database '${databaseName(vm)}'`;
    this.repairHint = `AgentVM.repair(${JSON.stringify(vm)}) in this origin`;
    this.store = strictStore(databaseName(vm), 'layer');
  }

  locate(part: 'checkpoint' | 'journal', offset: number): string {
    if (part === 'checkpoint') return `${this.where}, key '${this.checkpointKey}', at byte ${offset}`;
    const f = this.frames.findLast((x) => x.offset <= offset);
    return f ? `${this.where}, journal key ${f.key}, at byte ${offset - f.offset} (byte ${offset} of the journal)` : `${this.where}, journal byte ${offset}`;
  }

  async keepDamaged(): Promise<string> {
    const bytes = await this.load();
    const key = DAMAGED + new Date().toISOString();
    await this.store('readwrite', (s) => {
      s.put({ checkpoint: bytes.checkpoint, journal: bytes.journal }, key);
      return promisifyRequest(s.transaction);
    }).catch((e: unknown) => {
      throw quotaMessage(e);
    });
    return `${this.where}, key '${key}'`;
  }

  /** The origin's usage and quota (every VM and cache of the origin shares them). */
  async estimate(): Promise<StorageEstimate | null> {
    const e = await navigator.storage?.estimate?.();
    return e?.quota === undefined ? null : { usage: e.usage ?? 0, quota: e.quota };
  }

  async load(): Promise<LayerBytes> {
    return this.store('readonly', async (s) => {
      const [stored, frames, keys] = await Promise.all([
        promisifyRequest(s.get(CHECKPOINT)) as Promise<StoredCheckpoint | undefined>,
        promisifyRequest(s.getAll(JOURNAL)) as Promise<Uint8Array[]>,
        promisifyRequest(s.getAllKeys(JOURNAL)) as Promise<number[]>,
      ]);
      const checkpoint = await resolveCheckpoint(s, stored);
      this.checkpointKey = stored && !(stored instanceof Uint8Array) ? SNAP + stored.snap : CHECKPOINT;
      this.nextKey = keys.length ? keys[keys.length - 1] + 1 : 0;
      const journal = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
      this.frames = [];
      let at = 0;
      frames.forEach((f, i) => {
        this.frames.push({ key: keys[i], offset: at });
        journal.set(f, at);
        at += f.length;
      });
      return { checkpoint, journal };
    });
  }

  append(frame: readonly Uint8Array[]): Promise<void> {
    const key = this.nextKey++;
    // One value, one transaction (strict: on disk when it completes); joined
    // here, as structured cloning would copy the pieces anyway.
    const bytes = joinPieces(frame);
    return this.store('readwrite', (s) => {
      s.put(bytes, key);
      return promisifyRequest(s.transaction);
    }).catch((e: unknown) => {
      throw quotaMessage(e);
    });
  }

  checkpoint(frame: readonly Uint8Array[]): Promise<void> {
    const bytes = joinPieces(frame);
    return this.store('readwrite', (s) => {
      s.put(bytes, CHECKPOINT);
      s.delete(JOURNAL);
      return promisifyRequest(s.transaction);
    }).catch((e: unknown) => {
      throw quotaMessage(e);
    });
  }

  /** The snapshot becomes the checkpoint by name, with an empty journal: one transaction, no bytes copied. */
  checkpointFromSnapshot(name: string): Promise<boolean> {
    return this.store('readwrite', async (s) => {
      if ((await promisifyRequest(s.getKey(SNAP + name))) === undefined) return false;
      s.put({ snap: name } satisfies StoredCheckpoint, CHECKPOINT);
      s.delete(JOURNAL);
      await promisifyRequest(s.transaction);
      return true;
    }).catch((e: unknown) => {
      throw quotaMessage(e);
    });
  }

  saveSnapshot(name: string, frame: Uint8Array): Promise<void> {
    return this.store('readwrite', async (s) => {
      await this.unshare(s, name);
      s.put({ frame, mtimeMs: Date.now() } satisfies StoredSnapshot, SNAP + name);
      return promisifyRequest(s.transaction);
    }).catch((e: unknown) => {
      throw quotaMessage(e);
    });
  }

  /** Before snapshot `name` is replaced or deleted: if it is the checkpoint, the checkpoint gets its own copy. */
  private async unshare(s: IDBObjectStore, name: string): Promise<void> {
    const stored = (await promisifyRequest(s.get(CHECKPOINT))) as StoredCheckpoint | undefined;
    if (!stored || stored instanceof Uint8Array || stored.snap !== name) return;
    const snap = (await promisifyRequest(s.get(SNAP + name))) as StoredSnapshot | undefined;
    if (snap) s.put(snap.frame, CHECKPOINT);
  }

  async loadSnapshot(name: string): Promise<Uint8Array | null> {
    const v = await get<{ frame: Uint8Array }>(SNAP + name, this.store);
    return v?.frame ?? null;
  }

  async listSnapshots(): Promise<{ name: string; bytes: number; mtimeMs: number }[]> {
    const out = [];
    for (const k of await keys(this.store)) {
      if (typeof k !== 'string' || !k.startsWith(SNAP)) continue;
      const v = await get<{ frame: Uint8Array; mtimeMs: number }>(k, this.store);
      if (v) out.push({ name: k.slice(SNAP.length), bytes: v.frame.length, mtimeMs: v.mtimeMs });
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  deleteSnapshot(name: string): Promise<boolean> {
    return this.store('readwrite', async (s) => {
      if ((await promisifyRequest(s.getKey(SNAP + name))) === undefined) return false;
      await this.unshare(s, name);
      s.delete(SNAP + name);
      await promisifyRequest(s.transaction);
      return true;
    }).catch((e: unknown) => {
      throw quotaMessage(e);
    });
  }

  async close(): Promise<void> {
    // Nothing buffered: every write above completed in its own transaction.
  }
}

/** The checkpoint's frame: stored, or the snapshot it names (which unshare() keeps while named). */
async function resolveCheckpoint(s: IDBObjectStore, stored: StoredCheckpoint | undefined): Promise<Uint8Array | null> {
  if (!stored) return null;
  if (stored instanceof Uint8Array) return stored;
  const snap = (await promisifyRequest(s.get(SNAP + stored.snap))) as StoredSnapshot | undefined;
  if (!snap) throw new Error(`the layer's checkpoint is snapshot '${stored.snap}', which is missing from the database`);
  return snap.frame;
}

/** IndexedDB's quota error, said the way a full disk would be. */
function quotaMessage(e: unknown): Error {
  const name = (e as DOMException)?.name;
  if (name === 'QuotaExceededError') {
    return Object.assign(new Error('No space left on device (the browser storage quota is full)'), { code: 'ENOSPC' });
  }
  return e instanceof Error ? e : new Error(String(e));
}

// A persistent layer in IndexedDB (browser): the kernel's LayerStore, run in
// the kernel worker. One database per named VM, one object store, via
// idb-keyval (docs/decisions/0014), with transactions opened `strict` so a
// commit is on disk, not just in the browser's write cache, when it resolves.
//
//   key 'checkpoint'        the checkpoint frame
//   key <number>            journal frames, in key order
//   key 'snap:<name>'       { frame, mtimeMs } of a named snapshot
//   key 'damaged:<time>'    { checkpoint, journal } as they were before a repair

import { del, get, keys, promisifyRequest, type UseStore } from 'idb-keyval';
import type { StorageEstimate } from '../../../api/types.js';
import { joinPieces } from '../../../kernel/persist/format.js';
import type { LayerBytes, LayerStore } from '../../../kernel/persist/store.js';

const CHECKPOINT = 'checkpoint';
const SNAP = 'snap:';
const DAMAGED = 'damaged:';
const JOURNAL = IDBKeyRange.bound(-Infinity, Infinity);

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

  constructor(vm: string) {
    this.where = `IndexedDB database '${databaseName(vm)}'`;
    this.repairHint = `AgentVM.repair(${JSON.stringify(vm)}) in this origin`;
    this.store = strictStore(databaseName(vm), 'layer');
  }

  locate(part: 'checkpoint' | 'journal', offset: number): string {
    if (part === 'checkpoint') return `${this.where}, key '${CHECKPOINT}', at byte ${offset}`;
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
      const [checkpoint, frames, keys] = await Promise.all([
        promisifyRequest(s.get(CHECKPOINT)) as Promise<Uint8Array | undefined>,
        promisifyRequest(s.getAll(JOURNAL)) as Promise<Uint8Array[]>,
        promisifyRequest(s.getAllKeys(JOURNAL)) as Promise<number[]>,
      ]);
      this.nextKey = keys.length ? keys[keys.length - 1] + 1 : 0;
      const journal = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
      this.frames = [];
      let at = 0;
      frames.forEach((f, i) => {
        this.frames.push({ key: keys[i], offset: at });
        journal.set(f, at);
        at += f.length;
      });
      return { checkpoint: checkpoint ?? null, journal };
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

  saveSnapshot(name: string, frame: Uint8Array): Promise<void> {
    return this.store('readwrite', (s) => {
      s.put({ frame, mtimeMs: Date.now() }, SNAP + name);
      return promisifyRequest(s.transaction);
    }).catch((e: unknown) => {
      throw quotaMessage(e);
    });
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

  async deleteSnapshot(name: string): Promise<boolean> {
    if ((await get(SNAP + name, this.store)) === undefined) return false;
    await del(SNAP + name, this.store);
    return true;
  }


  async close(): Promise<void> {
    // Nothing buffered: every write above completed in its own transaction.
  }
}

/** IndexedDB's quota error, said the way a full disk would be. */
function quotaMessage(e: unknown): Error {
  const name = (e as DOMException)?.name;
  if (name === 'QuotaExceededError') {
    return Object.assign(new Error('No space left on device (the browser storage quota is full)'), { code: 'ENOSPC' });
  }
  return e instanceof Error ? e : new Error(String(e));
}

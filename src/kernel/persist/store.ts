// Where a persistent layer's bytes live. The kernel only sees this interface;
// the hosts implement it (a host directory in Node, IndexedDB in the browser),
// because the kernel itself may not touch Node or DOM APIs.

import type { SnapshotInfo, StorageEstimate } from '../../api/types.js';

/**
 * A layer as read from its store: bytes the caller owns (read for this call,
 * shared with nothing), since the layer opened from them keeps the
 * checkpoint's file data in place (format.ts decodePayload).
 */
export interface LayerBytes {
  /** The last checkpoint frame, or null for a layer never written. */
  checkpoint: Uint8Array | null;
  /** Journal frames written after it, concatenated in order (may end torn). */
  journal: Uint8Array;
}

export interface LayerStore extends SnapshotStore {
  /** A short description for messages ("host directory /x", "IndexedDB vm 'a'"). */
  readonly where: string;
  /** How the user repairs a damaged layer here (a command or a call), for messages. */
  readonly repairHint: string;
  load(): Promise<LayerBytes>;
  /** Byte `offset` of the checkpoint or journal as loaded, said so the user can find it ("/x/layer.journal at byte 12"). */
  locate(part: 'checkpoint' | 'journal', offset: number): string;
  /** Keep copies of the checkpoint and journal as they are now beside the layer (before a repair); returns where. */
  keepDamaged(): Promise<string>;
  /**
   * Append one frame, given as its pieces end to end (format.ts), to the
   * journal; durable when the promise resolves. Large pieces are live file
   * buffers, unchanged until then (journal.ts pins them): write them, keep no reference.
   */
  append(frame: readonly Uint8Array[]): Promise<void>;
  /**
   * Atomically make `frame` (pieces, as append's) the checkpoint and empty the
   * journal (also how a torn journal tail is dropped: frames are never written after garbage).
   */
  checkpoint(frame: readonly Uint8Array[]): Promise<void>;
  /**
   * Optional: atomically make snapshot `name`, as stored, the checkpoint and
   * empty the journal, sharing its bytes rather than copying them (a crash
   * leaves the old layer or this one). False if there is no such snapshot.
   */
  checkpointFromSnapshot?(name: string): Promise<boolean>;
  /** Bytes the store uses and may use in all (a disk's or an origin's quota); null if unknown. */
  estimate(): Promise<StorageEstimate | null>;
  close(): Promise<void>;
}

/** A snapshot as stored, that a restored layer is: its name, its frame's sequence number and length. */
export interface StoredSnapshot {
  snapshot: string;
  seq: number;
  bytes: number;
}

/** Named snapshots: whole-layer checkpoint frames kept beside the layer. */
export interface SnapshotStore {
  saveSnapshot(name: string, frame: Uint8Array): Promise<void>;
  /** A copy the caller owns (a restore keeps its file data in place). */
  loadSnapshot(name: string): Promise<Uint8Array | null>;
  listSnapshots(): Promise<SnapshotInfo[]>;
  deleteSnapshot(name: string): Promise<boolean>;
}

/** Where a VM without a persistent layer keeps its snapshots. */
export class MemorySnapshots implements SnapshotStore {
  private readonly snaps = new Map<string, { frame: Uint8Array; mtimeMs: number }>();

  async saveSnapshot(name: string, frame: Uint8Array): Promise<void> {
    this.snaps.set(name, { frame, mtimeMs: Date.now() });
  }

  /** A copy, as a store on disk gives: the host's export transfers what it gets (and would detach the kept one). */
  async loadSnapshot(name: string): Promise<Uint8Array | null> {
    return this.snaps.get(name)?.frame.slice() ?? null;
  }

  async listSnapshots(): Promise<SnapshotInfo[]> {
    return [...this.snaps].map(([name, s]) => ({ name, bytes: s.frame.length, mtimeMs: s.mtimeMs })).sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  async deleteSnapshot(name: string): Promise<boolean> {
    return this.snaps.delete(name);
  }
}

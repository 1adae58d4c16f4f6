// Where a persistent layer's bytes live. The kernel only sees this interface;
// the hosts implement it (a host directory in Node, IndexedDB in the browser),
// because the kernel itself may not touch Node or DOM APIs.

export interface LayerBytes {
  /** The last checkpoint frame, or null for a layer never written. */
  checkpoint: Uint8Array | null;
  /** Journal frames written after it, concatenated in order (may end torn). */
  journal: Uint8Array;
}

export interface LayerStore {
  /** A short description for messages ("host directory /x", "IndexedDB vm 'a'"). */
  readonly where: string;
  load(): Promise<LayerBytes>;
  /** Append one frame to the journal; durable when the promise resolves. */
  append(frame: Uint8Array): Promise<void>;
  /**
   * Atomically make `frame` the checkpoint and empty the journal (also how a
   * torn journal tail is dropped: frames are never written after garbage).
   */
  checkpoint(frame: Uint8Array): Promise<void>;
  /** Named snapshots: whole-layer checkpoint frames kept beside the layer. */
  saveSnapshot(name: string, frame: Uint8Array): Promise<void>;
  loadSnapshot(name: string): Promise<Uint8Array | null>;
  listSnapshots(): Promise<{ name: string; bytes: number; mtimeMs: number }[]>;
  deleteSnapshot(name: string): Promise<boolean>;
  /** Bytes the layer occupies (checkpoint + journal + snapshots). */
  usage(): Promise<number>;
  close(): Promise<void>;
}

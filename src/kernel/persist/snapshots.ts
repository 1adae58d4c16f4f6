// Named snapshots of the root's writable layer: a snapshot is the layer's
// whole diff against the base image, as one checkpoint frame (format.ts) —
// which is also the portable export format. A persistent VM keeps them in its
// layer's store; an ephemeral one in memory. Restore swaps the layer atomically.

import { Errno, SysError } from '../../abi/errno.js';
import { S_IFBLK, S_IFCHR, S_IFDIR, S_IFIFO, S_IFLNK, S_IFMT, S_IFREG, S_IFSOCK } from '../../abi/stat.js';
import { MemFs } from '../fs/memfs.js';
import { OverlayFs } from '../fs/overlayfs.js';
import { encodeFrame, LayerFormatError, type DataRecord } from './format.js';
import type { InodeRecord } from '../fs/memfs.js';
import { fullState } from './journal.js';
import { migrate } from './migrate.js';
import { replay } from './replay.js';
import { scanFrames } from './scan.js';
import type { SnapshotInfo } from '../../api/types.js';
import type { SnapshotStore, StoredSnapshot } from './store.js';

/** A restore asked for from inside the VM: that process, and what it is told as it ends. */
export interface RestoreCaller {
  pid: number;
  note: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkSnapshotName(name: string): void {
  if (!NAME.test(name)) {
    throw new SysError(Errno.EINVAL, `invalid snapshot name '${name}' (letters, digits, '.', '_', '-'; at most 64)`);
  }
}

export class Snapshots {
  constructor(
    private readonly root: () => OverlayFs,
    private readonly store: SnapshotStore,
    private readonly imageId: string,
    /** Swap the root's upper layer for `upper` (the kernel stops every process first; `caller` is the guest that asked). */
    private readonly swap: (upper: MemFs, caller?: RestoreCaller, from?: StoredSnapshot) => Promise<void>,
  ) {}

  /** The current layer as a snapshot frame. */
  frame(): Uint8Array {
    return this.frameOf(fullState(this.root().upper));
  }

  /** A snapshot frame of these records (a whole layer over the current image). */
  frameOf(state: { meta: InodeRecord[]; data: DataRecord[] }): Uint8Array {
    return encodeFrame({ seq: 0, imageId: this.imageId, meta: state.meta, data: state.data });
  }

  /** A snapshot file as a scratch overlay over the base image, seen by nothing else. */
  open(file: Uint8Array): OverlayFs {
    return new OverlayFs(this.root().lower, layerFromFrame(file, this.imageId));
  }

  async exists(name: string): Promise<boolean> {
    checkSnapshotName(name);
    return (await this.store.listSnapshots()).some((s) => s.name === name);
  }

  async create(name: string): Promise<SnapshotInfo> {
    checkSnapshotName(name);
    return this.save(name, this.frame());
  }

  list(): Promise<SnapshotInfo[]> {
    return this.store.listSnapshots();
  }

  async delete(name: string): Promise<void> {
    checkSnapshotName(name);
    if (!(await this.store.deleteSnapshot(name))) throw new SysError(Errno.ENOENT, `no snapshot '${name}'`);
  }

  /** The portable file of a snapshot. */
  async export(name: string): Promise<Uint8Array> {
    checkSnapshotName(name);
    const frame = await this.store.loadSnapshot(name);
    if (!frame) throw new SysError(Errno.ENOENT, `no snapshot '${name}'`);
    return frame;
  }

  /** Store an exported file under `name`, after checking it is a whole, readable layer. */
  async import(name: string, file: Uint8Array): Promise<SnapshotInfo> {
    checkSnapshotName(name);
    decodeSnapshot(file);
    return this.save(name, file);
  }

  /** Make the snapshot the current layer. Every process is stopped; the layer switch is atomic. */
  async restore(name: string, caller?: RestoreCaller): Promise<void> {
    const file = await this.export(name);
    // The store's copy is read for this restore alone: it becomes the files' storage (no copy).
    const state = decodeSnapshot(file, true);
    // The stored file can be the new checkpoint as it is when it needs no migration (persister.ts).
    const asStored = state.imageId === this.imageId && Number.isSafeInteger(state.seq) && state.seq >= 0;
    await this.swap(layerOf(state, this.imageId), caller, asStored ? { snapshot: name, seq: state.seq, bytes: file.length } : undefined);
  }

  private async save(name: string, frame: Uint8Array): Promise<SnapshotInfo> {
    await this.store.saveSnapshot(name, frame);
    return { name, bytes: frame.length, mtimeMs: Date.now() };
  }
}

/** A writable layer built from a snapshot frame (migrated if it was written over another image). */
export function layerFromFrame(file: Uint8Array, imageId: string): MemFs {
  return layerOf(decodeSnapshot(file), imageId);
}

function layerOf(state: ReturnType<typeof replay>, imageId: string): MemFs {
  const upper = new MemFs();
  if (state.imageId !== imageId) migrate(state.records);
  upper.importTree(state.records, state.nextIno);
  return upper;
}

/** With `share`, the files' data are views of `file`, which the caller gives away. */
function decodeSnapshot(file: Uint8Array, share = false): ReturnType<typeof replay> {
  let state;
  try {
    const { frames, validBytes, damage } = scanFrames(file, -Infinity, share);
    if (frames.length !== 1 || validBytes !== file.length) throw new LayerFormatError(damage ? `damaged at byte ${damage.offset} (${damage.reason})` : 'truncated or damaged');
    // A snapshot holds every byte of its files: a size beyond the file itself is crafted (and would be allocated).
    for (const d of frames[0].commit.data) {
      const ok = Number.isInteger(d.size) && d.size >= 0 && d.size <= file.length
        && d.ranges.every((r) => Number.isInteger(r.offset) && r.offset >= 0 && r.offset + r.bytes.length <= d.size);
      if (!ok) throw new LayerFormatError(`inode ${d.ino}: bad file size or range`);
    }
    state = replay([frames[0].commit]);
  } catch (e) {
    throw new SysError(Errno.EINVAL, `not an agentOS snapshot: ${(e as Error).message}`);
  }
  if (!state.records.has(1)) throw new SysError(Errno.EINVAL, 'not an agentOS snapshot: no root directory');
  for (const r of state.records.values()) checkRecord(r);
  return state;
}

const TYPES = new Set([S_IFREG, S_IFDIR, S_IFLNK, S_IFCHR, S_IFBLK, S_IFIFO, S_IFSOCK]);

/** A file from elsewhere may be crafted: only what a VM could have written is loaded. */
function checkRecord(r: InodeRecord): void {
  const bad = (why: string) => new SysError(Errno.EINVAL, `not an agentOS snapshot: inode ${r.ino}: ${why}`);
  if (!TYPES.has(r.mode & S_IFMT)) throw bad(`unknown file type ${(r.mode & S_IFMT).toString(8)}`);
  if (!r.entries) return;
  const names = new Set<string>();
  for (const [name] of r.entries) {
    if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0') || names.has(name)) {
      throw bad(`bad name '${name}'`);
    }
    names.add(name);
  }
}

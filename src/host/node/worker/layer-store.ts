// A persistent layer in a host directory (Node): the kernel's LayerStore.
//
//   DIR/layer.ckpt         the checkpoint frame (replaced by write-temp + fsync + rename)
//   DIR/layer.journal      frames appended after it (write + fdatasync per commit)
//   DIR/snapshots/N.aosnap named snapshots (checkpoint frames), replaced the same way
//   DIR/CURRENT            after a snapshot restore: a symbolic link whose text is
//                          the name P of the pair (never followed; a symlink is
//                          written with its directory entry: one fsync, of DIR)
//   DIR/P.ckpt, DIR/P.journal  in use instead of layer.*: P.ckpt is a hard link
//                          to the snapshot's file (no byte copied). Files are only
//                          ever replaced by rename, never written in place, so the
//                          snapshot and the layer share the bytes until one is
//                          replaced (copy on write). Renaming CURRENT into place
//                          switches checkpoint and journal together; a later
//                          checkpoint goes back to layer.* and removes CURRENT.
//   DIR/damaged-<time>/    copies of a damaged checkpoint and journal, made by a repair
//
// Runs in the kernel worker. Locking against a second VM on the same
// directory is the host's (dir-lock.ts), taken before the worker starts.

import { constants } from 'node:fs';
import { copyFile, link, mkdir, open, readdir, readlink, rename, rm, stat, statfs, symlink, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 as zlibCrc32 } from 'node:zlib';
import type { StorageEstimate } from '../../../api/types.js';
import { useNativeCrc32 } from '../../../kernel/persist/checksum.js';
import type { LayerBytes, LayerStore } from '../../../kernel/persist/store.js';

const SNAP_EXT = '.aosnap';
const DEFAULT_PAIR = 'layer';
const PAIR = /^restored-[0-9a-z]+$/;

export class DirLayerStore implements LayerStore {
  readonly where: string;
  readonly repairHint: string;
  private journal: FileHandle | null = null;
  /** The checkpoint and journal in use: DIR/<pair>.ckpt and DIR/<pair>.journal. */
  private pair = DEFAULT_PAIR;

  constructor(private readonly dir: string) {
    // Every frame written or read is checksummed whole: zlib's CRC-32 (the
    // same function) runs in native code, 5-20x the JavaScript one on large frames.
    useNativeCrc32(zlibCrc32);
    this.where = `host directory ${dir}`;
    this.repairHint = `agentos repair --state ${dir} (or, from Node, AgentVM.repair(${JSON.stringify(dir)}))`;
  }

  locate(part: 'checkpoint' | 'journal', offset: number): string {
    return `${this.path(part === 'checkpoint' ? this.ckptName : this.journalName)} at byte ${offset}`;
  }

  async keepDamaged(): Promise<string> {
    const kept = this.path(`damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    await mkdir(kept);
    for (const [from, name] of [[this.ckptName, 'layer.ckpt'], [this.journalName, 'layer.journal']]) {
      try {
        await copyFile(this.path(from), join(kept, name));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        continue;
      }
      await syncFile(join(kept, name));
    }
    await syncDir(kept);
    await syncDir(this.dir);
    return kept;
  }

  private path(name: string): string {
    return join(this.dir, name);
  }

  private get ckptName(): string {
    return `${this.pair}.ckpt`;
  }

  private get journalName(): string {
    return `${this.pair}.journal`;
  }

  /** The directory's bytes (layer and snapshots) and, as quota, those plus the disk's free space. */
  async estimate(): Promise<StorageEstimate> {
    const size = (p: string) => stat(p).then((s) => s.size, () => 0);
    const snaps = await readdir(this.path('snapshots')).catch(() => [] as string[]);
    const sizes = await Promise.all([size(this.path(this.ckptName)), size(this.path(this.journalName)), ...snaps.map((n) => size(join(this.path('snapshots'), n)))]);
    const usage = sizes.reduce((a, b) => a + b, 0);
    const fs = await statfs(this.dir);
    return { usage, quota: usage + fs.bavail * fs.bsize };
  }

  async load(): Promise<LayerBytes> {
    await mkdir(this.path('snapshots'), { recursive: true });
    const current = await readlink(this.path('CURRENT')).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return DEFAULT_PAIR;
      throw e;
    });
    if (current !== DEFAULT_PAIR && !PAIR.test(current)) throw new Error(`${this.path('CURRENT')}: not a layer name: '${current.slice(0, 80)}'`);
    this.pair = current;
    await this.removeUnused();
    return {
      checkpoint: await readOrNull(this.path(this.ckptName)),
      journal: (await readOrNull(this.path(this.journalName))) ?? new Uint8Array(0),
    };
  }

  /** Pairs a switch left behind (a crash before or after CURRENT was renamed): not in use, never read. */
  private async removeUnused(): Promise<void> {
    for (const f of await readdir(this.dir)) {
      const m = /^(.*)\.(ckpt|journal)$/.exec(f);
      if (m && PAIR.test(m[1]) && m[1] !== this.pair) await unlink(this.path(f)).catch(() => {});
    }
  }

  private async journalHandle(): Promise<FileHandle> {
    this.journal ??= await open(this.path(this.journalName), constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND, 0o600);
    return this.journal;
  }

  async append(frame: readonly Uint8Array[]): Promise<void> {
    const fh = await this.journalHandle();
    await writeAll(fh, frame);
    await fh.datasync();
  }

  async checkpoint(frame: readonly Uint8Array[]): Promise<void> {
    if (this.pair !== DEFAULT_PAIR) return this.checkpointBack(frame);
    await this.replace(this.path('layer.ckpt'), frame);
    // Frames left in the journal are older than the checkpoint (their seq says so) and are skipped at load.
    const fh = await this.journalHandle();
    await fh.truncate(0);
    await fh.datasync();
  }

  /**
   * Back from a restored pair to layer.*: layer.journal is emptied and the
   * checkpoint written while CURRENT still names the pair in use; removing
   * CURRENT is the switch.
   */
  private async checkpointBack(frame: readonly Uint8Array[]): Promise<void> {
    const old = this.pair;
    await this.closeJournal();
    const fh = await open(this.path('layer.journal'), 'w', 0o600);
    try {
      await fh.datasync();
    } finally {
      await fh.close();
    }
    await this.replace(this.path('layer.ckpt'), frame);
    await unlink(this.path('CURRENT'));
    await syncDir(this.dir);
    this.pair = DEFAULT_PAIR;
    await this.removePair(old);
  }

  /**
   * Make snapshot `name` the checkpoint, with an empty journal, without
   * copying its bytes: a hard link to its file, switched in by renaming
   * CURRENT. A crash leaves the old layer or the new one. False, nothing
   * changed, if it cannot (no such snapshot; a filesystem without hard or
   * symbolic links): the caller writes the layer whole instead.
   */
  async checkpointFromSnapshot(name: string): Promise<boolean> {
    const old = this.pair;
    const pair = `restored-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    try {
      await link(this.snapPath(name), this.path(`${pair}.ckpt`));
      await writeFile(this.path(`${pair}.journal`), new Uint8Array(0), { mode: 0o600 });
      await rm(this.path('CURRENT.tmp'), { force: true });
      await symlink(pair, this.path('CURRENT.tmp'));
    } catch {
      await this.removePair(pair);
      return false;
    }
    await rename(this.path('CURRENT.tmp'), this.path('CURRENT'));
    await syncDir(this.dir); // the link, the empty journal and CURRENT, durable together
    await this.closeJournal();
    this.pair = pair;
    await this.removePair(old);
    return true;
  }

  /** After a switch: the pair no longer in use (layer.* stays, as the legacy name, until reused). */
  private async removePair(pair: string): Promise<void> {
    const names = pair === DEFAULT_PAIR ? ['layer.ckpt'] : [`${pair}.ckpt`, `${pair}.journal`];
    if (pair === DEFAULT_PAIR) {
      // Emptied, not removed: no stale frame is ever left beside a later layer.ckpt.
      await writeFile(this.path('layer.journal'), new Uint8Array(0)).catch(() => {});
    }
    for (const n of names) await unlink(this.path(n)).catch(() => {});
  }

  private async closeJournal(): Promise<void> {
    await this.journal?.close();
    this.journal = null;
  }

  async saveSnapshot(name: string, frame: Uint8Array): Promise<void> {
    await this.replace(this.snapPath(name), [frame]);
  }

  loadSnapshot(name: string): Promise<Uint8Array | null> {
    return readOrNull(this.snapPath(name));
  }

  async listSnapshots(): Promise<{ name: string; bytes: number; mtimeMs: number }[]> {
    const out = [];
    for (const f of (await readdir(this.path('snapshots'))).sort()) {
      if (!f.endsWith(SNAP_EXT)) continue;
      const st = await stat(join(this.path('snapshots'), f));
      out.push({ name: decodeURIComponent(f.slice(0, -SNAP_EXT.length)), bytes: st.size, mtimeMs: st.mtimeMs });
    }
    return out;
  }

  async deleteSnapshot(name: string): Promise<boolean> {
    try {
      await rm(this.snapPath(name));
      await syncDir(this.path('snapshots'));
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw e;
    }
  }


  close(): Promise<void> {
    return this.closeJournal();
  }

  private snapPath(name: string): string {
    return join(this.path('snapshots'), encodeURIComponent(name) + SNAP_EXT);
  }

  /** Replace `file` atomically: a reader (or a crash) sees the old bytes or the new, never a mix. */
  private async replace(file: string, bytes: readonly Uint8Array[]): Promise<void> {
    const tmp = `${file}.tmp`;
    const fh = await open(tmp, 'w', 0o600);
    try {
      await writeAll(fh, bytes);
      await fh.datasync();
    } finally {
      await fh.close();
    }
    await rename(tmp, file);
    await syncDir(join(file, '..'));
  }
}

/** Write `pieces` end to end, gathered (writev), whatever a short write leaves. */
async function writeAll(fh: FileHandle, pieces: readonly Uint8Array[]): Promise<void> {
  let rest = pieces.filter((p) => p.length > 0);
  while (rest.length) {
    // Node hands libuv at most IOV_MAX (1024) buffers per call.
    const batch = rest.slice(0, 1024);
    let { bytesWritten } = await fh.writev(batch);
    let i = 0;
    while (i < batch.length && bytesWritten >= batch[i].length) bytesWritten -= batch[i++].length;
    rest = i < batch.length ? [batch[i].subarray(bytesWritten), ...rest.slice(i + 1)] : rest.slice(i);
  }
}

/** The whole file, read in one call where it can be (readFile reads in 512 KiB pieces). */
async function readOrNull(file: string): Promise<Uint8Array | null> {
  let fh: FileHandle;
  try {
    fh = await open(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  try {
    const buf = new Uint8Array((await fh.stat()).size);
    let at = 0;
    while (at < buf.length) {
      const { bytesRead } = await fh.read(buf, at, buf.length - at, at);
      if (bytesRead === 0) return buf.subarray(0, at);
      at += bytesRead;
    }
    return buf;
  } finally {
    await fh.close();
  }
}

async function syncFile(file: string): Promise<void> {
  const fh = await open(file, 'r+');
  try {
    await fh.datasync();
  } finally {
    await fh.close();
  }
}

/** Make a rename or unlink in `dir` durable. */
async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

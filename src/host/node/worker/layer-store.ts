// A persistent layer in a host directory (Node): the kernel's LayerStore.
//
//   DIR/layer.ckpt         the checkpoint frame (replaced by write-temp + fsync + rename)
//   DIR/layer.journal      frames appended after it (write + fdatasync per commit)
//   DIR/snapshots/N.aosnap named snapshots (checkpoint frames), replaced the same way
//   DIR/damaged-<time>/    copies of a damaged checkpoint and journal, made by a repair
//
// Runs in the kernel worker. Locking against a second VM on the same
// directory is the host's (dir-lock.ts), taken before the worker starts.

import { constants } from 'node:fs';
import { copyFile, mkdir, open, readdir, readFile, rename, rm, stat, statfs, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 as zlibCrc32 } from 'node:zlib';
import type { StorageEstimate } from '../../../api/types.js';
import { useNativeCrc32 } from '../../../kernel/persist/checksum.js';
import type { LayerBytes, LayerStore } from '../../../kernel/persist/store.js';

const SNAP_EXT = '.aosnap';

export class DirLayerStore implements LayerStore {
  readonly where: string;
  readonly repairHint: string;
  private journal: FileHandle | null = null;

  constructor(private readonly dir: string) {
    // Every frame written or read is checksummed whole: zlib's CRC-32 (the
    // same function) runs in native code, 5-20x the JavaScript one on large frames.
    useNativeCrc32(zlibCrc32);
    this.where = `host directory ${dir}`;
    this.repairHint = `agentos repair --state ${dir} (or, from Node, AgentVM.repair(${JSON.stringify(dir)}))`;
  }

  locate(part: 'checkpoint' | 'journal', offset: number): string {
    return `${this.path(part === 'checkpoint' ? 'layer.ckpt' : 'layer.journal')} at byte ${offset}`;
  }

  async keepDamaged(): Promise<string> {
    const kept = this.path(`damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    await mkdir(kept);
    for (const name of ['layer.ckpt', 'layer.journal']) {
      try {
        await copyFile(this.path(name), join(kept, name));
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

  /** The directory's bytes (layer and snapshots) and, as quota, those plus the disk's free space. */
  async estimate(): Promise<StorageEstimate> {
    const size = (p: string) => stat(p).then((s) => s.size, () => 0);
    const snaps = await readdir(this.path('snapshots')).catch(() => [] as string[]);
    const sizes = await Promise.all([size(this.path('layer.ckpt')), size(this.path('layer.journal')), ...snaps.map((n) => size(join(this.path('snapshots'), n)))]);
    const usage = sizes.reduce((a, b) => a + b, 0);
    const fs = await statfs(this.dir);
    return { usage, quota: usage + fs.bavail * fs.bsize };
  }

  async load(): Promise<LayerBytes> {
    await mkdir(this.path('snapshots'), { recursive: true });
    return {
      checkpoint: await readOrNull(this.path('layer.ckpt')),
      journal: (await readOrNull(this.path('layer.journal'))) ?? new Uint8Array(0),
    };
  }

  private async journalHandle(): Promise<FileHandle> {
    this.journal ??= await open(this.path('layer.journal'), constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND, 0o600);
    return this.journal;
  }

  async append(frame: readonly Uint8Array[]): Promise<void> {
    const fh = await this.journalHandle();
    await writeAll(fh, frame);
    await fh.datasync();
  }

  async checkpoint(frame: readonly Uint8Array[]): Promise<void> {
    await this.replace(this.path('layer.ckpt'), frame);
    // Frames left in the journal are older than the checkpoint (their seq says so) and are skipped at load.
    const fh = await this.journalHandle();
    await fh.truncate(0);
    await fh.datasync();
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


  async close(): Promise<void> {
    await this.journal?.close();
    this.journal = null;
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

async function readOrNull(file: string): Promise<Uint8Array | null> {
  try {
    return new Uint8Array(await readFile(file));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
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

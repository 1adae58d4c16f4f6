// Where the persistence time goes (decision 0086), measured in one process
// without workers or a shell: the VFS writes, one commit (the journal's frame
// encoding, the store's write + fdatasync), and a snapshot restore's read,
// decode, tree build and switch; medians of five rounds, each beside what
// bounds it on this disk (`npm run bench -- --only=persist-cost`).

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { Figure } from './run.js';
import { join } from 'node:path';
import { O_CREAT, O_TRUNC, O_WRONLY } from '../src/abi/fcntl.js';
import type { OpenFile } from '../src/kernel/file.js';
import { MemFs } from '../src/kernel/fs/memfs.js';
import { OverlayFs } from '../src/kernel/fs/overlayfs.js';
import { encodeFrame } from '../src/kernel/persist/format.js';
import { fullState } from '../src/kernel/persist/journal.js';
import { Persister } from '../src/kernel/persist/persister.js';
import { replay } from '../src/kernel/persist/replay.js';
import { scanFrames } from '../src/kernel/persist/scan.js';
import { ROOT_CRED, Vfs } from '../src/kernel/vfs/vfs.js';
import { DirLayerStore } from '../src/host/node/worker/layer-store.js';

const now = (): number => performance.now();
const median = (xs: number[]): number => +[...xs].sort((a, b) => a - b)[xs.length >> 1].toFixed(2);

function put(v: Vfs, path: string, bytes: Uint8Array): void {
  const f = v.open(ROOT_CRED, v.root(), path, O_WRONLY | O_CREAT | O_TRUNC, 0o644) as OpenFile;
  try {
    f.ops.write(f, bytes);
  } finally {
    f.unref();
  }
}

/** A store that times its appends (write + fdatasync). */
class TimedStore extends DirLayerStore {
  appendMs = 0;
  override async append(frame: readonly Uint8Array[]): Promise<void> {
    const t0 = now();
    await super.append(frame);
    this.appendMs += now() - t0;
  }
}

async function fdatasyncMs(dir: string): Promise<number> {
  const fh = await open(join(dir, 'probe'), 'w');
  const xs: number[] = [];
  for (let i = 0; i < 20; i++) {
    await fh.write(new Uint8Array(4096));
    const t0 = now();
    await fh.datasync();
    xs.push(now() - t0);
  }
  await fh.close();
  return median(xs);
}

async function round(dir: string, k: number): Promise<Record<string, number>> {
  const store = new TimedStore(join(dir, `vm${k}`));
  const p = await Persister.open(store, 'image', () => new MemFs());
  p.fs.maxBytes = 1 << 30; // as the VM's policy caps it (the disk's free space may be more than a buffer can reserve)
  const v = new Vfs(new OverlayFs(new MemFs(), p.fs));
  const r: Record<string, number> = {};
  // 1,000 × 1 KiB files: the VFS work, then one commit (encode + append).
  let t0 = now();
  v.mkdir(ROOT_CRED, v.root(), '/d', 0o755);
  const kib = new Uint8Array(1024).fill(32);
  for (let i = 1; i <= 1000; i++) put(v, `/d/f${i}`, kib);
  r.filesVfs = now() - t0;
  t0 = now();
  await p.sync();
  r.filesCommit = now() - t0;
  r.filesAppend = store.appendMs;
  // The same again in four commits (what the 100 ms background timer makes of a ~400 ms loop).
  store.appendMs = 0;
  v.mkdir(ROOT_CRED, v.root(), '/e', 0o755);
  let commits = 0;
  for (let i = 1; i <= 1000; i++) {
    put(v, `/e/f${i}`, kib);
    if (i % 250 === 0) {
      const t1 = now();
      await p.sync();
      commits += now() - t1;
    }
  }
  r.files4Commits = commits;
  r.files4Append = store.appendMs;
  // 100 MB written sequentially (64 KiB writes, as head does), then one commit.
  store.appendMs = 0;
  t0 = now();
  const f = v.open(ROOT_CRED, v.root(), '/big', O_WRONLY | O_CREAT | O_TRUNC, 0o644) as OpenFile;
  const chunk = new Uint8Array(65536);
  for (let i = 0; i < 1600; i++) f.ops.write(f, chunk);
  f.unref();
  r.bigVfs = now() - t0;
  t0 = now();
  await p.sync();
  r.bigCommit = now() - t0;
  r.bigAppend = store.appendMs;
  v.unlink(ROOT_CRED, v.root(), '/big');
  await p.sync();
  // Restore of a 10 MB snapshot: read, check + decode (copying the data, as before, or keeping views), build, switch.
  const snap = new MemFs();
  const sv = new Vfs(snap);
  for (let i = 0; i < 100; i++) put(sv, `/r${i}`, randomBytes(102400));
  const frame = encodeFrame({ seq: 0, imageId: 'image', ...fullState(snap) });
  await store.saveSnapshot('ten', frame);
  for (const share of k % 2 ? [true, false] : [false, true]) {
    const tag = share ? 'views' : 'copies';
    t0 = now();
    const file = (await store.loadSnapshot('ten'))!;
    r[`restoreRead`] = (r.restoreRead ?? 0) + (now() - t0) / 2;
    t0 = now();
    const state = replay([scanFrames(file, -Infinity, share).frames[0].commit]);
    r[`restoreDecode_${tag}`] = now() - t0;
    t0 = now();
    const upper = new MemFs();
    upper.importTree(state.records, state.nextIno);
    r[`restoreBuild_${tag}`] = now() - t0;
    t0 = now();
    await p.adopt(upper, { snapshot: 'ten', seq: state.seq, bytes: file.length });
    r[`restoreSwitch_${tag}`] = now() - t0;
  }
  await p.close();
  return r;
}

/** Write `bytes` to a new file and fdatasync it: the disk's own figure. */
async function nativeWriteMs(dir: string, bytes: Uint8Array): Promise<number> {
  const fh = await open(join(dir, 'native'), 'w');
  const t0 = now();
  await fh.write(bytes);
  await fh.datasync();
  const ms = now() - t0;
  await fh.close();
  return ms;
}

export async function runPersistCostBenches(rounds = 5): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'agentos-persist-cost-'));
  try {
    const all: Record<string, number[]> = {};
    const add = (key: string, v: number) => (all[key] ??= []).push(v);
    for (let k = 0; k < rounds; k++) {
      for (const [key, val] of Object.entries(await round(dir, k))) add(key, val);
      add('fdatasync', await fdatasyncMs(dir));
      add('native1M', await nativeWriteMs(dir, new Uint8Array(1 << 20).fill(1)));
      add('native100M', await nativeWriteMs(dir, new Uint8Array(100 << 20).fill(1)));
    }
    const m = (key: string) => median(all[key]);
    const fig = (name: string, value: number, baseline: Figure['baseline']): Figure => ({ name, host: 'node', value, unit: 'ms', goal: '—', met: null, baseline });
    const ms = (name: string, value: number) => ({ name, value, unit: 'ms' });
    return [
      fig('1,000 × 1 KiB files: VFS writes alone (no shell, no process)', m('filesVfs'), null),
      fig('1,000 × 1 KiB files: one commit (encode + write + fdatasync)', m('filesCommit'), ms('write 1 MB + fdatasync, same disk', m('native1M'))),
      fig('1,000 × 1 KiB files: the store\'s part of that commit (write + fdatasync)', m('filesAppend'), ms('fdatasync of 4 KiB appended', m('fdatasync'))),
      fig('1,000 × 1 KiB files: four commits of 250 (the 100 ms timer over a 400 ms loop)', m('files4Commits'), ms('one commit of 1,000', m('filesCommit'))),
      fig('100 MB in 64 KiB writes: VFS writes alone', m('bigVfs'), null),
      fig('100 MB: one commit (native CRC + writev + fdatasync)', m('bigCommit'), ms('write 100 MB + fdatasync, same disk', m('native100M'))),
      fig('restore of a 10 MB snapshot: read the frame', m('restoreRead'), null),
      fig('restore of a 10 MB snapshot: check + decode, file data kept as views', m('restoreDecode_views'), ms('the same, data copied (before)', m('restoreDecode_copies'))),
      fig('restore of a 10 MB snapshot: build the tree', m('restoreBuild_views'), null),
      fig('restore of a 10 MB snapshot: switch (link, empty journal, CURRENT, directory fsync)', m('restoreSwitch_views'), ms('fdatasync of 4 KiB appended', m('fdatasync'))),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

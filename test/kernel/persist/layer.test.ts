// The persistent layer (src/kernel/persist/) on its own: random workloads on
// an overlay root whose upper layer persists to an in-memory store, then a
// "crash" at every sync point — and inside the frame after it, torn at a
// random byte — and a reopen that must give exactly the tree as it was at the
// last complete commit. Plus format errors, migration and snapshots frames.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { O_APPEND, O_CREAT, O_DIRECTORY, O_RDONLY, O_TRUNC, O_WRONLY } from '../../../src/abi/fcntl.js';
import { S_IFMT, isDir, isLnk, isReg } from '../../../src/abi/stat.js';
import type { OpenFile } from '../../../src/kernel/file.js';
import { MemFs } from '../../../src/kernel/fs/memfs.js';
import { OverlayFs } from '../../../src/kernel/fs/overlayfs.js';
import { crc32 } from '../../../src/common/crc32.js';
import { encodeFrame, joinPieces, SCHEMA } from '../../../src/kernel/persist/format.js';
import { fullState } from '../../../src/kernel/persist/journal.js';
import { Persister } from '../../../src/kernel/persist/persister.js';
import { scanFrames } from '../../../src/kernel/persist/scan.js';
import { MemorySnapshots, type LayerBytes, type LayerStore } from '../../../src/kernel/persist/store.js';
import { ROOT_CRED, Vfs } from '../../../src/kernel/vfs/vfs.js';

const cred = ROOT_CRED;
const enc = (s: string) => new TextEncoder().encode(s);

/** A LayerStore in memory whose bytes can be copied at any moment (a crash image). */
export class MemoryStore extends MemorySnapshots implements LayerStore {
  readonly where = 'memory';
  readonly repairHint = 'repairLayer(store)';
  /** Copies kept by repairs. */
  kept: LayerBytes[] = [];
  checkpointBytes: Uint8Array | null = null;
  journal: Uint8Array = new Uint8Array(0);
  failNext = false;
  /** Bytes the store may hold in all; the test of ENOSPC up front sets it. */
  quota: number | null = null;

  constructor(from?: LayerBytes) {
    super();
    if (from) {
      this.checkpointBytes = from.checkpoint;
      this.journal = from.journal;
    }
  }

  /** Copies, as a store on disk reads them: the layer opened from them keeps the checkpoint's bytes as its files. */
  async load(): Promise<LayerBytes> {
    return { checkpoint: this.checkpointBytes?.slice() ?? null, journal: this.journal.slice() };
  }

  async append(pieces: readonly Uint8Array[]): Promise<void> {
    const frame = joinPieces(pieces);
    if (this.failNext) {
      this.failNext = false;
      throw new Error('No space left on device (quota)');
    }
    const next = new Uint8Array(this.journal.length + frame.length);
    next.set(this.journal);
    next.set(frame, this.journal.length);
    this.journal = next;
  }

  async checkpoint(pieces: readonly Uint8Array[]): Promise<void> {
    this.checkpointBytes = joinPieces(pieces);
    this.journal = new Uint8Array(0);
  }

  async estimate(): Promise<{ usage: number; quota: number } | null> {
    const usage = (this.checkpointBytes?.length ?? 0) + this.journal.length;
    return this.quota === null ? null : { usage, quota: this.quota };
  }

  async close(): Promise<void> {}

  locate(part: string, offset: number): string {
    return `the ${part} at byte ${offset}`;
  }

  async keepDamaged(): Promise<string> {
    this.kept.push(this.copy());
    return `copy ${this.kept.length}`;
  }

  copy(): LayerBytes {
    return { checkpoint: this.checkpointBytes?.slice() ?? null, journal: this.journal.slice() };
  }
}

/** The read-only lower layer: a few files and directories to copy up, delete and rename. */
function lower(): MemFs {
  const fs = new MemFs({ now: () => 1.5e12 });
  const v = new Vfs(fs);
  for (const d of ['/etc', '/etc/skel', '/usr', '/usr/share', '/usr/share/doc']) v.mkdir(cred, v.root(), d, 0o755);
  for (const [p, text] of [['/etc/motd', 'welcome\n'], ['/etc/skel/.profile', 'PS1=$\n'], ['/usr/share/doc/a', 'A'.repeat(5000)]]) {
    write(v, p, text, O_WRONLY | O_CREAT | O_TRUNC);
  }
  fs.readonly = true;
  return fs;
}

function write(v: Vfs, path: string, text: string | Uint8Array, flags: number): void {
  const f = v.open(cred, v.root(), path, flags, 0o644) as OpenFile;
  try {
    f.ops.write(f, typeof text === 'string' ? enc(text) : text);
  } finally {
    f.unref();
  }
}

async function openLayer(store: LayerStore, imageId = 'image-1'): Promise<{ p: Persister; v: Vfs }> {
  const p = await Persister.open(store, imageId, () => new MemFs());
  return { p, v: new Vfs(new OverlayFs(lower(), p.fs)) };
}

/** The merged tree as text: every path with its type, mode, owner, size, link count, ino and content. */
function dump(v: Vfs): string {
  const out: string[] = [];
  const walk = (path: string): void => {
    const dir = v.open(cred, v.root(), path, O_RDONLY | O_DIRECTORY) as OpenFile;
    const names = v.readdirOf(dir).map((e) => e.name).filter((n) => n !== '.' && n !== '..').sort();
    dir.unref();
    for (const name of names) {
      const p = `${path === '/' ? '' : path}/${name}`;
      const st = v.stat(cred, v.root(), p, false);
      let what = `${p} ${(st.mode & S_IFMT).toString(8)} ${(st.mode & 0o7777).toString(8)} ${st.uid}:${st.gid} n${st.nlink} i${st.ino} m${st.mtimeMs}`;
      if (isLnk(st.mode)) what += ` -> ${v.readlink(cred, v.root(), p)}`;
      if (isReg(st.mode)) {
        const f = v.open(cred, v.root(), p, O_RDONLY) as OpenFile;
        const bytes = f.ops.read(f, 1 << 30) as Uint8Array;
        f.unref();
        what += ` ${st.size} ${createHash('sha1').update(bytes).digest('hex').slice(0, 12)}`;
      }
      out.push(what);
      if (isDir(st.mode)) walk(p);
    }
  };
  walk('/');
  return out.join('\n');
}

/** A tiny seeded PRNG so failures reproduce. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One random operation on the merged tree; failures (EEXIST, ENOENT, ...) are part of the game. */
function randomOp(v: Vfs, r: () => number): void {
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
  const dirs = ['/', '/etc', '/etc/skel', '/usr/share/doc', '/home', '/home/d', '/home/d/e', '/x'];
  const path = () => `${pick(dirs)}/${pick(['a', 'b', 'c', 'motd', '.profile', 'd', 'e'])}`.replace('//', '/');
  const bytes = () => {
    const n = Math.floor(r() * r() * 20000);
    const b = new Uint8Array(n);
    for (let i = 0; i < n; i++) b[i] = Math.floor(r() * 256);
    return b;
  };
  try {
    switch (Math.floor(r() * 12)) {
      case 0: write(v, path(), bytes(), O_WRONLY | O_CREAT | O_TRUNC); break;
      case 1: write(v, path(), bytes(), O_WRONLY | O_CREAT | O_APPEND); break;
      case 2: v.mkdir(cred, v.root(), pick(['/home', '/home/d', '/home/d/e', '/x', path()]), 0o755); break;
      case 3: v.unlink(cred, v.root(), path()); break;
      case 4: v.rmdir(cred, v.root(), pick(dirs)); break;
      case 5: v.rename(cred, v.root(), pick([path(), pick(dirs)]), v.root(), path()); break;
      case 6: v.link(cred, v.root(), path(), v.root(), path()); break;
      case 7: v.symlink(cred, v.root(), pick(['a', '../etc/motd', '/nowhere']), path()); break;
      case 8: v.chmod(cred, v.root(), path(), Math.floor(r() * 0o7777)); break;
      case 9: v.truncate(cred, v.root(), path(), Math.floor(r() * 30000)); break;
      case 10: v.utimes(cred, v.root(), path(), 1e12 + Math.floor(r() * 1e6), 1e12 + Math.floor(r() * 1e6)); break;
      case 11: {
        // A pwrite into the middle of a file: only that span is journalled.
        const f = v.open(cred, v.root(), path(), O_WRONLY) as OpenFile;
        try {
          f.ops.write(f, bytes().subarray(0, 100), Math.floor(r() * 10000));
        } finally {
          f.unref();
        }
        break;
      }
    }
  } catch (e) {
    if (!(e instanceof Error) || !('errno' in e)) throw e;
  }
}

for (const seed of [1, 2, 3, 4, 5, 6]) {
  test(`layer: random workload (seed ${seed}) survives a crash at every commit and inside every frame`, async () => {
    const r = rng(seed);
    const store = new MemoryStore();
    const { p, v } = await openLayer(store);
    const points: { bytes: LayerBytes; tree: string }[] = [{ bytes: store.copy(), tree: dump(v) }];
    for (let round = 0; round < 25; round++) {
      const n = 1 + Math.floor(r() * 12);
      for (let i = 0; i < n; i++) randomOp(v, r);
      await p.sync();
      points.push({ bytes: store.copy(), tree: dump(v) });
    }
    for (let k = 0; k < points.length; k++) {
      const { v: again } = await openLayer(new MemoryStore(points[k].bytes));
      assert.equal(dump(again), points[k].tree, `reopened at commit ${k}`);
      // Torn: the next frame cut short at a random byte must be ignored whole.
      const next = points[k + 1]?.bytes;
      if (next && sameBytes(next.checkpoint, points[k].bytes.checkpoint)) {
        const from = points[k].bytes.journal.length;
        const cut = from + Math.floor(r() * (next.journal.length - from));
        const torn = new MemoryStore({ checkpoint: next.checkpoint, journal: next.journal.slice(0, cut) });
        const { p: tp, v: tv } = await openLayer(torn);
        assert.equal(dump(tv), points[k].tree, `torn inside frame ${k + 1}`);
        assert.equal(tp.info.tornTail, cut !== from);
        // A torn tail is cut off by a fresh checkpoint, so later frames are never written after garbage.
        assert.equal(torn.journal.length, cut !== from ? 0 : torn.journal.length);
      }
    }
  });
}

function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  return a === b || (a !== null && b !== null && Buffer.compare(a, b) === 0);
}

test('layer: a file grown by appends journals only the new bytes', async () => {
  const store = new MemoryStore();
  const { p, v } = await openLayer(store);
  write(v, '/log', 'x'.repeat(100_000), O_WRONLY | O_CREAT);
  await p.sync();
  const before = store.journal.length;
  for (let i = 0; i < 50; i++) {
    write(v, '/log', `line ${i}\n`, O_WRONLY | O_APPEND);
    await p.sync();
  }
  const perCommit = (store.journal.length - before) / 50;
  assert.ok(perCommit < 1000, `an append commit is small (${perCommit} bytes)`);
  const { v: again } = await openLayer(new MemoryStore(store.copy()));
  assert.equal(dump(again), dump(v));
});

test('layer: writes made while a commit is being written do not change the bytes it writes', async () => {
  // The frame refers to the files' buffers (no copy) until the store has written them.
  const store = new MemoryStore();
  const { p, v } = await openLayer(store);
  write(v, '/a', 'a'.repeat(10_000), O_WRONLY | O_CREAT);
  write(v, '/b', 'b'.repeat(10_000), O_WRONLY | O_CREAT);
  await p.sync();
  write(v, '/a', 'A'.repeat(10_000), O_WRONLY);
  write(v, '/b', 'B'.repeat(10_000), O_WRONLY);
  const saved = dump(v);
  let held: readonly Uint8Array[] = [];
  let go = (): void => {};
  const append = store.append.bind(store);
  store.append = async (pieces) => {
    held = pieces;
    await new Promise<void>((ok) => (go = ok));
    return append(pieces);
  };
  const commit = p.sync();
  await new Promise((ok) => setImmediate(ok));
  assert.ok(held.length > 0, 'the commit is being written');
  write(v, '/a', 'x'.repeat(5_000), O_WRONLY); // overwrite through an open file
  v.truncate(cred, v.root(), '/b', 9_000); // shrink in place (zeroes the tail), no open file
  go();
  await commit;
  store.append = append;
  const { v: again } = await openLayer(new MemoryStore(store.copy()));
  assert.equal(dump(again), saved, 'the commit holds the files as they were when it was taken');
  await p.sync();
  const { v: later } = await openLayer(new MemoryStore(store.copy()));
  assert.equal(dump(later), dump(v));
});

test('layer: a background commit waits for open writers to close', async () => {
  const store = new MemoryStore();
  const { p, v } = await openLayer(store);
  const f = v.open(cred, v.root(), '/big', O_WRONLY | O_CREAT, 0o644) as OpenFile;
  f.ops.write(f, enc('first half;'));
  await new Promise((ok) => setTimeout(ok, 300)); // past the quiet period
  const { v: during } = await openLayer(new MemoryStore(store.copy()));
  assert.throws(() => during.stat(cred, during.root(), '/big'), /ENOENT|No such/);
  f.ops.write(f, enc('second half'));
  f.unref();
  await new Promise((ok) => setTimeout(ok, 300));
  assert.equal(p.dirty, false, 'committed once closed');
  const { v: after } = await openLayer(new MemoryStore(store.copy()));
  const g = after.open(cred, after.root(), '/big', O_RDONLY) as OpenFile;
  assert.equal(new TextDecoder().decode(g.ops.read(g, 100) as Uint8Array), 'first half;second half');
});

test('layer: a failed commit keeps its changes and reports the error until one succeeds', async () => {
  const store = new MemoryStore();
  const { p, v } = await openLayer(store);
  write(v, '/a', 'one', O_WRONLY | O_CREAT);
  store.failNext = true;
  await assert.rejects(p.sync(), /No space left/);
  assert.match(p.lastError?.message ?? '', /No space/);
  assert.equal(p.dirty, true);
  await p.sync();
  assert.equal(p.lastError, null);
  const { v: again } = await openLayer(new MemoryStore(store.copy()));
  assert.equal(dump(again), dump(v));
});

test('layer: a store near its quota gives ENOSPC when the write is made, and keeps what was durable', async () => {
  const store = new MemoryStore();
  store.quota = 2_000_000;
  const { p, v } = await openLayer(store);
  write(v, '/kept', 'k'.repeat(200_000), O_WRONLY | O_CREAT);
  await p.sync();
  // Half the free space is the layer's room (a fold needs journal and checkpoint at once).
  const st = v.statfs(cred, v.root(), '/');
  const room = (st.bavail * st.bsize);
  assert.ok(room > 500_000 && room < 1_000_000, `room ${room}`);
  // As on Linux: a short write fills the room, the next write fails.
  const f = v.open(cred, v.root(), '/big', O_WRONLY | O_CREAT, 0o644) as OpenFile;
  const n = f.ops.write(f, enc('b'.repeat(1_500_000))) as number;
  assert.ok(n < 1_000_000, `short write of ${n}`);
  assert.throws(() => f.ops.write(f, enc('more')), /ENOSPC/);
  f.unref();
  await p.sync();
  const { v: again } = await openLayer(new MemoryStore(store.copy()));
  assert.equal(dump(again), dump(v));
  assert.match(dump(again), /kept/);
});

test('layer: folding the journal into a checkpoint keeps the tree', async () => {
  const store = new MemoryStore();
  const { p, v } = await openLayer(store);
  const big = new Uint8Array(3 << 20).fill(7);
  for (let i = 0; i < 5; i++) {
    write(v, `/f${i}`, big, O_WRONLY | O_CREAT | O_TRUNC);
    await p.sync();
  }
  assert.ok(store.checkpointBytes && store.checkpointBytes.length > 8 << 20, 'the journal was folded');
  assert.ok(store.journal.length < 8 << 20);
  const { v: again } = await openLayer(new MemoryStore(store.copy()));
  assert.equal(dump(again), dump(v));
});

test('layer: a layer of a newer schema is refused with a clear message, never misread', async () => {
  const frame = encodeFrame({ seq: 1, imageId: 'image-1', meta: [], data: [] });
  const dv = new DataView(frame.buffer);
  dv.setUint32(24 + 4, SCHEMA + 1, true); // the payload's schema field, after the 24-byte header
  dv.setUint32(16, crc32(frame.subarray(24)), true);
  dv.setUint32(20, crc32(frame.subarray(0, 20)), true);
  await assert.rejects(openLayer(new MemoryStore({ checkpoint: frame, journal: new Uint8Array(0) })), /schema 3 .*newer agentOS/);
  const damaged = encodeFrame({ seq: 1, imageId: 'image-1', meta: [], data: [] });
  damaged[damaged.length - 1] ^= 1;
  await assert.rejects(openLayer(new MemoryStore({ checkpoint: damaged, journal: new Uint8Array(0) })), /checkpoint is damaged at the checkpoint at byte 0 \(checksum mismatch in commit 1\)/);
});

test('layer: a layer written over another base image is migrated (paths kept, origin records dropped)', async () => {
  const store = new MemoryStore();
  const { p, v } = await openLayer(store, 'image-1');
  write(v, '/etc/motd', 'changed\n', O_WRONLY | O_TRUNC);
  v.unlink(cred, v.root(), '/usr/share/doc/a');
  v.rename(cred, v.root(), '/etc/skel', v.root(), '/etc/skel2');
  await p.sync();
  const { p: p2, v: v2 } = await openLayer(new MemoryStore(store.copy()), 'image-2');
  assert.equal(p2.info.migratedFrom, 'image-1');
  const strip = (s: string) => s.replace(/ i\d+/g, '');
  assert.equal(strip(dump(v2)), strip(dump(v)));
  const cp = scanFrames((await p2.store.load()).checkpoint!);
  assert.equal(cp.frames[0].commit.imageId, 'image-2', 'rewritten for the new image');
});

test('layer: a snapshot frame reopens as the same tree', async () => {
  const store = new MemoryStore();
  const { p, v } = await openLayer(store);
  for (let i = 0; i < 40; i++) randomOp(v, rng(99 + i));
  const frame = encodeFrame({ seq: 1, imageId: 'image-1', ...fullState(p.fs) });
  const { v: again } = await openLayer(new MemoryStore({ checkpoint: frame, journal: new Uint8Array(0) }));
  assert.equal(dump(again), dump(v));
});

test('layer: a checkpoint opens with its files kept in the bytes read (no copy); writing one never touches another', async () => {
  const { p, v } = await openLayer(new MemoryStore());
  for (const [name, fill] of [['a', 1], ['b', 2], ['c', 3]] as const) write(v, `/${name}`, new Uint8Array(8192).fill(fill), O_WRONLY | O_CREAT);
  const frame = encodeFrame({ seq: 1, imageId: 'image-1', ...fullState(p.fs) });
  const store = new MemoryStore({ checkpoint: frame, journal: new Uint8Array(0) });
  const { p: p2, v: v2 } = await openLayer(store);
  const file = (n: string) => p2.fs.root().children!.get(n)!;
  assert.equal(file('a').data!.buffer, file('b').data!.buffer, 'both files are views of the checkpoint as read');
  write(v2, '/a', enc('zz'), O_WRONLY); // in place
  write(v2, '/b', enc('tail'), O_WRONLY | O_APPEND); // grows: moves out
  write(v2, '/c', enc('x'), O_WRONLY | O_TRUNC); // shrinks
  const text = (vv: Vfs, path: string) => {
    const f = vv.open(cred, vv.root(), path, O_RDONLY) as OpenFile;
    const b = f.ops.read(f, 1 << 20) as Uint8Array;
    f.unref();
    return b;
  };
  assert.deepEqual(text(v2, '/a'), Uint8Array.from([122, 122, ...new Uint8Array(8190).fill(1)]));
  assert.deepEqual(text(v2, '/b'), Uint8Array.from([...new Uint8Array(8192).fill(2), ...enc('tail')]));
  assert.deepEqual(text(v2, '/c'), enc('x'));
  await p2.sync();
  const { v: again } = await openLayer(new MemoryStore(store.copy()));
  assert.equal(dump(again), dump(v2));
});

test('layer: while an exec holds the layer, background commits come once a second, not every 100 ms', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const store = new MemoryStore();
  const { p, v } = await openLayer(store);
  const frames = async (ms: number) => {
    t.mock.timers.tick(ms);
    await new Promise<void>((ok) => setImmediate(ok)); // the commit's promise chain
    return scanFrames(store.journal).frames.length;
  };
  const before = await frames(100); // whatever opening the layer left armed
  const release = p.hold();
  write(v, '/a', 'one', O_WRONLY | O_CREAT);
  assert.equal(await frames(500), before, 'no commit in the first half second of an exec');
  assert.equal(await frames(500), before + 1, 'one after a second');
  write(v, '/b', 'two', O_WRONLY | O_CREAT);
  release(); // a write after the exec ended waits the short time again
  assert.equal(await frames(100), before + 2);
  write(v, '/c', 'three', O_WRONLY | O_CREAT);
  assert.equal(await frames(50), before + 2);
  p.hold()(); // an exec that starts while a commit is pending pushes it back
  assert.equal(await frames(50), before + 2);
  assert.equal(await frames(50), before + 3, 'outside an exec: every 100 ms');
  await p.close();
});

// Integrity of a persistent layer (issue 14, items 13 and 15).
//
// 13: a damaged byte in the journal must never silently drop the commits
//     after it: the layer is refused with the file and byte offset, nothing
//     is written, and a repair keeps every commit before the damage plus a
//     copy of the damaged files. Checked for every header byte and a seeded
//     sample of payload bytes of a journal a real VM wrote, at the store
//     level, and end to end through AgentVM and `agentos repair`.
// 15: a process still writing a file when exec returns must not get its
//     partial output committed: after the host is SIGKILLed, every file holds
//     one of its closed contents (or what it held before the exec).
//
// The same file is the child of the crash test: AGENTOS_INTEGRITY_CHILD=<state dir>.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AgentVM } from '../../src/host/node/index.js';
import { isDir, isLnk, isReg } from '../../src/abi/stat.js';
import { O_CREAT, O_TRUNC, O_WRONLY } from '../../src/abi/fcntl.js';
import type { OpenFile } from '../../src/kernel/file.js';
import { MemFs, type MemInode } from '../../src/kernel/fs/memfs.js';
import { ROOT_CRED, Vfs } from '../../src/kernel/vfs/vfs.js';
import { Persister } from '../../src/kernel/persist/persister.js';
import { repairLayer } from '../../src/kernel/persist/repair.js';
import { MemorySnapshots, type LayerBytes, type LayerStore } from '../../src/kernel/persist/store.js';

const cli = fileURLToPath(new URL('../../../bin/agentos.js', import.meta.url));

/** A store over bytes in memory; repairs' copies are kept in `kept`. */
class BytesStore extends MemorySnapshots implements LayerStore {
  readonly where = 'memory';
  readonly repairHint = 'repairLayer(store)';
  kept: LayerBytes[] = [];
  constructor(public bytes: LayerBytes) {
    super();
  }
  async load(): Promise<LayerBytes> {
    return { checkpoint: this.bytes.checkpoint?.slice() ?? null, journal: this.bytes.journal.slice() };
  }
  async append(frame: readonly Uint8Array[]): Promise<void> {
    // A copy of its own: Buffer.concat may hand back a view into Node's shared pool (byteOffset ≠ 0).
    this.bytes = { ...this.bytes, journal: new Uint8Array(Buffer.concat([this.bytes.journal, ...frame])) };
  }
  async checkpoint(frame: readonly Uint8Array[]): Promise<void> {
    this.bytes = { checkpoint: new Uint8Array(Buffer.concat(frame)), journal: new Uint8Array(0) };
  }
  locate(part: string, offset: number): string {
    return `the ${part} at byte ${offset}`;
  }
  async keepDamaged(): Promise<string> {
    this.kept.push(await this.load());
    return 'kept';
  }
  async estimate(): Promise<null> {
    return null;
  }
  async close(): Promise<void> {}
}

/** The upper layer as text: path, type and mode, owner, and content hash or link target. */
function dump(fs: MemFs): string {
  const out: string[] = [];
  const walk = (dir: MemInode, path: string): void => {
    for (const [name, node] of [...dir.children!].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const p = `${path}/${name}`;
      let line = `${p} ${node.mode.toString(8)} ${node.uid}:${node.gid} n${node.nlink}`;
      if (isReg(node.mode)) line += ` ${node.size} ${createHash('sha1').update(node.data!.subarray(0, node.size)).digest('hex')}`;
      if (isLnk(node.mode)) line += ` -> ${node.target}`;
      out.push(line);
      if (isDir(node.mode)) walk(node, p);
    }
  };
  walk(fs.root(), '');
  return out.join('\n');
}

const open = (bytes: LayerBytes) => Persister.open(new BytesStore(bytes), 'image', () => new MemFs());

/** The journal's frame starts (header: u32 magic, u32 payload length, ...; 24 bytes), read independently of the code under test. */
function frameStarts(journal: Uint8Array): number[] {
  const dv = new DataView(journal.buffer, journal.byteOffset, journal.byteLength);
  const starts: number[] = [];
  for (let at = 0; at < journal.length; at += 24 + dv.getUint32(at + 4, true)) starts.push(at);
  return starts;
}

/**
 * A persistent VM's layer after a few execs of a small workload: files
 * written, appended and rewritten in the middle, links, renames, deletions,
 * modes; exec i ends by recording i in `last`.
 */
async function realLayer(state: string, execs = 6): Promise<void> {
  const vm = new AgentVM({ state });
  await vm.start();
  try {
    for (let i = 0; i < execs; i++) {
      const r = await vm.exec([
        `seq ${i * 100} ${i * 100 + 300} > f${i % 3}`,
        `echo "line ${i}" >> log`,
        `printf X | dd of=f${(i + 1) % 3} bs=1 seek=${10 + i} conv=notrunc status=none`,
        `mkdir -p d${i} && ln -sf ../f${i % 3} d${i}/link && ln -f log d${i}/hard`,
        `mv -f f${(i + 2) % 3} g${i} 2>/dev/null; rm -rf g${i - 2} d${i - 3}`,
        `chmod 6${i % 8}0 log && echo ${i} > last`,
      ].join(' && '));
      assert.equal(r.exitCode, 0, r.stderr);
    }
  } finally {
    await vm.stop();
  }
}

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

async function execOnce(state: string, cmd: string): Promise<string> {
  const vm = new AgentVM({ state });
  await vm.start();
  try {
    const r = await vm.exec(cmd);
    return r.stdout + r.stderr;
  } finally {
    await vm.stop();
  }
}

const tempDir = () => mkdtempSync(join(tmpdir(), 'agentos-integrity-'));

const role = process.env.AGENTOS_INTEGRITY_CHILD;
if (role) {
  // The crash child: files with a closed version, then background writers still writing when exec returns.
  const vm = new AgentVM({ state: role });
  await vm.start();
  await vm.exec('echo old > f; echo old > g');
  const r = await vm.exec([
    'mkfifo /tmp/p1 /tmp/p2 /tmp/p3',
    // f: rewritten in place by a writer that never closes it before the crash.
    '{ echo partial; echo > /tmp/p1; sleep 60; echo end; } > f &',
    // g: closed with new content during this exec, then reopened for appending.
    'echo new > g; { echo more; echo > /tmp/p2; sleep 60; } >> g &',
    // h: created by a writer still writing: it has no closed version yet.
    '{ echo fresh; echo > /tmp/p3; sleep 60; } > h &',
    'read x < /tmp/p1; read x < /tmp/p2; read x < /tmp/p3; echo started',
  ].join('\n'));
  process.stdout.write(r.stdout === 'started\n' ? 'ready\n' : `failed: ${r.stdout} ${r.stderr}\n`);
  setInterval(() => {}, 1 << 30);
} else {
  test('integrity: a damaged byte anywhere in a real journal is refused with its frame\'s offset; a repair keeps every commit before it and a copy', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    try {
      const state = join(dir, 'vm');
      await realLayer(state);
      const bytes: LayerBytes = { checkpoint: new Uint8Array(readFileSync(join(state, 'layer.ckpt'))), journal: new Uint8Array(readFileSync(join(state, 'layer.journal'))) };
      const starts = frameStarts(bytes.journal);
      assert.ok(starts.length >= 6, `${starts.length} frames`);
      // What the layer holds when the journal is cut before each frame: the expected repair.
      const before = new Map<number, string>();
      for (const at of starts) before.set(at, dump((await open({ ...bytes, journal: bytes.journal.slice(0, at) })).fs));
      // Every byte is refused with its frame's offset, and leaves the journal as it was; for a
      // seeded sample (two bytes of each frame's header, two of its payload, and more), a repair
      // keeps every commit before the damaged frame and a copy of the damaged bytes.
      const r = rng(14);
      const repairAt = new Set<number>();
      for (const [i, at] of starts.entries()) {
        const end = starts[i + 1] ?? bytes.journal.length;
        for (const pos of [at + Math.floor(r() * 24), at + Math.floor(r() * 24), at + 24 + Math.floor(r() * (end - at - 24)), end - 1]) repairAt.add(pos);
      }
      for (let n = 0; n < 20; n++) repairAt.add(Math.floor(r() * bytes.journal.length));
      for (let pos = 0; pos < bytes.journal.length; pos++) {
        const frame = starts.filter((s) => s <= pos).at(-1)!;
        const journal = bytes.journal.slice();
        journal[pos] ^= 1 + Math.floor(r() * 255);
        const store = new BytesStore({ checkpoint: bytes.checkpoint, journal });
        await assert.rejects(Persister.open(store, 'image', () => new MemFs()), (e: Error) => {
          assert.match(e.message, new RegExp(`journal is damaged at the journal at byte ${frame} \\(`), `byte ${pos}`);
          return true;
        });
        assert.deepEqual(store.bytes.journal, journal, `byte ${pos}: the damaged journal is left as it was`);
        if (!repairAt.has(pos)) continue;
        const report = await repairLayer(store);
        assert.equal(report.damage?.offset, frame);
        assert.deepEqual(store.kept[0].journal, journal, `byte ${pos}: the damaged copy is kept`);
        assert.equal(dump((await Persister.open(store, 'image', () => new MemFs())).fs), before.get(frame), `byte ${pos}: every commit before the damage`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('integrity: AgentVM refuses a damaged state directory, naming the file and byte; `agentos repair` keeps the commits before it and the damaged files', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    try {
      const state = join(dir, 'vm');
      await realLayer(state, 5);
      const file = join(state, 'layer.journal');
      const journal = readFileSync(file);
      const starts = frameStarts(journal);
      const k = Math.floor(starts.length / 2);
      // What the VM holds with the journal cut before frame k: what the repair must keep.
      const cut = join(dir, 'cut');
      cpSync(state, cut, { recursive: true });
      writeFileSync(join(cut, 'layer.journal'), journal.subarray(0, starts[k]));
      const look = 'cat last; ls -l --time-style=+ . d*; md5sum f* g* 2>/dev/null';
      const expected = await execOnce(cut, look);
      journal[starts[k] + 40] ^= 0x20;
      writeFileSync(file, journal);
      const ckpt = readFileSync(join(state, 'layer.ckpt'));
      const probe = new AgentVM({ state });
      await assert.rejects(probe.start().then(() => probe.stop()), new RegExp(`journal is damaged at ${file.replace(/[/.]/g, '\\$&')} at byte ${starts[k]} .*agentos repair --state`));
      assert.deepEqual(readFileSync(file), journal, 'nothing was written');
      assert.deepEqual(readFileSync(join(state, 'layer.ckpt')), ckpt);
      const rep = spawnSync(process.execPath, [cli, 'repair', '--state', state], { encoding: 'utf8', timeout: 60_000 });
      assert.equal(rep.status, 0, rep.stderr);
      assert.match(rep.stdout, new RegExp(`journal was damaged at .* at byte ${starts[k]} .*\n.*holds the ${k + 1} commit\\(s\\) before the damage; ${starts.length - k - 1} later commit\\(s\\) were set aside`));
      const kept = readdirSync(state).filter((n) => n.startsWith('damaged-'));
      assert.equal(kept.length, 1);
      assert.deepEqual(readFileSync(join(state, kept[0], 'layer.journal')), journal, 'the damaged journal is kept');
      assert.deepEqual(readFileSync(join(state, kept[0], 'layer.ckpt')), ckpt);
      assert.equal(await execOnce(state, look), expected, 'every commit before the damage, none after');
      const again = spawnSync(process.execPath, [cli, 'repair', '--state', state], { encoding: 'utf8', timeout: 60_000 });
      assert.match(again.stdout, /is intact; nothing was changed/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('integrity: a schema 1 layer (before per-frame header checksums) still opens, and is rewritten', async () => {
    const dir = tempDir();
    try {
      const state = join(dir, 'vm');
      await realLayer(state, 2);
      const v2 = { checkpoint: new Uint8Array(readFileSync(join(state, 'layer.ckpt'))), journal: new Uint8Array(readFileSync(join(state, 'layer.journal'))) };
      const expected = dump((await open(v2)).fs);
      // Re-frame each frame as schema 1: u32 length, u32 crc, payload (schema field 1).
      const toV1 = (buf: Uint8Array): Uint8Array => {
        const parts: Uint8Array[] = [];
        for (const at of frameStarts(buf)) {
          const dv = new DataView(buf.buffer, buf.byteOffset + at);
          const payload = buf.slice(at + 24, at + 24 + dv.getUint32(4, true));
          new DataView(payload.buffer).setUint32(4, 1, true);
          const head = new Uint8Array(8);
          new DataView(head.buffer).setUint32(0, payload.length, true);
          new DataView(head.buffer).setUint32(4, crc32(payload), true);
          parts.push(head, payload);
        }
        return Buffer.concat(parts);
      };
      const store = new BytesStore({ checkpoint: toV1(v2.checkpoint), journal: toV1(v2.journal) });
      const p = await Persister.open(store, 'image', () => new MemFs());
      assert.equal(dump(p.fs), expected);
      assert.equal(new DataView(store.bytes.checkpoint!.buffer).getUint32(0, true), 0x46534f41, 'rewritten as schema 2');
      assert.equal(store.bytes.journal.length, 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('integrity: a file open for writing is saved as of its last close, through a journal fold too; fsync(2) and sync(2) save it as it is', async () => {
    const store = new BytesStore({ checkpoint: null, journal: new Uint8Array(0) });
    const p = await Persister.open(store, 'image', () => new MemFs());
    const v = new Vfs(p.fs);
    const write = (f: OpenFile, text: string) => f.ops.write(f, new TextEncoder().encode(text));
    const openW = (path: string, flags: number) => v.open(ROOT_CRED, v.root(), path, O_WRONLY | flags, 0o644) as OpenFile;
    const saved = async (path: string) => {
      const q = await Persister.open(new BytesStore(await store.load()), 'image', () => new MemFs());
      const node = q.fs.root().children!.get(path.slice(1));
      return node ? new TextDecoder().decode(node.data!.subarray(0, node.size)) : null;
    };
    const a = openW('/a', O_CREAT);
    write(a, 'closed once');
    a.unref();
    const b = openW('/a', O_TRUNC);
    write(b, 'half');
    await p.sync();
    assert.equal(await saved('/a'), 'closed once', 'a commit takes the last close');
    // A fold rewrites the whole layer: the open file still goes in as of its last close.
    const big = openW('/big', O_CREAT);
    write(big, 'x'.repeat(9 << 20));
    big.unref();
    await p.sync();
    write(b, ' and more');
    write(openW('/c', O_CREAT), 'fresh');
    await p.sync();
    assert.ok(store.bytes.checkpoint!.length > 9 << 20 && store.bytes.journal.length === 0, 'the journal was folded');
    assert.equal(await saved('/a'), 'closed once');
    assert.equal(await saved('/c'), null, 'a file never closed has no version yet');
    await p.sync({ file: b.inode });
    assert.equal(await saved('/a'), 'half and more', 'fsync saves it as it is');
    write(b, '!');
    await p.sync({ all: true });
    assert.equal(await saved('/c'), 'fresh', 'sync saves every file as it is');
    b.unref();
    await p.sync();
    assert.equal(await saved('/a'), 'half and more!');
  });

  test('integrity: SIGKILL while background writers are mid-write: every file holds a closed version', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    try {
      const state = join(dir, 'vm');
      const c = spawn(process.execPath, [fileURLToPath(import.meta.url)], { env: { ...process.env, AGENTOS_INTEGRITY_CHILD: state }, stdio: ['ignore', 'pipe', 'inherit'] });
      const said = await new Promise<string>((ok) => {
        let out = '';
        c.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          if (out.includes('\n')) ok(out);
        });
        c.on('exit', () => ok(out));
      });
      assert.equal(said, 'ready\n');
      c.kill('SIGKILL');
      await new Promise((ok) => c.once('exit', ok));
      cpSync(state, join(dir, 'copy'), { recursive: true }); // what the crash left, for a look if this fails
      const vm = new AgentVM({ state });
      await vm.start();
      try {
        const r = await vm.exec('cat f; echo --; cat g; echo --; ls h 2>&1');
        assert.equal(r.stdout, 'old\n--\nnew\n--\nls: cannot access \'h\': No such file or directory\n');
      } finally {
        await vm.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/** CRC-32 (IEEE), for the schema 1 frames this test writes itself. */
function crc32(b: Uint8Array): number {
  let c = ~0;
  for (const x of b) {
    c ^= x;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return ~c >>> 0;
}

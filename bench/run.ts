// `npm run bench`: agentOS kernel figures beside native baselines measured in the same run.
// Built into dist/node/bench.js (next to the Node host's workers) by scripts/bench.mjs.

import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boot, type Machine } from '../src/host/node/index.js';
import { runPersistBenches } from './persist.js';
import { runPersistCostBenches } from './persist-cost.js';
export { runPlaygroundBenches } from './playground.js';
export { runBrowserVMBenches } from './browser-vm.js';
export { runEngineBenches } from './engines.js';
export { runBrowserHostBenches } from './browser-host.js';
import { runShellBenches } from './shell.js';
import { runFirstRunBenches } from './firstrun.js';
import { runDurableSteadyBenches } from './durable-steady.js';
import { runWasmBenches } from './wasm.js';
import { runTtyBenches } from './tty.js';
import { runPythonBenches } from './python.js';
import { runNodeRuntimeBenches } from './node.js';
import { runProcsBenches } from './procs.js';
import { runUserlandBenches } from './userland.js';
import { runGitBenches } from './git.js';
import { runBuildBenches } from './build.js';
import { runMemoryBenches } from './memory.js';
import { runAgentBenches } from './agents.js';
import { runSocketBenches } from './sockets.js';
import { runLinuxBenches } from './linux.js';
import { runLinuxRootBenches } from './linux-root.js';
export { idleVmsChild } from './memory.js';
import { isDir, isLnk, isReg } from '../src/abi/stat.js';
import { WEXITSTATUS } from '../src/abi/wait.js';
import { ImageFs, type ImageInode } from '../src/kernel/fs/imagefs.js';

export interface Figure {
  name: string;
  host: 'node' | 'browser';
  value: number;
  unit: string;
  goal: string;
  met: boolean | null;
  baseline: { name: string; value: number; unit: string } | null;
}

const JS = '/usr/libexec/agentos/js';
const here = new URL('.', import.meta.url);
const dec = new TextDecoder();

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

async function install(m: Machine, names: string[]): Promise<void> {
  for (const n of names) {
    const src = readFileSync(new URL(`../programs/${n}.js`, here), 'utf8');
    await m.writeFile(`/usr/local/bin/${n}`, `#!${JS}\n${src}`, 0o755);
  }
}

/** Native baseline: fs.statSync round trip in this process (a real Linux syscall). */
function nativeStatUs(n: number): number {
  for (let i = 0; i < 1000; i++) statSync('/tmp');
  const t0 = performance.now();
  for (let i = 0; i < n; i++) statSync('/tmp');
  return ((performance.now() - t0) * 1000) / n;
}

async function statBench(m: Machine): Promise<Figure> {
  const n = 50_000;
  const r = await m.run(['/usr/local/bin/statloop', String(n), '/tmp']);
  const us = Number(dec.decode(r.stdout));
  return {
    name: 'stat() round trip, process worker → kernel (mean)',
    host: 'node', value: us, unit: 'µs', goal: '≤ 20 µs', met: us <= 20,
    baseline: { name: 'native statSync', value: nativeStatUs(n), unit: 'µs' },
  };
}

/** One writer | wc -c pipeline through the kernel; returns MB/s. */
async function pipeOnce(m: Machine, total: number): Promise<number> {
  const [r, w] = (await m.syscall('pipe')) as [number, number];
  const [outR, outW] = (await m.syscall('pipe')) as [number, number];
  const t0 = performance.now();
  const writer = await m.spawn(['/usr/local/bin/writer', String(total), '65536'], { fds: [[1, w], [2, w]] });
  const reader = await m.spawn(['/usr/local/bin/wc'], { fds: [[0, r], [1, outW], [2, outW]] });
  for (const fd of [r, w, outW]) await m.syscall('close', fd);
  await m.wait(writer);
  await m.wait(reader);
  const secs = (performance.now() - t0) / 1000;
  const counted = Number(dec.decode((await m.syscall('read', outR, 100)) as Uint8Array));
  await m.syscall('close', outR);
  if (counted !== total) throw new Error(`pipe bench: wc counted ${counted}, expected ${total}`);
  return total / 1e6 / secs;
}

/** Median of 5 runs after one warm-up run (JIT-warm workers, as native tools are warm in the page cache). */
async function pipeBench(m: Machine): Promise<Figure> {
  const total = 256 * 1024 * 1024;
  await pipeOnce(m, total / 4);
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) runs.push(await pipeOnce(m, total));
  const mbps = quantile(runs, 0.5);
  const native: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t1 = performance.now();
    execFileSync('sh', ['-c', `dd if=/dev/zero bs=65536 count=${total / 65536} 2>/dev/null | cat > /dev/null`]);
    native.push(total / 1e6 / ((performance.now() - t1) / 1000));
  }
  return {
    name: 'pipe throughput, writer | wc -c, 64 KiB writes (256 MB, median of 5)',
    host: 'node', value: mbps, unit: 'MB/s', goal: '≥ 500 MB/s', met: mbps >= 500,
    baseline: { name: 'native dd bs=64k | cat, median of 3', value: quantile(native, 0.5), unit: 'MB/s' },
  };
}

/** `program`: a one-line JS program, or coreutils' `true` (a multicall bundle the js runtime keeps evaluated per worker, decision 0088). */
async function spawnBench(m: Machine, program: string, what: string): Promise<Figure> {
  const times: number[] = [];
  for (let i = 0; i < 220; i++) {
    const t0 = performance.now();
    const pid = await m.spawn([program]);
    const st = await m.wait(pid);
    if (WEXITSTATUS(st) !== 0) throw new Error('spawn bench: trivial process failed');
    if (i >= 20) times.push(performance.now() - t0);
  }
  const p50 = quantile(times, 0.5);
  const native: number[] = [];
  for (let i = 0; i < 120; i++) {
    const t0 = performance.now();
    spawnSync('/bin/true');
    if (i >= 20) native.push(performance.now() - t0);
  }
  return {
    name: `spawn → exit → waitpid, ${what}, warm pool (p50)`,
    host: 'node', value: p50, unit: 'ms', goal: '≤ 0.5 ms', met: p50 <= 0.5,
    baseline: { name: 'native spawnSync(/bin/true) p50', value: quantile(native, 0.5), unit: 'ms' },
  };
}

async function bootBench(): Promise<Figure> {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const m = await boot();
    await m.run([JS]);
    times.push(performance.now() - t0);
    await m.stop();
  }
  const t0 = performance.now();
  spawnSync(process.execPath, ['-e', '0']);
  const nodeStart = performance.now() - t0;
  const p50 = quantile(times, 0.5);
  return {
    name: 'boot to first process result (p50 of 5)',
    host: 'node', value: p50, unit: 'ms', goal: '≤ 150 ms', met: p50 <= 150,
    baseline: { name: 'native `node -e 0` start', value: nodeStart, unit: 'ms' },
  };
}

// ---------------------------------------------------------------- the base image

const median = (f: () => void, n: number): number => {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    f();
    times.push(performance.now() - t0);
  }
  return quantile(times, 0.5);
};

/** Unpack the image's tree into a host directory, for the native baselines. */
function extract(img: ImageFs, dir: string): void {
  const walk = (node: ImageInode, path: string): void => {
    for (const e of img.readdir(node)) {
      const child = img.lookup(node, e.name)!;
      const to = join(path, e.name);
      if (isDir(child.mode)) {
        mkdirSync(to);
        walk(child, to);
      } else if (isLnk(child.mode)) {
        symlinkSync(img.readlink(child), to);
      } else if (isReg(child.mode)) {
        writeFileSync(to, img.read(child, 0, child.size));
      }
      if (!isLnk(child.mode)) chmodSync(to, child.mode & 0o7777);
    }
  };
  mkdirSync(dir);
  walk(img.root(), dir);
}

/** Build time and size from the manifest `npm run build` wrote; index cost measured here. */
function imageBenches(): Figure[] {
  const manifest = JSON.parse(readFileSync(new URL('../image/manifest.json', here), 'utf8')) as {
    file: string; bytes: number; files: number; buildMs: number; gz: { bytes: number };
  };
  const bytes = new Uint8Array(readFileSync(new URL(`../image/${manifest.file}`, here)));
  const tree = mkdtempSync(join(tmpdir(), 'agentos-image-'));
  try {
    extract(new ImageFs(bytes), join(tree, 'root'));
    const tar = (z: boolean) => execFileSync('tar', [z ? 'czf' : 'cf', '-', '--owner=0', '--group=0', '-C', join(tree, 'root'), '.'],
      { maxBuffer: 1 << 30 });
    const tarTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      tar(false);
      tarTimes.push(performance.now() - t0);
    }
    const tgz = tar(true).length;

    // Opening an image + decoding its whole index, against JSON.parse of the same index as JSON.
    const walkAll = (): number => {
      const img = new ImageFs(bytes);
      let n = 0;
      const visit = (d: ImageInode): void => {
        for (const e of img.readdir(d)) {
          const c = img.lookup(d, e.name)!;
          n++;
          if (isDir(c.mode)) visit(c);
        }
      };
      visit(img.root());
      return n;
    };
    const index: unknown[] = [];
    const img = new ImageFs(bytes);
    const collect = (d: ImageInode, path: string): void => {
      for (const e of img.readdir(d)) {
        const c = img.lookup(d, e.name)!;
        index.push({ path: `${path}/${e.name}`, ino: c.ino, mode: c.mode, uid: c.uid, gid: c.gid, mtime: c.mtimeMs,
          size: c.size, off: c.off, len: c.len });
        if (isDir(c.mode)) collect(c, `${path}/${e.name}`);
      }
    };
    collect(img.root(), '');
    const json = JSON.stringify(index);
    for (let i = 0; i < 50; i++) walkAll();
    const walkUs = median(walkAll, 201) * 1000;
    for (let i = 0; i < 50; i++) JSON.parse(json);
    const jsonUs = median(() => JSON.parse(json), 201) * 1000;

    return [
      {
        name: `base image build in npm run build (${manifest.files} inodes)`,
        host: 'node', value: manifest.buildMs, unit: 'ms', goal: '≤ 1000 ms', met: manifest.buildMs <= 1000,
        baseline: { name: 'native tar cf of the same tree, median of 5', value: quantile(tarTimes, 0.5), unit: 'ms' },
      },
      {
        name: 'base image size (uncompressed, read in place)',
        host: 'node', value: manifest.bytes / 1024, unit: 'KiB', goal: '≤ 1024 KiB', met: manifest.bytes <= 1 << 20,
        baseline: { name: 'tar czf of the same tree', value: tgz / 1024, unit: 'KiB' },
      },
      {
        name: 'base image on the wire (the .img.gz a browser fetches and decompresses)',
        host: 'node', value: manifest.gz.bytes / 1024, unit: 'KiB', goal: '≤ 1.5 MB', met: manifest.gz.bytes <= 1_500_000,
        baseline: { name: 'tar czf of the same tree', value: tgz / 1024, unit: 'KiB' },
      },
      {
        name: 'base image open + decode whole index (median)',
        host: 'node', value: walkUs, unit: 'µs', goal: '≤ 1000 µs', met: walkUs <= 1000,
        baseline: { name: 'JSON.parse of the same index as JSON', value: jsonUs, unit: 'µs' },
      },
    ];
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

/** The Node-host groups, by the name `npm run bench -- --only=NAME` selects. */
const GROUPS: Record<string, () => Promise<Figure[]>> = {
  kernel: kernelBenches,
  shell: runShellBenches,
  firstrun: runFirstRunBenches,
  procs: runProcsBenches,
  persist: runPersistBenches,
  durable: runDurableSteadyBenches,
  'persist-cost': () => runPersistCostBenches(),
  wasm: runWasmBenches,
  tty: runTtyBenches,
  python: runPythonBenches,
  node: runNodeRuntimeBenches,
  userland: runUserlandBenches,
  git: runGitBenches,
  build: runBuildBenches,
  memory: runMemoryBenches,
  agents: runAgentBenches,
  sockets: runSocketBenches,
  linux: runLinuxBenches,
  'linux-root': runLinuxRootBenches,
};

async function kernelBenches(): Promise<Figure[]> {
  const figures: Figure[] = [];
  figures.push(...imageBenches());
  figures.push(await bootBench());
  const m = await boot();
  try {
    await install(m, ['statloop', 'writer', 'wc', 'exit']);
    figures.push(await statBench(m));
    figures.push(await pipeBench(m));
    figures.push(await spawnBench(m, '/usr/local/bin/exit', 'trivial process'));
    figures.push(await spawnBench(m, '/opt/agentos/bin/true', 'coreutils true'));
  } finally {
    await m.stop();
  }
  return figures;
}

/** All groups in order, or only the named ones. */
export async function runNodeBenches(only: string[] | null = null, skip: string[] = []): Promise<Figure[]> {
  const unknown = [...(only ?? []), ...skip].filter((g) => !(g in GROUPS));
  if (unknown.length) throw new Error(`bench: no group ${unknown.join(', ')} (groups: ${Object.keys(GROUPS).join(', ')})`);
  const figures: Figure[] = [];
  for (const [name, run] of Object.entries(GROUPS)) if ((!only || only.includes(name)) && !skip.includes(name)) figures.push(...(await run()));
  return figures;
}

export function printTable(figures: Figure[]): void {
  const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
  const rows = figures.map((f) => [
    f.host, f.name, `${fmt(f.value)} ${f.unit}`, f.goal, f.met === null ? '—' : f.met ? 'yes' : 'NO',
    f.baseline ? `${fmt(f.baseline.value)} ${f.baseline.unit} (${f.baseline.name})` : '—',
  ]);
  const head = ['host', 'benchmark', 'agentOS', 'goal', 'met', 'baseline, same run'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

export function saveResults(figures: Figure[], file: string): void {
  mkdirSync(new URL('.', `file://${file}`).pathname, { recursive: true });
  const meta = { date: new Date().toISOString(), node: process.version, cpus: execFileSync('nproc').toString().trim() };
  writeFileSync(file, JSON.stringify({ ...meta, figures }, null, 2) + '\n');
}

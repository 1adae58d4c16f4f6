// `npm run bench`: agentOS kernel figures beside native baselines measured in the same run.
// Built into dist/node/bench.js (next to the Node host's workers) by scripts/bench.mjs.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { boot, type Machine } from '../src/host/node/index.js';
import { WEXITSTATUS } from '../src/abi/wait.js';

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

async function spawnBench(m: Machine): Promise<Figure> {
  const times: number[] = [];
  for (let i = 0; i < 220; i++) {
    const t0 = performance.now();
    const pid = await m.spawn(['/usr/local/bin/exit']);
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
    name: 'spawn → exit → waitpid, trivial process, warm pool (p50)',
    host: 'node', value: p50, unit: 'ms', goal: '≤ 1 ms', met: p50 <= 1,
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

export async function runNodeBenches(): Promise<Figure[]> {
  const figures: Figure[] = [];
  figures.push(await bootBench());
  const m = await boot();
  try {
    await install(m, ['statloop', 'writer', 'wc', 'exit']);
    figures.push(await statBench(m));
    figures.push(await pipeBench(m));
    figures.push(await spawnBench(m));
  } finally {
    await m.stop();
  }
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

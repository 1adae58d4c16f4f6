// Userland figures (issue 5): common text tools on the same bytes in the VM and
// on the host, each agentOS time as a ratio to the native tool in the same run.
// The inputs are made once on the host (seeded, so every run sees the same
// data) and written both into the VM and into a host temp dir; each answer is
// checked against the native one, since a fast wrong answer is worth nothing.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentVM } from '../src/host/node/index.js';
import type { Figure } from './run.js';

const MB = 1_000_000;
const RUNS = 3;
const GOAL = 5;
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'foo', 'bar', 'baz', 'quux', 'lorem', 'ipsum', 'dolor', 'sit'];

interface Case {
  name: string;
  /** Run in the input directory on both sides; its output is compared. */
  cmd: string;
  /** For commands writing a file: prints a digest of it afterwards (not timed). */
  check?: string;
}

const CASES: Case[] = [
  { name: 'grep -c over 10 MB', cmd: 'grep -c foo text' },
  { name: 'sort -n of 1 M lines', cmd: 'sort -n nums > out', check: 'md5sum < out | cut -c 1-32' },
  { name: 'wc -l over 100 MB', cmd: 'wc -l big' },
  { name: 'sed s///g over 10 MB', cmd: 'sed s/foo/FOO/g text > out', check: 'md5sum < out | cut -c 1-32' },
  { name: "awk '{s+=$1} END {print s}' over 1 M lines", cmd: "awk '{s+=$1} END {print s}' nums" },
];

/** xorshift32: the same pseudo-random inputs on every run. */
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

function inputs(): Record<string, Buffer> {
  const r = rng(0x5eed);
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < 10 * MB; i++) {
    const words = Array.from({ length: 6 }, () => WORDS[Math.floor(r() * WORDS.length)]);
    const line = `${i} ${words.join(' ')} ${Math.floor(r() * 1e9)}\n`;
    lines.push(line);
    size += line.length;
  }
  const text = Buffer.from(lines.join(''));
  const nums = Buffer.from(Array.from({ length: 1_000_000 }, () => `${Math.floor(r() * 2e6) - 1e6}\n`).join(''));
  return { text, nums, big: Buffer.concat(Array.from({ length: 10 }, () => text)) };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function native(cmd: string, cwd: string): { ms: number; out: string } {
  const t0 = performance.now();
  // The VM's locale, so both sides do the same work.
  const r = spawnSync('bash', ['-c', cmd], { cwd, env: { ...process.env, LC_ALL: 'C.UTF-8' }, maxBuffer: 64 * MB });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`userland bench, native: ${cmd}: ${r.stderr}`);
  return { ms, out: r.stdout.toString() };
}

async function agentos(vm: AgentVM, cmd: string): Promise<{ ms: number; out: string }> {
  const t0 = performance.now();
  const r = await vm.exec(cmd);
  const ms = performance.now() - t0;
  if (r.exitCode !== 0) throw new Error(`userland bench, agentOS: ${cmd}: ${r.stderr}`);
  return { ms, out: r.stdout };
}

export async function runUserlandBenches(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'agentos-bench-userland-'));
  const vm = new AgentVM({ cwd: '/tmp' });
  const figures: Figure[] = [];
  try {
    await vm.start();
    for (const [name, data] of Object.entries(inputs())) {
      writeFileSync(join(dir, name), data);
      await vm.writeFile(`/tmp/${name}`, data);
    }
    for (const c of CASES) {
      const ours: number[] = [];
      const theirs: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const a = await agentos(vm, c.cmd);
        const n = native(c.cmd, dir);
        const got = c.check ? (await agentos(vm, c.check)).out : a.out;
        const want = c.check ? native(c.check, dir).out : n.out;
        if (got !== want) throw new Error(`userland bench: ${c.cmd}: agentOS gave ${JSON.stringify(got)}, native ${JSON.stringify(want)}`);
        ours.push(a.ms);
        theirs.push(n.ms);
      }
      const value = median(ours);
      const base = median(theirs);
      const ratio = value / base;
      figures.push({
        name: `${c.name}, median of ${RUNS}: ${ratio.toFixed(2)}× native`,
        host: 'node', value, unit: 'ms', goal: `≤ ${GOAL}× native`, met: ratio <= GOAL,
        baseline: { name: `native ${c.cmd.split(' ')[0]}, median of ${RUNS}`, value: base, unit: 'ms' },
      });
    }
  } finally {
    await vm.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

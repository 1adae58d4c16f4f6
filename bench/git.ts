// git figures (issue 16): `git status` on a 2,000-file repository in the VM
// and with the native git on the host, on the same files and commits. The
// first status after the commit (which may have to re-check files whose
// stat data is racy) and the steady state (median of several) are reported,
// each beside native git's; the outputs must agree.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentVM } from '../src/host/node/index.js';
import type { Figure } from './run.js';

const FILES = 2000;
const RUNS = 5;
const GOAL = 10;
const ENV = 'GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@example.com GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@example.com GIT_AUTHOR_DATE="@1700000000 +0000" GIT_COMMITTER_DATE="@1700000000 +0000"';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function files(): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < FILES; i++) out.push([`d${i % 20}/s${i % 7}/f${i}.txt`, `file ${i}\n${'x'.repeat(i % 97)}\n`]);
  return out;
}

function native(cmd: string, cwd: string): { ms: number; out: string } {
  const t0 = performance.now();
  const r = spawnSync('bash', ['-c', cmd], { cwd, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: cwd, LC_ALL: 'C' }, maxBuffer: 1 << 26 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`git bench, native: ${cmd}: ${r.stderr}`);
  return { ms, out: r.stdout.toString() };
}

async function agentos(vm: AgentVM, cmd: string): Promise<{ ms: number; out: string }> {
  const t0 = performance.now();
  const r = await vm.exec(cmd, { cwd: '/tmp/repo' });
  const ms = performance.now() - t0;
  if (r.exitCode !== 0) throw new Error(`git bench, agentOS: ${cmd}: ${r.stderr}`);
  return { ms, out: r.stdout };
}

export async function runGitBenches(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'agentos-bench-git-'));
  const vm = new AgentVM({ cwd: '/tmp' });
  const figures: Figure[] = [];
  try {
    await vm.start();
    const all = files();
    const dirs = [...new Set(all.map(([rel]) => rel.slice(0, rel.lastIndexOf('/'))))];
    await vm.exec(`mkdir -p ${dirs.map((d) => `/tmp/repo/${d}`).join(' ')}`);
    for (const [rel, text] of all) {
      mkdirSync(join(dir, rel, '..'), { recursive: true });
      writeFileSync(join(dir, rel), text);
      await vm.writeFile(`/tmp/repo/${rel}`, text);
    }
    const setup = `git init -q && git add -A && ${ENV} git commit -qm files && git rev-parse HEAD`;
    const a = await agentos(vm, setup);
    const n = native(setup, dir);
    if (a.out !== n.out) throw new Error(`git bench: the commits differ (agentOS ${a.out.trim()}, native ${n.out.trim()})`);
    const status = 'git status';
    const first = { ours: await agentos(vm, status), theirs: native(status, dir) };
    if (first.ours.out !== first.theirs.out) throw new Error(`git bench: git status differs:\n${first.ours.out}\n---\n${first.theirs.out}`);
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      ours.push((await agentos(vm, status)).ms);
      theirs.push(native(status, dir).ms);
    }
    const figure = (name: string, value: number, base: number, baseName: string): Figure => ({
      name: `${name}: ${(value / base).toFixed(1)}× native`,
      host: 'node', value, unit: 'ms', goal: `≤ ${GOAL}× native`, met: value / base <= GOAL,
      baseline: { name: baseName, value: base, unit: 'ms' },
    });
    figures.push(figure(`git status, ${FILES.toLocaleString('en')} files, first run after the commit`, first.ours.ms, first.theirs.ms, 'native git, first run'));
    figures.push(figure(`git status, ${FILES.toLocaleString('en')} files, steady state (median of ${RUNS})`, median(ours), median(theirs), `native git, median of ${RUNS}`));
  } finally {
    await vm.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

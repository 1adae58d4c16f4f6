// Memory per idle VM (decision 0055): VMs booted in a fresh Node process, each
// having run one exec, then idle past the pool's idle period (runner.ts), as
// process RSS over what the process held before the first boot; beside a bare
// Node process. Also exec('true') and a first spawn on an idle VM, against the
// same VMs before they went idle.

import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { AgentVM } from '../src/host/node/index.js';
import { POOL_IDLE_MS } from '../src/kernel/runner.js';
import type { Figure } from './run.js';

const FEW = 20;
const MANY = 100;
const MiB = 2 ** 20;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

async function timed(vm: AgentVM, cmd: string): Promise<number> {
  const t0 = performance.now();
  const r = await vm.exec(cmd);
  if (r.exitCode !== 0) throw new Error(`memory bench: ${cmd} failed: ${r.stderr}`);
  return performance.now() - t0;
}

/** RSS once garbage is collected (the child runs with --expose-gc). */
async function settledRss(): Promise<number> {
  (globalThis as { gc?: () => void }).gc?.();
  await sleep(100);
  return process.memoryUsage().rss;
}

export interface IdleVmsResult {
  bareRss: number;
  perVmFew: number;
  rssMany: number;
  threadsPerVm: number;
  trueWarm: number;
  trueIdle: number;
  spawnWarm: number;
  spawnIdle: number;
}

/** Run in a fresh process (idleVmsBench spawns it): boot FEW, then MANY VMs, each measured idle. */
export async function idleVmsChild(): Promise<IdleVmsResult> {
  const threads = () => readdirSync('/proc/self/task').length;
  const r0 = await settledRss();
  const t0 = threads();
  const vms: AgentVM[] = [];
  const boot = async (n: number) => {
    while (vms.length < n) {
      const vm = new AgentVM();
      await vm.start();
      await timed(vm, 'true');
      vms.push(vm);
    }
  };
  try {
    await boot(FEW);
    await sleep(500); // the pools have filled (250 ms after boot)
    const binTrue = (await vms[0].exec('type -P true')).stdout.trim(); // a program, not the builtin
    const trueWarm = median(await serial(vms, (vm) => timed(vm, 'true')));
    const spawnWarm = median(await serial(vms, (vm) => timed(vm, binTrue)));
    await sleep(POOL_IDLE_MS + 1000);
    const perVmFew = ((await settledRss()) - r0) / FEW;
    const threadsPerVm = (threads() - t0) / FEW;
    const trueIdle = median(await serial(vms, (vm) => timed(vm, 'true')));
    const spawnIdle = median(await serial(vms, (vm) => timed(vm, binTrue)));
    await boot(MANY);
    await sleep(POOL_IDLE_MS + 1000);
    const rssMany = await settledRss();
    // Every one of them still answers.
    await Promise.all(vms.map(async (vm) => {
      if ((await vm.exec('echo ok')).stdout !== 'ok\n') throw new Error('memory bench: an idle VM did not answer');
    }));
    return { bareRss: r0, perVmFew, rssMany, threadsPerVm, trueWarm, trueIdle, spawnWarm, spawnIdle };
  } finally {
    await Promise.all(vms.map((vm) => vm.stop()));
  }
}

async function serial(vms: AgentVM[], f: (vm: AgentVM) => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (const vm of vms) out.push(await f(vm));
  return out;
}

/** RSS of a Node process that does nothing. */
function bareNodeRss(): number {
  const r = spawnSync(process.execPath, ['-e', 'console.log(process.memoryUsage().rss)'], { encoding: 'utf8' });
  return Number(r.stdout);
}

export async function runMemoryBenches(): Promise<Figure[]> {
  const bench = new URL('./bench.js', import.meta.url).href;
  const child = spawnSync(process.execPath, ['--expose-gc', '-e',
    `import(${JSON.stringify(bench)}).then((b) => b.idleVmsChild()).then((r) => { console.log(JSON.stringify(r)); process.exit(0); });`],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 });
  if (child.status !== 0) throw new Error('memory bench: the child process failed');
  const r = JSON.parse(child.stdout.trim().split('\n').pop()!) as IdleVmsResult;
  const bare = bareNodeRss() / MiB;
  const perVm = r.perVmFew / MiB;
  const many = r.rssMany / MiB;
  return [
    {
      name: `memory per idle VM (${FEW} VMs in one process, ${r.threadsPerVm} threads each; RSS over the process before)`,
      host: 'node', value: perVm, unit: 'MB', goal: '≤ 25 MB', met: perVm <= 25,
      baseline: { name: 'a bare Node process, RSS', value: bare, unit: 'MB' },
    },
    {
      name: `${MANY} idle VMs in one process: RSS`,
      host: 'node', value: many, unit: 'MB', goal: `≤ ${MANY * 25} MB, all answer`, met: many <= MANY * 25,
      baseline: { name: 'the same process before its first VM', value: r.bareRss / MiB, unit: 'MB' },
    },
    {
      name: `exec('true') on an idle VM (pool given back; median of ${FEW})`,
      host: 'node', value: r.trueIdle, unit: 'ms', goal: '≈ before idle', met: null,
      baseline: { name: 'same VMs before idle', value: r.trueWarm, unit: 'ms' },
    },
    {
      name: `the true program (not the builtin) on an idle VM: first spawn, a cold worker (median of ${FEW})`,
      host: 'node', value: r.spawnIdle, unit: 'ms', goal: '—', met: null,
      baseline: { name: 'same VMs before idle, warm pool', value: r.spawnWarm, unit: 'ms' },
    },
  ];
}

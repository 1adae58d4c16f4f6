// Shell and exec-protocol figures (issue: agentos-shell), beside just-bash
// (the peer, same workloads in the same run) and native bash.

import { spawnSync } from 'node:child_process';
import { AgentVM } from '../src/host/node/index.js';
import type { Figure } from './run.js';

const LOOP = 'i=0; while [ $i -lt 10000 ]; do i=$((i+1)); done; echo $i';

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

interface Peer {
  exec(cmd: string): Promise<{ stdout: string; exitCode: number }>;
}

async function justBash(): Promise<Peer | null> {
  try {
    const { Bash } = (await import('just-bash')) as { Bash: new () => Peer };
    return new Bash();
  } catch {
    return null;
  }
}

async function p50(run: () => Promise<unknown>, n: number, warm = 20): Promise<number> {
  for (let i = 0; i < warm; i++) await run();
  const t: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await run();
    t.push(performance.now() - t0);
  }
  return quantile(t, 0.5);
}

export async function runShellBenches(): Promise<Figure[]> {
  const figures: Figure[] = [];
  const peer = await justBash();

  // Boot to the first exec result, then the loop's first run in that VM (cold code), p50 of 5 fresh VMs.
  const boots: number[] = [];
  const firstLoops: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const vm = new AgentVM();
    await vm.start();
    await vm.exec('true');
    boots.push(performance.now() - t0);
    const t1 = performance.now();
    const r = await vm.exec(LOOP);
    firstLoops.push(performance.now() - t1);
    if (r.stdout !== '10000\n') throw new Error(`shell bench: loop gave ${JSON.stringify(r)}`);
    await vm.stop();
  }
  const nativeBoot: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    spawnSync('bash', ['-c', 'true']);
    nativeBoot.push(performance.now() - t0);
  }
  const boot = quantile(boots, 0.5);
  figures.push({
    name: 'VM boot to first exec() result (p50 of 5)', host: 'node', value: boot, unit: 'ms',
    goal: '≤ 80 ms', met: boot <= 80,
    baseline: { name: 'native spawn of bash -c true', value: quantile(nativeBoot, 0.5), unit: 'ms' },
  });
  const nativeLoops: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    spawnSync('bash', ['-c', LOOP]);
    nativeLoops.push(performance.now() - t0);
  }
  const native = quantile(nativeLoops, 0.5);
  const firstLoop = quantile(firstLoops, 0.5);
  figures.push({
    name: '10,000-iteration shell loop, first run in a fresh VM (p50 of 5 VMs)', host: 'node', value: firstLoop, unit: 'ms',
    goal: '≤ 1.2× bash', met: firstLoop <= 1.2 * native,
    baseline: { name: 'native bash -c, p50 of 5', value: native, unit: 'ms' },
  });

  const vm = new AgentVM();
  await vm.start();
  try {
    // The userland's own wc (coreutils), as users run it.
    const check = await vm.exec('echo hi | wc -c');
    if (check.stdout !== '3\n') throw new Error(`shell bench: echo hi | wc -c gave ${JSON.stringify(check)}`);

    const truth = await p50(() => vm.exec('true'), 300);
    const peerTrue = peer ? await p50(() => peer.exec('true'), 300) : null;
    figures.push({
      name: "exec('true') round trip (p50)", host: 'node', value: truth, unit: 'ms', goal: '≤ 0.5 ms', met: truth <= 0.5,
      baseline: peerTrue === null ? null : { name: 'just-bash, same run', value: peerTrue, unit: 'ms' },
    });

    const pipe = await p50(() => vm.exec('echo hi | wc -c'), 200);
    const peerPipe = peer ? await p50(() => peer.exec('echo hi | wc -c'), 200) : null;
    figures.push({
      name: "exec('echo hi | wc -c') (p50)", host: 'node', value: pipe, unit: 'ms', goal: '≤ 2 ms', met: pipe <= 2,
      baseline: peerPipe === null ? null : { name: 'just-bash, same run', value: peerPipe, unit: 'ms' },
    });

    const r = await vm.exec(LOOP);
    if (r.stdout !== '10000\n') throw new Error(`shell bench: loop gave ${JSON.stringify(r)}`);
    const loop = await p50(() => vm.exec(LOOP), 5, 1);
    const peerLoop = peer ? await p50(() => peer.exec(LOOP), 3, 1) : null;
    figures.push({
      name: '10,000-iteration shell loop, steady state (p50 of 5)', host: 'node', value: loop, unit: 'ms', goal: '≤ 1.2× bash',
      met: loop <= 1.2 * native, baseline: { name: `native bash (just-bash: ${peerLoop === null ? 'n/a' : `${peerLoop.toFixed(0)} ms`})`, value: native, unit: 'ms' },
    });
  } finally {
    await vm.stop();
  }
  return figures;
}

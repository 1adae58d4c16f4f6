// Python runtime figures (decision 0015): `python3 -c pass`, spawn to exit,
// the first run on a fresh machine, warm runs after a short idle moment (the
// worker has restored the next interpreter meanwhile, as between commands
// typed or sent by an agent) and back to back, beside the host's own
// `python3 -c pass` measured in the same run.

import { spawnSync } from 'node:child_process';
import { boot, type Machine } from '../src/host/node/index.js';
import { WEXITSTATUS } from '../src/abi/wait.js';
import type { Figure } from './run.js';

const RUNS = 20;
const WARM = 2;
const IDLE_MS = 500;

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

async function once(m: Machine): Promise<number> {
  const t0 = performance.now();
  const st = await m.wait(await m.spawn(['/opt/agentos/bin/python3', '-c', 'pass']));
  if (WEXITSTATUS(st) !== 0) throw new Error('python bench: python3 -c pass failed');
  return performance.now() - t0;
}

/** The host's CPython, if there is one: spawn to exit, p50. */
function nativeP50(runs: number): number | null {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = spawnSync('python3', ['-c', 'pass']);
    if (r.status !== 0) return null;
    times.push(performance.now() - t0);
  }
  return quantile(times, 0.5);
}

export async function runPythonBenches(): Promise<Figure[]> {
  const m = await boot();
  try {
    const first = await once(m);
    const warm: number[] = [];
    const backToBack: number[] = [];
    for (let i = 0; i < RUNS + WARM; i++) {
      await new Promise((r) => setTimeout(r, IDLE_MS));
      const t = await once(m);
      if (i >= WARM) warm.push(t);
    }
    for (let i = 0; i < RUNS; i++) backToBack.push(await once(m));
    const p50 = quantile(warm, 0.5);
    const native = nativeP50(RUNS);
    const baseline = native === null ? null : { name: 'host python3 -c pass (spawn → exit), p50', value: native, unit: 'ms' };
    return [
      { name: 'python3 -c pass, first run on a fresh machine (spawn → exit)', host: 'node', value: first, unit: 'ms', goal: '≤ 3000 ms', met: first <= 3000, baseline },
      { name: `python3 -c pass, warm: ${IDLE_MS} ms after the previous one (spawn → exit, p50 of ${RUNS})`, host: 'node', value: p50, unit: 'ms', goal: '≤ 100 ms', met: p50 <= 100, baseline },
      { name: `python3 -c pass, back to back (spawn → exit, p50 of ${RUNS})`, host: 'node', value: quantile(backToBack, 0.5), unit: 'ms', goal: '—', met: null, baseline },
    ];
  } finally {
    await m.stop();
  }
}

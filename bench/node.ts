// node runtime figures (decision 0016): `node -e 0` spawn to exit in the VM,
// beside the host's own `node -e 0` (a fresh OS process each run).

import { spawnSync } from 'node:child_process';
import { boot } from '../src/host/node/index.js';
import { WEXITSTATUS } from '../src/abi/wait.js';
import type { Figure } from './run.js';

const RUNS = 100;
const WARM = 10;
const HOST_RUNS = 20;

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/** p50 of spawn → exit for `node ARGS` in a fresh VM. */
export async function nodeSpawnP50(args: string[], runs = RUNS): Promise<number> {
  const m = await boot();
  try {
    const times: number[] = [];
    for (let i = 0; i < runs + WARM; i++) {
      const t0 = performance.now();
      const st = await m.wait(await m.spawn(['/usr/bin/node', ...args]));
      if (WEXITSTATUS(st) !== 0) throw new Error(`node bench: node ${args.join(' ')} failed`);
      if (i >= WARM) times.push(performance.now() - t0);
    }
    return quantile(times, 0.5);
  } finally {
    await m.stop();
  }
}

export async function runNodeRuntimeBenches(): Promise<Figure[]> {
  const host: number[] = [];
  for (let i = 0; i < HOST_RUNS; i++) {
    const t0 = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    host.push(performance.now() - t0);
  }
  const hostP50 = quantile(host, 0.5);
  const p50 = await nodeSpawnP50(['-e', '0']);
  const req = await nodeSpawnP50(['-e', "require('fs'); require('path'); require('util'); require('events'); require('stream')"]);
  return [
    {
      name: `node -e 0, spawn → exit (p50 of ${RUNS})`,
      host: 'node', value: p50, unit: 'ms', goal: '≤ 20 ms', met: p50 <= 20,
      baseline: { name: `host node -e 0, a new OS process (p50 of ${HOST_RUNS})`, value: hostP50, unit: 'ms' },
    },
    {
      name: `node -e "require fs, path, util, events, stream", spawn → exit (p50 of ${RUNS})`,
      host: 'node', value: req, unit: 'ms', goal: '—', met: null,
      baseline: { name: 'host node -e 0 (as above)', value: hostP50, unit: 'ms' },
    },
  ];
}

// The exec rows' first run on the Node host (issue 18): the first exec('true')
// and the first `echo hi | wc -c` on a fresh VM (cold code), beside the same
// first commands on a new just-bash Bash() in this process. Their steady state
// and under-load figures are bench/shell.ts's.

import { AgentVM } from '../src/host/node/index.js';
import type { Figure } from './run.js';

const FRESH = 5;

interface Shell {
  exec(cmd: string): Promise<{ stdout: string; exitCode: number }>;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(sh: Shell, cmd: string, want: string): Promise<number> {
  const t0 = performance.now();
  const r = await sh.exec(cmd);
  const ms = performance.now() - t0;
  if (r.exitCode !== 0 || r.stdout !== want) throw new Error(`firstrun bench: ${cmd} gave ${JSON.stringify(r)}`);
  return ms;
}

/** p50 over `FRESH` new shells of the first `true`, then the first pipeline, each shell made and ended by `make`. */
async function firsts(make: () => Promise<[Shell, () => Promise<void>]>): Promise<{ truth: number; pipe: number }> {
  const truth: number[] = [];
  const pipe: number[] = [];
  for (let i = 0; i < FRESH; i++) {
    const [sh, done] = await make();
    try {
      truth.push(await timed(sh, 'true', ''));
      pipe.push(await timed(sh, 'echo hi | wc -c', '3\n'));
    } finally {
      await done();
    }
  }
  return { truth: median(truth), pipe: median(pipe) };
}

export async function runFirstRunBenches(): Promise<Figure[]> {
  const vm = await firsts(async () => {
    const v = new AgentVM();
    await v.start();
    return [v, () => v.stop()];
  });
  let peer: { truth: number; pipe: number } | null = null;
  try {
    const { Bash } = (await import('just-bash')) as { Bash: new () => Shell };
    peer = await firsts(async () => [new Bash(), async () => {}]);
  } catch {
    // just-bash missing: the rows stand without a peer.
  }
  const beside = (v: number | undefined) => (v === undefined ? null : { name: 'just-bash, first exec on a new Bash()', value: v, unit: 'ms' });
  return [
    {
      name: `exec('true'), first run on a fresh VM (p50 of ${FRESH} VMs)`, host: 'node', value: vm.truth, unit: 'ms',
      goal: '≤ just-bash', met: peer ? vm.truth <= peer.truth : null, baseline: beside(peer?.truth),
    },
    {
      name: `exec('echo hi | wc -c'), first run on a fresh VM (p50 of ${FRESH} VMs)`, host: 'node', value: vm.pipe, unit: 'ms',
      goal: '≤ 1.5 ms', met: vm.pipe <= 1.5, baseline: beside(peer?.pipe),
    },
  ];
}

// Many processes (issue 18): background jobs and a loop of an external
// command, each beside native bash running the same script in the same run.

import { spawnSync } from 'node:child_process';
import { AgentVM } from '../src/host/node/index.js';
import type { Figure } from './run.js';

const BG = 100;
const LOOP = 1000;
/** The userland's `true` in the VM (the image has no /bin/true); /bin/true natively. */
const VM_TRUE = '/opt/agentos/bin/true';

/** Native bash: milliseconds of `body`, timed by bash itself (what runs after it, e.g. a kill, is not counted). */
function bashMs(body: string, after = ''): number {
  // time reports on the shell's stderr: that goes to the pipe, the body's stdout to /dev/null.
  const r = spawnSync('bash', ['-c', `TIMEFORMAT=%R; { time { ${body}; }; } 2>&1 >/dev/null; ${after}`], { encoding: 'utf8' });
  const last = r.stdout.trim().split('\n').at(-1) ?? '';
  const s = Number(last);
  if (!last || !Number.isFinite(s)) throw new Error(`procs bench: bash gave ${JSON.stringify(r.stdout + r.stderr)}`);
  return s * 1000;
}

async function timed(vm: AgentVM, cmd: string): Promise<number> {
  const t0 = performance.now();
  const r = await vm.exec(cmd);
  if (r.exitCode !== 0) throw new Error(`procs bench: ${cmd} failed: ${r.stderr}`);
  return performance.now() - t0;
}

export async function runProcsBenches(): Promise<Figure[]> {
  const vm = new AgentVM();
  await vm.start();
  try {
    await vm.exec('true');
    const bgCmd = `for i in $(seq ${BG}); do sleep 10 & done`;
    const bg = await timed(vm, bgCmd);
    await vm.exec('kill $(jobs -p); wait');
    const bgWait = await timed(vm, `for i in $(seq ${BG}); do sleep 0 & done; wait`);
    const loopCmd = `for i in $(seq ${LOOP}); do ${VM_TRUE}; done`;
    const loopFirst = await timed(vm, loopCmd);
    const loop = await timed(vm, loopCmd);
    const nativeBg = bashMs(bgCmd, 'kill $(jobs -p)');
    const nativeBgWait = bashMs(`for i in $(seq ${BG}); do sleep 0 & done; wait`);
    const nativeLoop = bashMs(`for i in $(seq ${LOOP}); do /bin/true; done`);
    return [
      {
        name: `${BG} × \`sleep 10 &\` from one exec (exec returns: all spawned)`, host: 'node', value: bg, unit: 'ms',
        goal: '≤ 1000 ms', met: bg <= 1000, baseline: { name: 'native bash, same loop', value: nativeBg, unit: 'ms' },
      },
      {
        name: `${BG} × \`sleep 0 &\`, then wait (all started and ended)`, host: 'node', value: bgWait, unit: 'ms',
        goal: '—', met: null, baseline: { name: 'native bash, same loop', value: nativeBgWait, unit: 'ms' },
      },
      {
        name: `${LOOP} × ${VM_TRUE} loop, first run in a VM`, host: 'node', value: loopFirst, unit: 'ms',
        goal: '≤ 2000 ms', met: loopFirst <= 2000, baseline: { name: 'native bash, 1,000 × /bin/true', value: nativeLoop, unit: 'ms' },
      },
      {
        name: `${LOOP} × ${VM_TRUE} loop, steady state`, host: 'node', value: loop, unit: 'ms',
        goal: '≤ 2000 ms', met: loop <= 2000, baseline: { name: 'native bash, 1,000 × /bin/true', value: nativeLoop, unit: 'ms' },
      },
    ];
  } finally {
    await vm.stop();
  }
}

// The `linux` runtime (decisions 0067, 0074, 0080): a real Linux guest (v86) resumed from the
// package's saved state. The first run on a fresh machine (read the package's files, resume the
// state, the first job: set the clock, mount the 9p share) and warm `linux -c true` (the worker's
// guest kept), beside `sh -c true` in agentOS and on the host, in the same run; the same two in
// Chromium through BrowserVM (the package fetched from the page's origin), beside exec('true')
// there. Skipped, with a line saying so, when dist/linux is not built (node
// scripts/build-linux.mjs); the Chromium rows also when Chromium is not installed.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { boot, type Machine } from '../src/host/node/index.js';
import { BrowserVM, ENGINE_DEFAULTS } from '../src/host/playwright/index.js';
import { WEXITSTATUS } from '../src/abi/wait.js';
import type { Figure } from './run.js';

const RUNS = 10;
const LINUX = '/opt/agentos/bin/linux';

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function once(m: Machine, argv: string[]): Promise<number> {
  const t0 = performance.now();
  const st = await m.wait(await m.spawn(argv));
  if (WEXITSTATUS(st) !== 0) throw new Error(`linux bench: ${argv.join(' ')} failed (${WEXITSTATUS(st)})`);
  return performance.now() - t0;
}

function nativeP50(): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    spawnSync('sh', ['-c', 'true']);
    times.push(performance.now() - t0);
  }
  return p50(times);
}

export async function runLinuxBenches(): Promise<Figure[]> {
  if (!existsSync(new URL('../linux/package.json', import.meta.url))) {
    console.log('bench: linux skipped (dist/linux is not built: node scripts/build-linux.mjs)');
    return [];
  }
  return [...await nodeFigures(), ...await chromiumFigures()];
}

async function chromiumFigures(): Promise<Figure[]> {
  if (!existsSync(ENGINE_DEFAULTS.chromium.path)) {
    console.log('bench: linux in Chromium left out (no Chromium)');
    return [];
  }
  const vm = new BrowserVM();
  await vm.start();
  try {
    const timed = async (cmd: string) => {
      const t0 = performance.now();
      const r = await vm.exec(cmd);
      if (r.exitCode !== 0) throw new Error(`linux bench: ${cmd} failed in Chromium (${r.exitCode}): ${r.stderr}`);
      return performance.now() - t0;
    };
    await timed('agentos-software install linux >/dev/null');
    const first = await timed('linux true');
    const warm: number[] = [];
    const exec: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      warm.push(await timed("linux -c 'true'"));
      exec.push(await timed('true'));
    }
    const baseline = { name: `exec('true') in the same page, interleaved, p50`, value: p50(exec), unit: 'ms' };
    return [
      {
        name: 'chromium: linux true, first run in a fresh page (read the image from the VM\'s files, resume, first job; exec → result)', host: 'browser', value: first, unit: 'ms',
        goal: '≤ 1500 ms', met: first <= 1500, baseline,
      },
      {
        name: `chromium: linux -c true, warm guest if the same worker runs it (exec → result, p50 of ${RUNS})`, host: 'browser', value: p50(warm), unit: 'ms',
        goal: '≤ 100 ms', met: p50(warm) <= 100, baseline,
      },
    ];
  } catch (err) {
    console.log(`bench: linux in Chromium failed, left out: ${(err as Error).message}`);
    return [];
  } finally {
    await vm.stop();
  }
}

async function nodeFigures(): Promise<Figure[]> {
  const m = await boot();
  try {
    const install = await m.run(['/opt/agentos/bin/agentos-software', 'install', 'linux']);
    if (install.exitCode !== 0) throw new Error(`linux bench: install failed: ${new TextDecoder().decode(install.stderr)}`);
    const first = await once(m, [LINUX, 'true']);
    const warm: number[] = [];
    const shell: number[] = [];
    // Interleaved, so that the load of the moment weighs on both alike.
    for (let i = 0; i < RUNS; i++) {
      warm.push(await once(m, [LINUX, '-c', 'true']));
      shell.push(await once(m, ['/bin/sh', '-c', 'true']));
    }
    const native = { name: 'host sh -c true (spawn → exit), p50', value: nativeP50(), unit: 'ms' };
    return [
      {
        name: 'linux true, first run on a fresh machine (read the image, resume, first job; spawn → exit)', host: 'node', value: first, unit: 'ms',
        goal: '≤ 1500 ms', met: first <= 1500, baseline: native,
      },
      {
        name: `linux -c true, warm guest (spawn → exit, p50 of ${RUNS})`, host: 'node', value: p50(warm), unit: 'ms',
        goal: '≤ 100 ms', met: p50(warm) <= 100, baseline: native,
      },
      {
        name: `agentOS sh -c true, interleaved with the above (spawn → exit, p50 of ${RUNS})`, host: 'node', value: p50(shell), unit: 'ms',
        goal: '—', met: null, baseline: native,
      },
    ];
  } finally {
    await m.stop();
  }
}

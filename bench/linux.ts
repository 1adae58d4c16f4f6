// The `linux` runtime (decisions 0067, 0074, 0080, 0085): a real Linux guest (v86) resumed from the
// package's saved state. Resume to first output (`linux true`: read the package's files, compile
// v86, resume, the first job: clock, 9p mount) with a cold cache and a warm one, warm `linux -c
// true` (the worker's guest kept), and a 10,000-iteration busybox sh loop in the guest; each beside
// agentOS's shell and the host's in the same run. Node: the first run on a fresh machine, then on a
// second one (the package is a host directory; the second finds it in the host's page cache).
// Chromium, through BrowserVM: the install (a fetch from the page's origin) and the first run in a
// fresh page, then the first run in a second page on the same profile, which finds the package in
// IndexedDB. Skipped, with a line saying so, when dist/linux is not built (node
// scripts/build-linux.mjs); the Chromium rows also when Chromium is not installed.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boot, type Machine } from '../src/host/node/index.js';
import { BrowserVM, ENGINE_DEFAULTS } from '../src/host/playwright/index.js';
import { WEXITSTATUS } from '../src/abi/wait.js';
import type { Figure } from './run.js';

const RUNS = 10;
const LOOP_RUNS = 3;
const LINUX = '/opt/agentos/bin/linux';
const LOOP = 'i=0; while [ $i -lt 10000 ]; do i=$((i+1)); done; echo $i';

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function once(m: Machine, argv: string[]): Promise<number> {
  const t0 = performance.now();
  const st = await m.wait(await m.spawn(argv));
  if (WEXITSTATUS(st) !== 0) throw new Error(`linux bench: ${argv.join(' ')} failed (${WEXITSTATUS(st)})`);
  return performance.now() - t0;
}

function nativeP50(script: string, runs = RUNS): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    spawnSync('sh', ['-c', script]);
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

/** The rows of one host, from its timings (ms) and the same run's baselines. */
function figures(host: 'node' | 'browser', t: {
  cold: number; warmCache: number; warm: number[]; loop: number[];
  shell: { name: string; value: number }; shellLoop: number;
}): Figure[] {
  const pre = host === 'browser' ? 'chromium: ' : '';
  const ms = (name: string, value: number) => ({ name, value, unit: 'ms' });
  const native = ms('host sh -c true (spawn → exit), p50', nativeP50('true'));
  const nativeLoop = nativeP50(LOOP, LOOP_RUNS);
  const [coldWhat, warmWhat] = host === 'browser'
    ? ['install (fetch from the origin) + first run in a fresh page', 'first run in a second page: the package in IndexedDB']
    : ['first run on a fresh machine', 'first run on a second fresh machine: the package in the host\'s page cache'];
  return [
    {
      name: `${pre}linux true, resume to first output, cold cache (${coldWhat}; read the image, compile v86, resume, first job)`,
      host, value: t.cold, unit: 'ms', goal: '—', met: null, baseline: native,
    },
    {
      name: `${pre}linux true, resume to first output, warm cache (${warmWhat})`,
      host, value: t.warmCache, unit: 'ms', goal: '≤ 1500 ms', met: t.warmCache <= 1500, baseline: native,
    },
    {
      name: `${pre}linux -c true, warm guest (p50 of ${RUNS})`, host, value: p50(t.warm), unit: 'ms',
      goal: '≤ 100 ms', met: p50(t.warm) <= 100, baseline: ms(t.shell.name, t.shell.value),
    },
    {
      name: `${pre}10,000-iteration busybox sh loop in the guest (linux -c, warm guest; p50 of ${LOOP_RUNS})`, host, value: p50(t.loop), unit: 'ms',
      goal: '—', met: null, baseline: ms(`host sh, same loop, p50 of ${LOOP_RUNS}`, nativeLoop),
    },
    {
      name: `${pre}10,000-iteration loop in agentOS's sh, interleaved with the guest's (p50 of ${LOOP_RUNS})`, host, value: t.shellLoop, unit: 'ms',
      goal: '—', met: null, baseline: ms(`host sh, same loop, p50 of ${LOOP_RUNS}`, nativeLoop),
    },
  ];
}

async function chromiumFigures(): Promise<Figure[]> {
  if (!existsSync(ENGINE_DEFAULTS.chromium.path)) {
    console.log('bench: linux in Chromium left out (no Chromium)');
    return [];
  }
  // Two pages on one profile and origin: the second finds the package in IndexedDB (a warm cache).
  const profile = mkdtempSync(join(tmpdir(), 'agentos-linux-bench-'));
  const options = { persist: 'linux-bench', userDataDir: profile, port: await freePort() };
  let vm = new BrowserVM(options);
  try {
    await vm.start();
    const timed = async (cmd: string) => {
      const t0 = performance.now();
      const r = await vm.exec(cmd);
      if (r.exitCode !== 0) throw new Error(`linux bench: ${cmd} failed in Chromium (${r.exitCode}): ${r.stderr}`);
      return performance.now() - t0;
    };
    const cold = await timed('agentos-software install linux >/dev/null') + await timed('linux true');
    const warm: number[] = [];
    const exec: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      warm.push(await timed("linux -c 'true'"));
      exec.push(await timed('true'));
    }
    const loop: number[] = [];
    const shellLoop: number[] = [];
    for (let i = 0; i < LOOP_RUNS; i++) {
      loop.push(await timed(`linux -c '${LOOP}' >/dev/null`));
      shellLoop.push(await timed(`sh -c '${LOOP}' >/dev/null`));
    }
    await vm.stop();
    vm = new BrowserVM(options);
    await vm.start();
    const warmCache = await timed('linux true');
    return figures('browser', {
      cold, warmCache, warm, loop, shellLoop: p50(shellLoop),
      shell: { name: `exec('true') in the same page, interleaved, p50`, value: p50(exec) },
    });
  } catch (err) {
    console.log(`bench: linux in Chromium failed, left out: ${(err as Error).message}`);
    return [];
  } finally {
    await vm.stop();
    rmSync(profile, { recursive: true, force: true });
  }
}

async function nodeFigures(): Promise<Figure[]> {
  // The first run on a fresh machine, twice: the second machine finds the package's files in the
  // host's page cache and the bench's own code warm (the package is a host directory: no other cache).
  const cold = await firstRun();
  const m = await installed();
  try {
    const warmCache = await once(m, [LINUX, 'true']);
    const warm: number[] = [];
    const shell: number[] = [];
    // Interleaved, so that the load of the moment weighs on both alike.
    for (let i = 0; i < RUNS; i++) {
      warm.push(await once(m, [LINUX, '-c', 'true']));
      shell.push(await once(m, ['/bin/sh', '-c', 'true']));
    }
    const loop: number[] = [];
    const shellLoop: number[] = [];
    for (let i = 0; i < LOOP_RUNS; i++) {
      loop.push(await once(m, [LINUX, '-c', LOOP]));
      shellLoop.push(await once(m, ['/bin/sh', '-c', LOOP]));
    }
    return figures('node', {
      cold, warmCache, warm, loop, shellLoop: p50(shellLoop),
      shell: { name: `agentOS sh -c true, interleaved (spawn → exit), p50 of ${RUNS}`, value: p50(shell) },
    });
  } finally {
    await m.stop();
  }
}

async function installed(): Promise<Machine> {
  const m = await boot();
  const install = await m.run(['/opt/agentos/bin/agentos-software', 'install', 'linux']);
  if (install.exitCode !== 0) throw new Error(`linux bench: install failed: ${new TextDecoder().decode(install.stderr)}`);
  return m;
}

async function firstRun(): Promise<number> {
  const m = await installed();
  try {
    return await once(m, [LINUX, 'true']);
  } finally {
    await m.stop();
  }
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => ok(port));
    });
  });
}

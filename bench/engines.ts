// BrowserVM in each engine (issue 21): boot to the first exec() result (the
// browser launched for it), exec('true') p50, and the 1,000-file durable write
// in a persistent VM (its layer in IndexedDB), and a snapshot restore of a
// 10 MB layer (the snapshot shared, not copied: decision 0068) beside writing
// that snapshot — Firefox and WebKit beside Chromium, measured in the same
// run. An engine not installed is left out.

import { existsSync } from 'node:fs';
import { BrowserVM, ENGINE_DEFAULTS, ENGINES, type Engine } from '../src/host/playwright/index.js';
import { THOUSAND_FILES } from './persist.js';
import type { Figure } from './run.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function time(f: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
}

interface EngineFigures {
  boot: number;
  exec: number;
  files: number;
  /** Restore of a 10 MB layer: the first, then the median of three more. */
  restoreFirst: number;
  restore: number;
  /** Taking that snapshot (the 10 MB frame written once), median. */
  snapshot: number;
}

const TEN_MB = 'cd /home/user && rm -rf d* && for i in $(seq 100); do head -c 102400 /dev/urandom > r$i; done';

async function measure(browser: Engine): Promise<EngineFigures> {
  const boots: number[] = [];
  for (let i = 0; i < 3; i++) {
    const vm = new BrowserVM({ browser });
    boots.push(await time(async () => {
      await vm.start();
      await vm.exec('true');
    }));
    await vm.stop();
  }
  const vm = new BrowserVM({ browser, persist: `bench-${Date.now()}` });
  await vm.start();
  try {
    for (let i = 0; i < 10; i++) await vm.exec('true');
    const execs: number[] = [];
    for (let i = 0; i < 100; i++) execs.push(await time(() => vm.exec('true')));
    const files = await time(async () => {
      await vm.exec(`cd /home/user && ${THOUSAND_FILES}`);
      await vm.sync();
    });
    await vm.exec(TEN_MB);
    const snapshots: number[] = [];
    const restores: number[] = [];
    for (let i = 0; i < 4; i++) {
      snapshots.push(await time(() => vm.snapshot(`ten${i}`)));
      await vm.exec('rm /home/user/r*');
      restores.push(await time(() => vm.restore(`ten${i}`)));
    }
    const check = (await vm.exec('cat /home/user/r* | wc -c')).stdout.trim();
    if (check !== '10240000') throw new Error(`restore bench: ${check} bytes after the restore`);
    return { boot: median(boots), exec: median(execs), files, restoreFirst: restores[0], restore: median(restores.slice(1)), snapshot: median(snapshots) };
  } finally {
    await vm.stop();
  }
}

export async function runEngineBenches(): Promise<Figure[]> {
  const got = new Map<Engine, EngineFigures>();
  for (const e of ENGINES) {
    if (!existsSync(ENGINE_DEFAULTS[e].path)) {
      console.log(`bench: ${e} is not installed (${ENGINE_DEFAULTS[e].pkg}): left out`);
      continue;
    }
    console.log(`bench: BrowserVM in ${e}...`);
    try {
      got.set(e, await measure(e));
    } catch (err) {
      // One engine's failure leaves its rows out, not the whole bench (decision 0058 lists what is open).
      console.log(`bench: ${e} failed, left out: ${(err as Error).message}`);
    }
  }
  const base = got.get('chromium');
  const beside = (e: Engine, what: string, v: number | undefined) => (e === 'chromium' || v === undefined ? null : { name: `same, Chromium: ${what}`, value: v, unit: 'ms' });
  return [...got].flatMap(([e, f]) => [
    { name: `${e}: BrowserVM launch (browser, page, boot) to first exec() result (p50 of 3)`, host: 'browser' as const, value: f.boot, unit: 'ms', goal: '—', met: null, baseline: beside(e, 'launch', base?.boot) },
    { name: `${e}: exec('true') through BrowserVM (p50 of 100)`, host: 'browser' as const, value: f.exec, unit: 'ms', goal: '≤ 10 ms', met: f.exec <= 10, baseline: beside(e, 'exec p50', base?.exec) },
    { name: `${e}: 1,000 × 1 KiB files created (shell loop) and durable (persistent VM, sync)`, host: 'browser' as const, value: f.files, unit: 'ms', goal: '≤ 300 ms', met: f.files <= 300, baseline: beside(e, '1,000 files', base?.files) },
    { name: `${e}: snapshot restore of a 10 MB layer (durable), first run`, host: 'browser' as const, value: f.restoreFirst, unit: 'ms', goal: '≤ 20 ms', met: f.restoreFirst <= 20, baseline: { name: 'taking that snapshot (10 MB written once), median', value: f.snapshot, unit: 'ms' } },
    { name: `${e}: snapshot restore of a 10 MB layer (durable), steady state (median of 3)`, host: 'browser' as const, value: f.restore, unit: 'ms', goal: '≤ 20 ms', met: f.restore <= 20, baseline: beside(e, 'restore', base?.restore) },
  ]);
}

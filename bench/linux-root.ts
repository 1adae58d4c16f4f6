// `linux --root debian` (decisions 0079, 0083): python3 started from the Debian root, served
// lazily over 9p. After the guest is resumed (`linux true`), the first `python3 -c pass` in the
// root (its bodies read from the repository, the guest's caches cold) and a second one (the
// worker's guest and bodies kept, if the same worker runs it), beside the host's own `python3 -c pass` of the same run. In Node
// and in Chromium (BrowserVM, the root read from the page's origin). Skipped, with a line saying
// so, when dist/linux-root is not built (node scripts/build-linux-root.mjs).

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { boot } from '../src/host/node/index.js';
import { BrowserVM, ENGINE_DEFAULTS } from '../src/host/playwright/index.js';
import type { Figure } from './run.js';

const PYTHON = ['linux', '--root', 'debian', '-c', 'python3 -c pass'];
const SHOWN = `linux --root debian -c 'python3 -c pass'`;

/** The host's `python3 -c pass` (median of 5), or `sh -c true` where the host has no python3. */
function nativeBaseline(): Figure['baseline'] {
  const python = spawnSync('python3', ['-c', 'pass']).status === 0;
  const argv = python ? ['python3', '-c', 'pass'] : ['sh', '-c', 'true'];
  const times = Array.from({ length: 5 }, () => {
    const t0 = performance.now();
    spawnSync(argv[0], argv.slice(1));
    return performance.now() - t0;
  }).sort((a, b) => a - b);
  return { name: `host ${argv.join(' ')} (spawn → exit), p50`, value: times[2], unit: 'ms' };
}

/** `exec` times `linux true` (resume), then the first and the second python3 in the root. */
async function measure(exec: (argv: string[]) => Promise<number>, host: Figure['host']): Promise<Figure[]> {
  await exec(['linux', 'true']);
  const first = await exec(PYTHON);
  const warm = await exec(PYTHON);
  const baseline = nativeBaseline();
  const where = host === 'node' ? 'node' : 'chromium';
  return [
    {
      name: `${where}: ${SHOWN}, first after the guest's resume (bodies read from the repository)`, host, value: first, unit: 'ms',
      goal: '—', met: null, baseline,
    },
    {
      name: `${where}: ${SHOWN}, again (warm guest and bodies if the same worker runs it)`, host, value: warm, unit: 'ms',
      goal: '—', met: null, baseline,
    },
  ];
}

export async function runLinuxRootBenches(): Promise<Figure[]> {
  if (!existsSync(new URL('../linux-root/manifest.gzip', import.meta.url))) {
    console.log('bench: linux --root debian skipped (dist/linux-root is not built: node scripts/build-linux-root.mjs)');
    return [];
  }
  const figures: Figure[] = [];
  const m = await boot();
  try {
    const run = async ([name, ...args]: string[]): Promise<number> => {
      const t0 = performance.now();
      const r = await m.run([`/opt/agentos/bin/${name}`, ...args]);
      if (r.exitCode !== 0) throw new Error(`linux-root bench: ${name} ${args.join(' ')} failed (${r.exitCode}): ${new TextDecoder().decode(r.stderr)}`);
      return performance.now() - t0;
    };
    await run(['agentos-software', 'install', 'linux']);
    figures.push(...await measure(run, 'node'));
  } finally {
    await m.stop();
  }
  if (!existsSync(ENGINE_DEFAULTS.chromium.path)) {
    console.log('bench: linux --root debian in Chromium left out (no Chromium)');
    return figures;
  }
  const vm = new BrowserVM();
  await vm.start();
  try {
    const exec = async (argv: string[]): Promise<number> => {
      const cmd = argv.map((a) => `'${a}'`).join(' ');
      const t0 = performance.now();
      const r = await vm.exec(cmd);
      if (r.exitCode !== 0) throw new Error(`${cmd} failed in Chromium (${r.exitCode}): ${r.stderr}`);
      return performance.now() - t0;
    };
    await exec(['agentos-software', 'install', 'linux']);
    figures.push(...await measure(exec, 'browser'));
  } catch (err) {
    console.log(`bench: linux --root debian in Chromium failed, left out: ${(err as Error).message}`);
  } finally {
    await vm.stop();
  }
  return figures;
}

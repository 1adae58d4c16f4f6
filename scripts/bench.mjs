#!/usr/bin/env node
// `npm run bench`: build, then measure the kernel on the Node host and in Chromium
// (and BrowserVM in Firefox and WebKit beside Chromium),
// each figure beside a native baseline from the same run. Prints a table and
// writes bench/results/latest.json. `--node-only` skips the browser;
// `--only=userland[,shell,...]` runs just those Node-host groups (no browser, and
// the results file is left alone); `--skip=build[,git,...]` leaves those groups out
// (`browser-vm` and `engines` name the last two stages; the results file is left
// alone); `--engines-only` runs just BrowserVM in each engine (the results file is
// left alone).
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const onlyArg = process.argv.find((a) => a.startsWith('--only='));
const only = onlyArg ? onlyArg.slice('--only='.length).split(',').filter(Boolean) : null;
const nodeOnly = process.argv.includes('--node-only') || only !== null;
const enginesOnly = process.argv.includes('--engines-only');
const skipArg = process.argv.find((a) => a.startsWith('--skip='));
const skip = skipArg ? skipArg.slice('--skip='.length).split(',').filter(Boolean) : [];
const PORT = Number(process.env.AGENTOS_BENCH_PORT ?? 4175);

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed`);
}

run(process.execPath, ['scripts/build.mjs', ...(nodeOnly ? ['--node-only'] : [])]);
// The bench sits beside the Node host's workers so their URLs resolve.
await esbuild.build({
  entryPoints: { bench: 'bench/run.ts' },
  outdir: join(ROOT, 'dist/node'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  absWorkingDir: ROOT,
  logLevel: 'warning',
  // The peer baseline is loaded from node_modules as is; playwright-core finds its files by path.
  external: ['just-bash', 'playwright-core'],
});
const bench = await import(pathToFileURL(join(ROOT, 'dist/node/bench.js')).href);
// The peer in the page: just-bash's browser build beside the harness (dist/web/bench/), its gzip
// commands left out (they import node:zlib; the bench runs none of them).
if (!nodeOnly) {
  await esbuild.build({
    stdin: { contents: "export { Bash } from 'just-bash';", resolveDir: ROOT, loader: 'js' },
    outfile: join(ROOT, 'dist/web/bench/just-bash.js'),
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    logLevel: 'warning',
    plugins: [{
      name: 'no-zlib',
      setup(b) {
        b.onResolve({ filter: /^node:zlib$/ }, () => ({ path: 'zlib', namespace: 'no-zlib' }));
        b.onLoad({ filter: /.*/, namespace: 'no-zlib' }, () => ({
          contents: "const no = () => { throw new Error('zlib: not in the bench build'); }; export const gunzipSync = no, gzipSync = no; export const constants = {};",
          loader: 'js',
        }));
      },
    }],
  });
}

const figures = [];
if (enginesOnly) {
  console.log('bench: BrowserVM in each engine (Chromium, Firefox, WebKit)...');
  figures.push(...(await bench.runEngineBenches()));
} else {
  console.log('\nbench: Node host...');
  figures.push(...(await bench.runNodeBenches(only, skip.filter((g) => g !== 'browser-vm' && g !== 'engines'))));
}

if (!nodeOnly && !enginesOnly) {
  console.log('bench: browser host (Chromium)...');
  figures.push(...(await browserBenches(figures)));
  if (!skip.includes('browser-vm')) {
    console.log('bench: BrowserVM (Playwright from Node)...');
    figures.push(...(await bench.runBrowserVMBenches()));
  }
  if (!skip.includes('engines')) {
    console.log('bench: BrowserVM in each engine (Chromium, Firefox, WebKit)...');
    figures.push(...(await bench.runEngineBenches()));
  }
}

console.log('');
bench.printTable(figures);
if (only || enginesOnly || skip.length) process.exit(0);
const out = join(ROOT, 'bench/results/latest.json');
bench.saveResults(figures, out);
console.log(`\nbench: results written to ${out}`);
process.exit(0);

async function browserBenches(nodeFigures) {
  const { chromium } = await import('@playwright/test');
  const server = spawn(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'preview', '--host', '127.0.0.1', '--port', String(PORT), '--strictPort'],
    { cwd: ROOT, stdio: 'ignore' },
  );
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    for (let i = 0; ; i++) {
      try {
        await page.goto(`http://127.0.0.1:${PORT}/e2e/harness/`);
        break;
      } catch (e) {
        if (i > 50) throw e;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    await page.waitForFunction(() => globalThis.__agentos !== undefined);
    const us = await page.evaluate(() => globalThis.__agentos.statRoundTrip(50000));
    const bootTimes = [];
    for (let i = 0; i < 5; i++) bootTimes.push(await page.evaluate(() => globalThis.__agentos.bootToFirstResult()));
    bootTimes.sort((a, b) => a - b);
    const execTimes = [];
    for (let i = 0; i < 5; i++) execTimes.push(await page.evaluate(() => globalThis.__agentos.bootToFirstExec()));
    execTimes.sort((a, b) => a - b);
    const persist = await page.evaluate(() => globalThis.__agentos.persistBench());
    const hostRows = await bench.runBrowserHostBenches(browser, page, nodeFigures);
    const onNode = (prefix) => {
      const f = nodeFigures.find((n) => n.name.startsWith(prefix));
      return f ? { name: 'same, Node host', value: f.value, unit: f.unit } : null;
    };
    const playground = await bench.runPlaygroundBenches(await browser.newPage(), `http://127.0.0.1:${PORT}`);
    const py = await page.evaluate(() => globalThis.__agentos.pythonStarts(10, 500));
    const pyWarm = py.slice(1).sort((a, b) => a - b)[5];
    const nodePyWarm = nodeFigures.find((f) => f.name.startsWith('python3 -c pass, warm'));
    const nodeExec = nodeFigures.find((f) => f.name.startsWith('VM boot to first exec'));
    const nativeStat = nodeFigures.find((f) => f.name.startsWith('stat()'))?.baseline ?? null;
    const nodeBoot = nodeFigures.find((f) => f.name.startsWith('boot'));
    return [
      {
        name: 'stat() round trip, process worker → kernel (mean)',
        host: 'browser', value: us, unit: 'µs', goal: '≤ 50 µs', met: us <= 50, baseline: nativeStat,
      },
      {
        name: 'boot to first process result, warm cache (p50 of 5)',
        host: 'browser', value: bootTimes[2], unit: 'ms', goal: '≤ 100 ms', met: bootTimes[2] <= 100,
        baseline: nodeBoot ? { name: 'same, Node host', value: nodeBoot.value, unit: 'ms' } : null,
      },
      {
        name: 'VM boot to first exec() result, image cached (p50 of 5)',
        host: 'browser', value: execTimes[2], unit: 'ms', goal: '≤ 60 ms', met: execTimes[2] <= 60,
        baseline: nodeExec ? { name: 'same, Node host', value: nodeExec.value, unit: 'ms' } : null,
      },
      {
        name: 'python3 -c pass, first run on a fresh machine (spawn → exit)',
        host: 'browser', value: py[0], unit: 'ms', goal: '≤ 3000 ms', met: py[0] <= 3000, baseline: null,
      },
      {
        name: 'python3 -c pass, warm: 500 ms after the previous one (spawn → exit, p50 of 10)',
        host: 'browser', value: pyWarm, unit: 'ms', goal: '≤ 100 ms', met: pyWarm <= 100,
        baseline: nodePyWarm ? { name: 'same, Node host', value: nodePyWarm.value, unit: 'ms' } : null,
      },
      {
        name: '1,000 × 1 KiB files created (shell loop) and durable',
        host: 'browser', value: persist.files, unit: 'ms', goal: '≤ 200 ms', met: persist.files <= 200,
        baseline: onNode('1,000 × 1 KiB files'),
      },
      {
        name: 'sequential write of 100 MB to the layer, durable',
        host: 'browser', value: 100 / (persist.write100 / 1000), unit: 'MB/s', goal: '≥ 150 MB/s', met: 100 / (persist.write100 / 1000) >= 150,
        baseline: onNode('sequential write of 100 MB'),
      },
      {
        name: 'reopen a VM whose layer holds 10,000 files, to first exec',
        host: 'browser', value: persist.reopen, unit: 'ms', goal: '≤ 300 ms', met: persist.reopen <= 300,
        baseline: onNode('reopen a VM'),
      },
      {
        name: 'snapshot restore of a 10 MB layer (durable)',
        host: 'browser', value: persist.restore, unit: 'ms', goal: '≤ 20 ms', met: persist.restore <= 20,
        baseline: onNode('snapshot restore'),
      },
      ...hostRows,
      ...playground,
    ];
  } finally {
    await browser.close();
    server.kill();
  }
}

// WebAssembly runtime figures (decisions 0013, 0021): a WASI hello world, spawn
// to exit, beside node:wasi running the same module in this process; and LLVM
// (75 MB, from the clang package when it is built) on workers that never ran
// it, which the kernel's shared module cache makes as fast as a second run.

import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { WASI } from 'node:wasi';
import { boot } from '../src/host/node/index.js';
import { WEXITSTATUS } from '../src/abi/wait.js';
import type { Figure } from './run.js';

const RUNS = 200;
const WARM = 20;
const FRESH_RUNS = 40;

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/** node:wasi on the same bytes, stdout to /dev/null: per run, instantiate + _start (and compile unless given a module). */
function nodeWasiP50(bytes: Uint8Array<ArrayBuffer>, module: WebAssembly.Module | null, runs: number): number {
  const devnull = openSync('/dev/null', 'w');
  const times: number[] = [];
  try {
    for (let i = 0; i < runs + WARM; i++) {
      const t0 = performance.now();
      const wasi = new WASI({ version: 'preview1', args: ['hello'], env: {}, stdout: devnull, returnOnExit: true });
      const mod = module ?? new WebAssembly.Module(bytes);
      const instance = new WebAssembly.Instance(mod, wasi.getImportObject() as WebAssembly.Imports);
      if (wasi.start(instance) !== 0) throw new Error('wasm bench: node:wasi run failed');
      if (i >= WARM) times.push(performance.now() - t0);
    }
  } finally {
    closeSync(devnull);
  }
  return quantile(times, 0.5);
}

export async function runWasmBenches(): Promise<Figure[]> {
  const bytes = new Uint8Array(readFileSync(new URL('../wasm/hello.wasm', import.meta.url)));
  const m = await boot();
  try {
    await m.writeFile('/usr/local/bin/hello', bytes, 0o755);
    const once = async (path: string) => {
      const t0 = performance.now();
      const st = await m.wait(await m.spawn([path]));
      if (WEXITSTATUS(st) !== 0) throw new Error('wasm bench: hello failed');
      return performance.now() - t0;
    };
    const cached: number[] = [];
    for (let i = 0; i < RUNS + WARM; i++) {
      const t = await once('/usr/local/bin/hello');
      if (i >= WARM) cached.push(t);
    }
    // A new file each run: no worker has it compiled.
    const fresh: number[] = [];
    for (let i = 0; i < FRESH_RUNS; i++) {
      await m.writeFile(`/tmp/hello-${i}`, bytes, 0o755);
      fresh.push(await once(`/tmp/hello-${i}`));
    }
    const p50 = quantile(cached, 0.5);
    return [
      ...(await llvmBenches(m)),
      ...(await rubyBenches(m)),
      {
        name: `WASI hello world (${Math.round(bytes.byteLength / 1024)} KiB), spawn → exit, second+ run (p50 of ${RUNS})`,
        host: 'node', value: p50, unit: 'ms', goal: '≤ 5 ms', met: p50 <= 5,
        baseline: { name: 'node:wasi, same module compiled once: instantiate + _start, p50', value: nodeWasiP50(bytes, new WebAssembly.Module(bytes), RUNS), unit: 'ms' },
      },
      {
        name: `WASI hello world, spawn → exit, never run before (a new file each time, p50 of ${FRESH_RUNS})`,
        host: 'node', value: quantile(fresh, 0.5), unit: 'ms', goal: '—', met: null,
        baseline: { name: 'node:wasi: compile + instantiate + _start, p50', value: nodeWasiP50(bytes, null, FRESH_RUNS), unit: 'ms' },
      },
    ];
  } finally {
    await m.stop();
  }
}

const LLVM = new URL('../clang/libexec/llvm', import.meta.url);
const BATCHES = 5;

/**
 * `clang --version` on LLVM's 75 MB module: the first run (the kernel compiles
 * it), then batches of three at once — more than the pool's two warm workers,
 * so at least one runs on a worker that has never seen the module.
 */
async function llvmBenches(m: Awaited<ReturnType<typeof boot>>): Promise<Figure[]> {
  if (!existsSync(LLVM)) return [];
  const bytes = readFileSync(LLVM);
  await m.writeFile('/usr/local/bin/clang', bytes, 0o755);
  const once = async () => {
    const r = await m.run(['clang', '--version'], { path: '/usr/local/bin/clang' });
    if (r.exitCode !== 0) throw new Error('wasm bench: clang --version failed');
  };
  let t0 = performance.now();
  await once();
  const first = performance.now() - t0;
  const batches: number[] = [];
  for (let i = 0; i < BATCHES; i++) {
    t0 = performance.now();
    await Promise.all([once(), once(), once()]);
    batches.push(performance.now() - t0);
  }
  t0 = performance.now();
  await WebAssembly.compile(bytes);
  const compile = performance.now() - t0;
  return [{
    name: `LLVM (${Math.round(bytes.byteLength / 2 ** 20)} MB) clang --version, 3 at once on ≥ 1 new worker, spawn → exit of the batch (p50 of ${BATCHES}; first run ${first.toFixed(0)} ms)`,
    host: 'node', value: quantile(batches, 0.5), unit: 'ms', goal: '—', met: null,
    baseline: { name: 'WebAssembly.compile of the same bytes in this process', value: compile, unit: 'ms' },
  }];
}

const RUBY = new URL('../ruby/libexec/ruby', import.meta.url);
const RUBY_RUNS = 10;

/** `ruby -e 'puts File.read("/etc/hostname")'` (CRuby, 30 MB module): first run, then p50 of later ones. */
async function rubyBenches(m: Awaited<ReturnType<typeof boot>>): Promise<Figure[]> {
  if (!existsSync(RUBY)) return [];
  const bytes = readFileSync(RUBY);
  await m.writeFile('/usr/local/bin/ruby', bytes, 0o755);
  const once = async () => {
    const t0 = performance.now();
    const r = await m.run(['ruby', '-e', 'puts File.read("/etc/hostname")'], { path: '/usr/local/bin/ruby' });
    if (r.exitCode !== 0) throw new Error(`wasm bench: ruby failed: ${new TextDecoder().decode(r.stderr)}`);
    return performance.now() - t0;
  };
  const first = await once();
  const later: number[] = [];
  for (let i = 0; i < RUBY_RUNS; i++) later.push(await once());
  return [{
    name: `ruby -e 'puts File.read("/etc/hostname")', spawn → exit, later runs (p50 of ${RUBY_RUNS}; first run ${first.toFixed(0)} ms)`,
    host: 'node', value: quantile(later, 0.5), unit: 'ms', goal: '—', met: null, baseline: null,
  }];
}

#!/usr/bin/env node
// Build agentOS.
//
//   node scripts/build.mjs              # node bundles + test bundles + vite (browser)
//   node scripts/build.mjs --node-only  # skip vite
//   node scripts/build.mjs --playground # only what `npm start` serves: packages, image, Python, vite
//   node scripts/build.mjs --test <path> # (repeatable, with or without --node-only) all but the test
//                                        # bundles, of which only the named test/**/X.test.ts files;
//                                        # an e2e/X.spec.ts path bundles none (`npm test -- <path>`)
//
// Outputs:
//   dist/node/index.js           <- src/host/node/index.ts  (Node host library)
//   dist/node/kernel.worker.js   <- workers/kernel.node.ts   (kernel worker_thread)
//   dist/node/process.worker.js  <- workers/process-load.node.ts (process worker_thread: loads the next two)
//   dist/node/process.main-<hash>.js    <- workers/process.node.ts (its code, one classic script)
//   dist/node/process.main-<hash>.cache <- V8's code cache of that script, made by running one worker
//   dist/node/vm.process.js      <- workers/vm.node.ts       (the VM's own process, isolation 'process')
//   dist/node/vm-guard.cjs       <- workers/vm-guard.node.ts (preloaded in each of its threads; CommonJS
//                                   because --require is what Node runs in worker threads too)
//   dist/node/cli.js             <- src/cli/agentos.ts       (CLI)
//   dist/node/browser-vm.js      <- src/host/playwright/index.ts (BrowserVM: drives dist/web in Chromium, Firefox, WebKit)
//   dist/types/**/X.d.ts         <- the package's entry points (tsconfig.types.json: tsc declarations
//                                   only, for package.json's `types`; not with --playground)
//   dist/test/**/X.test.js       <- test/**/X.test.ts        (node --test files)
//   dist/programs/X.js           <- test/programs/X.ts       (guest JS programs for tests and benches;
//                                   also copied to dist/web/programs/ for the browser harness)
//   dist/wasm/X.wasm             <- wasm/X.c (WASI test programs, scripts/build-wasm.mjs; cached in
//                                   wasm/out/; also copied to dist/web/wasm/ for the browser harness)
//   dist/web/                    <- vite build (index.html, sandbox.html + e2e/harness/index.html;
//                                   agentos-terminal.js and agentos.js, the browser entry points)
//   dist/image/agentos-base-<hash>.img (+ .img.gz) + manifest.json
//                                <- src/image/build.ts, bundled to dist/tools/image-build.js and run
//                                   first (the base root image; the manifest and the .gz are copied to dist/web/image/)
//
// The Node host finds its workers with `new URL('./kernel.worker.js', import.meta.url)`,
// so all Node bundles are written flat into dist/node. Test bundles must use that
// same host, so any import of src/host/node/index.ts from a test (directly or via
// helpers) is replaced by an external import of dist/node/index.js; likewise
// src/host/playwright/index.ts by dist/node/browser-vm.js (which finds dist/web
// relative to itself).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { crc32 } from 'node:zlib';
import * as acorn from 'acorn';
import * as esbuild from 'esbuild';
import { buildPackages } from './build-packages.mjs';
import { buildWasm } from './build-wasm.mjs';
import { buildPython } from './build-python.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const NODE_OUT = join(DIST, 'node');
const TEST_OUT = join(DIST, 'test');
const TEST_SRC = join(ROOT, 'test');
// Host entries that tests import from the built bundle: source → dist/node file.
const HOST_ENTRIES = [
  { src: 'src/host/node', built: join(NODE_OUT, 'index.js') },
  { src: 'src/host/playwright', built: join(NODE_OUT, 'browser-vm.js') },
];

const args = new Set();
/** --test <path>: the only test files to bundle (null: all of test/**\/*.test.ts). */
let onlyTests = null;
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--test' && i + 1 < process.argv.length) {
    const path = resolve(process.argv[++i]);
    onlyTests ??= [];
    if (path.endsWith('.test.ts')) onlyTests.push(path);
  } else if (a === '--node-only' || a === '--playground') {
    args.add(a);
  } else {
    console.error(`build: unknown argument ${a} (supported: --node-only, --playground, --test <path>)`);
    process.exit(2);
  }
}
const nodeOnly = args.has('--node-only');
// What `npm start` serves: packages, image, Python assets and dist/web; no Node, test or WASI test builds.
const playground = args.has('--playground');
if (nodeOnly && playground) {
  console.error('build: --node-only and --playground exclude each other');
  process.exit(2);
}

// npm packages that cannot be bundled (native addons, files found at run time, etc.).
// Everything else is bundled. playwright-core locates its driver and assets by path.
const NODE_EXTERNAL = ['playwright-core'];

// ESM bundles of CommonJS deps may call require(); give them a real one.
const REQUIRE_SHIM =
  "import { createRequire as __agentos_createRequire } from 'node:module';\n" +
  'const require = __agentos_createRequire(import.meta.url);';

const nodeCommon = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  external: NODE_EXTERNAL,
  banner: { js: REQUIRE_SHIM },
  absWorkingDir: ROOT,
};

const rel = (p) => relative(ROOT, p).split(sep).join('/');
const ms = (t0) => `${Math.round(performance.now() - t0)}ms`;

let failed = false;

// ---------------------------------------------------------------- node bundles
async function buildNode() {
  const t0 = performance.now();
  rmSync(NODE_OUT, { recursive: true, force: true });
  const entries = {
    index: 'src/host/node/index.ts',
    'kernel.worker': 'workers/kernel.node.ts',
    'vm.process': 'workers/vm.node.ts',
    cli: 'src/cli/agentos.ts',
    'browser-vm': 'src/host/playwright/index.ts',
  };
  const present = {};
  for (const [out, src] of Object.entries(entries)) {
    if (existsSync(join(ROOT, src))) present[out] = src;
    else console.warn(`build: WARNING ${src} does not exist yet; dist/node/${out}.js not built`);
  }
  if (Object.keys(present).length === 0) return;
  // Chunks: the host's entries share code; the process worker is built apart (buildProcessWorker).
  await esbuild.build({ ...nodeCommon, entryPoints: present, outdir: NODE_OUT, splitting: true, chunkNames: '[name]-[hash]' }); // beside the entries: their import.meta.url paths stay right
  await esbuild.build({ ...nodeCommon, format: 'cjs', banner: {}, entryPoints: ['workers/vm-guard.node.ts'], outfile: join(NODE_OUT, 'vm-guard.cjs') });
  await buildProcessWorker();
  console.log(`build: node bundles (${Object.keys(present).length}) -> dist/node in ${ms(t0)}`);
}

/**
 * The process worker's code as one classic script (its runtimes inlined: a
 * script has no chunks) with V8's code cache beside it, both named by the
 * script's hash and baked into the worker's entry (workers/process-load.node.ts,
 * decision 0087). The cache comes from a worker of this Node running the entry
 * once, so it holds what the worker's start compiled.
 */
/**
 * The script with each import() call made through `__agentos_import`, the
 * entry's own import(): Node 20 loses a script's dynamic-import callback when
 * the script comes from a code cache made in another isolate
 * (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), and the runtimes import the
 * engines they load (Pyodide, the Wasmer SDK) and Node's modules.
 */
function hostImports(source) {
  const at = [];
  const walk = (node) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node.type !== 'string') return;
    if (node.type === 'ImportExpression') at.push(node.start);
    for (const [key, value] of Object.entries(node)) if (key !== 'type' && value && typeof value === 'object') walk(value);
  };
  walk(acorn.parse(source, { ecmaVersion: 'latest', sourceType: 'script' }));
  let out = source;
  for (const start of at.sort((a, b) => b - a)) out = `${out.slice(0, start)}__agentos_import${out.slice(start + 'import'.length)}`;
  return out;
}

async function buildProcessWorker() {
  const tmp = join(NODE_OUT, 'process.main.cjs');
  await esbuild.build({
    ...nodeCommon, format: 'cjs', banner: {}, entryPoints: ['workers/process.node.ts'], outfile: tmp,
    // Every worker keeps the script's text (V8 compiles functions from it on first call): no spaces or comments.
    minifyWhitespace: true, minifySyntax: true,
    // The entry passes the script's URL (import.meta has no meaning in a script).
    define: { 'import.meta.url': '__agentos_import_meta_url' },
  });
  // One function the entry calls, its head on the first line (line numbers and the source map stay right).
  // Strict, as the ES module it was: a sloppy function's `caller` and `arguments` would lead guest code to `require`.
  const source = `(function (require, __agentos_import_meta_url, __agentos_import) {'use strict';${hostImports(readFileSync(tmp, 'utf8'))}\n})`;
  const name = `process.main-${createHash('sha256').update(source).digest('hex').slice(0, 16)}`;
  writeFileSync(join(NODE_OUT, `${name}.js`), source.replace(/process\.main\.cjs\.map\s*\n\}\)$/, `${name}.js.map\n})`));
  renameSync(`${tmp}.map`, join(NODE_OUT, `${name}.js.map`));
  rmSync(tmp);
  await esbuild.build({
    ...nodeCommon, entryPoints: { 'process.worker': 'workers/process-load.node.ts' }, outdir: NODE_OUT,
    define: { __AGENTOS_PROCESS_MAIN__: JSON.stringify(`./${name}.js`), __AGENTOS_PROCESS_CACHE__: JSON.stringify(`./${name}.cache`) },
  });
  const w = new Worker(join(NODE_OUT, 'process.worker.js'), { workerData: { agentosCodeCache: true }, stdout: true, stderr: true });
  w.stdout.resume();
  w.stderr.resume();
  const cache = await new Promise((ok, fail) => {
    w.on('message', (m) => m?.type === 'code-cache' && ok(Buffer.from(m.data)));
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`build: the process worker exited (${code}) before its code cache was made`)));
  });
  await w.terminate();
  // Its CRC-32 first: V8 does not check a cache's bytes, and the entry compiles rather than run a damaged one.
  const crc = Buffer.alloc(4);
  crc.writeUInt32LE(crc32(cache));
  writeFileSync(join(NODE_OUT, `${name}.cache`), Buffer.concat([crc, cache]));
}

// ---------------------------------------------------------------- declarations
/** The package entry points' .d.ts, by tsc (declarations only) in a process of its own, beside the bundles. */
function buildTypes() {
  const t0 = performance.now();
  rmSync(join(DIST, 'types'), { recursive: true, force: true });
  return new Promise((ok, fail) => {
    const tsc = spawn(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.types.json'], { cwd: ROOT, stdio: 'inherit' });
    tsc.on('error', fail);
    tsc.on('exit', (code) => {
      if (code !== 0) return fail(new Error(`build: tsc -p tsconfig.types.json exited with ${code}`));
      console.log(`build: declarations -> dist/types in ${ms(t0)}`);
      ok();
    });
  });
}

// ---------------------------------------------------------------- test bundles
function findTests(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith('.test.ts'))
    .map((d) => join(d.parentPath ?? d.path, d.name))
    .sort();
}

// Placeholders written by the plugin, replaced per output file with the correct
// relative path to the built host file (outputs live at different depths, and the
// importer may be a helper shared by several test files).
const placeholder = (i) => `__AGENTOS_HOST_ENTRY_${i}__`;

// Every spelling of a relative/absolute import that lands on a host entry → its placeholder.
const hostCandidates = new Map(
  HOST_ENTRIES.flatMap(({ src }, i) => ['', '/index', '/index.ts', '/index.js'].map((ext) => [join(ROOT, src + ext), placeholder(i)])),
);

/** esbuild plugin: import of a host entry (src/host/node/index.ts, ...) -> external dist/node file */
const nodeHostExternal = {
  name: 'agentos-node-host-external',
  setup(build) {
    build.onResolve({ filter: /^\.{1,2}(\/|$)|^\// }, (a) => {
      if (a.kind === 'entry-point') return undefined;
      const path = hostCandidates.get(resolve(a.resolveDir, a.path));
      return path ? { path, external: true } : undefined;
    });
  },
};

async function buildTests() {
  const t0 = performance.now();
  // With --test, the other bundles stay as they are: only the named files are rebuilt.
  if (!onlyTests) rmSync(TEST_OUT, { recursive: true, force: true });
  const tests = onlyTests ?? findTests(TEST_SRC);
  if (onlyTests && tests.length === 0) return;
  if (tests.length === 0) {
    console.log('build: no test/**/*.test.ts files');
    return;
  }
  const result = await esbuild.build({
    ...nodeCommon,
    entryPoints: tests,
    outbase: TEST_SRC,
    outdir: TEST_OUT,
    write: false,
    plugins: [nodeHostExternal],
  });
  for (const f of result.outputFiles) {
    let contents = f.contents;
    if (f.path.endsWith('.js')) {
      let text = f.text;
      HOST_ENTRIES.forEach(({ built }, i) => {
        let specifier = relative(dirname(f.path), built).split(sep).join('/');
        if (!specifier.startsWith('.')) specifier = './' + specifier;
        if (text.includes(placeholder(i))) text = text.split(placeholder(i)).join(specifier);
      });
      if (text !== f.text) contents = Buffer.from(text);
    }
    mkdirSync(dirname(f.path), { recursive: true });
    writeFileSync(f.path, contents);
  }
  console.log(`build: test bundles (${tests.length}) -> dist/test in ${ms(t0)}`);
}

// ---------------------------------------------------------------- guest programs
// Each test/programs/X.ts default-exports main(agentos). The bundle is the body the
// JS runtime runs with `agentos` in scope, so it ends by calling main.
const PROGRAM_SRC = join(ROOT, 'test/programs');
const PROGRAM_OUT = join(DIST, 'programs');

async function buildPrograms() {
  const t0 = performance.now();
  rmSync(PROGRAM_OUT, { recursive: true, force: true });
  if (!existsSync(PROGRAM_SRC)) return;
  const entries = readdirSync(PROGRAM_SRC).filter((f) => f.endsWith('.ts')).map((f) => join(PROGRAM_SRC, f));
  await esbuild.build({
    entryPoints: entries,
    outdir: PROGRAM_OUT,
    bundle: true,
    format: 'iife',
    globalName: '__program',
    platform: 'neutral',
    target: 'es2022',
    footer: { js: 'return __program.default(agentos);' },
    logLevel: 'warning',
    absWorkingDir: ROOT,
  });
  console.log(`build: guest programs (${entries.length}) -> dist/programs in ${ms(t0)}`);
}

function copyProgramsToWeb() {
  if (existsSync(PROGRAM_OUT)) cpSync(PROGRAM_OUT, join(DIST, 'web', 'programs'), { recursive: true });
  if (existsSync(WASM_OUT)) cpSync(WASM_OUT, join(DIST, 'web', 'wasm'), { recursive: true });
  if (existsSync(join(DIST, 'pyodide'))) cpSync(join(DIST, 'pyodide'), join(DIST, 'web', 'pyodide'), { recursive: true });
  // @wasmer/sdk as published (5 MB), loaded by URL when a WASIX program first runs (decision 0021):
  // its runtime fetches its own worker and wasm files relative to itself.
  for (const part of ['dist', 'pkg']) {
    cpSync(join(ROOT, 'node_modules/@wasmer/sdk', part), join(DIST, 'web', 'vendor', 'wasmer-sdk', part), { recursive: true });
  }
  // The installable WASI packages (100+ MB), linked rather than copied, for the browser tests.
  mkdirSync(join(DIST, 'web', 'pkg'), { recursive: true });
  for (const f of ['repository.json']) {
    rmSync(join(DIST, 'web', 'pkg', f), { force: true });
    if (existsSync(join(DIST, f))) symlinkSync(join('..', '..', f), join(DIST, 'web', 'pkg', f));
  }
  // linux-root: the linux runtime's Debian root, read a file at a time (decision 0079), not installed.
  for (const name of ['clang', 'ruby', 'linux', 'linux-root', 'npm']) {
    for (const f of [name, `${name}.files.json`]) {
      rmSync(join(DIST, 'web', 'pkg', f), { force: true });
      if (existsSync(join(DIST, f))) symlinkSync(join('..', '..', f), join(DIST, 'web', 'pkg', f));
    }
  }
}

// ---------------------------------------------------------------- WASI test programs
const WASM_OUT = join(DIST, 'wasm');

async function buildWasmPrograms() {
  const t0 = performance.now();
  const r = await buildWasm(ROOT);
  console.log(`build: WASI programs (${r.compiled} compiled, ${r.cached} cached) -> dist/wasm in ${ms(t0)}`);
}

// ---------------------------------------------------------------- base image
// src/image/build.ts runs in this process: bundled to dist/tools, then imported.
const IMAGE_OUT = join(DIST, 'image');
const TOOLS_OUT = join(DIST, 'tools');

async function buildBaseImage() {
  const t0 = performance.now();
  const builder = join(TOOLS_OUT, 'image-build.js');
  await esbuild.build({ ...nodeCommon, entryPoints: { 'image-build': 'src/image/build.ts' }, outdir: TOOLS_OUT });
  const { buildImage } = await import(pathToFileURL(builder).href);
  const m = buildImage({ root: ROOT, outDir: IMAGE_OUT });
  console.log(
    `build: base image -> ${rel(join(IMAGE_OUT, m.file))} (${m.bytes} bytes, ${m.gz.bytes} gzipped; ${m.files} inodes; ` +
      `image ${m.buildMs}ms, total ${ms(t0)})`,
  );
}

// A browser fetches only the manifest and the gzipped image (decision 0057).
function copyImageToWeb() {
  if (!existsSync(IMAGE_OUT)) return;
  const { gz } = JSON.parse(readFileSync(join(IMAGE_OUT, 'manifest.json'), 'utf8'));
  for (const f of ['manifest.json', gz.file]) cpSync(join(IMAGE_OUT, f), join(DIST, 'web', 'image', f));
}

// ---------------------------------------------------------------- browser (vite)
function buildWeb() {
  const t0 = performance.now();
  const vite = join(ROOT, 'node_modules/vite/bin/vite.js');
  const r = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`build: vite build failed (exit ${r.status ?? r.signal})`);
    failed = true;
    return;
  }
  console.log(`build: vite -> ${rel(join(DIST, 'web'))} in ${ms(t0)}`);
}

// ---------------------------------------------------------------- main
const tAll = performance.now();
// The declarations need only the sources: tsc runs (in its own process) from the start.
const types = playground ? null : buildTypes();
types?.catch(() => {}); // reported with the other stages below, not as an unhandled rejection meanwhile
// The packages, then the image that carries them: the Node host and the tests load it at boot.
try {
  const t0 = performance.now();
  const n = await buildPackages(ROOT);
  console.log(`build: base packages (${n}) -> dist/packages in ${ms(t0)}`);
  await buildBaseImage();
} catch (e) {
  failed = true;
  if (!e?.errors) console.error(e);
  console.error('build: base image FAILED');
}
// Node bundles and test bundles are independent (tests import the built host by
// path, not by content), so run them concurrently; each reports its own errors.
const stages = playground ? ['Python assets'] : ['node bundles', 'test bundles', 'guest programs', 'WASI programs', 'Python assets', 'declarations'];
const results = await Promise.allSettled(
  playground ? [buildPython(ROOT)] : [buildNode(), buildTests(), buildPrograms(), buildWasmPrograms(), buildPython(ROOT), types],
);
for (const [i, r] of results.entries()) {
  if (r.status === 'rejected') {
    failed = true;
    // esbuild already printed its diagnostics; print anything else.
    if (!r.reason?.errors) console.error(r.reason);
    console.error(`build: ${stages[i]} FAILED`);
  }
}
if (!nodeOnly) {
  buildWeb();
  copyProgramsToWeb();
  copyImageToWeb();
}

if (failed) {
  console.error(`build: FAILED after ${ms(tAll)}`);
  process.exit(1);
}
console.log(`build: done in ${ms(tAll)}`);

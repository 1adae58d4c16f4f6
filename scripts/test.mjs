#!/usr/bin/env node
// The whole test pipeline: `npm test`; or one test file: `npm test -- <path>...`.
//
// Stages, always all run in order (nothing stops early):
//   1. lint       eslint .                      -> counts as 1 test
//   2. typecheck  scripts/typecheck.mjs: tsc --noEmit on the root and each layer's tsconfig -> 1 test
//      layers     scripts/check-layers.mjs: imports against docs/architecture.md's table -> 1 test
//   3. build      node scripts/build.mjs        -> not a test; a failure counts as 1 failed
//   4. node       node --test dist/test/**/*.test.js (spec reporter for humans)
//                 counts: the runner's final summary (pass / fail+cancelled / skipped+todo),
//                 captured by scripts/node-test-counter.mjs
//   5. browser    playwright test               -> counts from test-results/playwright.json stats
//   6. engines    dist/test/engines/*.test.js once per engine (AGENTOS_ENGINE=chromium, firefox,
//                 webkit; test/engines/engine.ts), one stage each, counted like the node tests;
//                 an engine that is not installed is skipped with its reason
//
// The very last line printed is `N passed, N failed` (+ `, N skipped` if any).
// Exit code is non-zero if anything failed or any stage crashed (a crash, i.e. a
// non-zero exit without any counted failure, or no parseable summary, counts as 1 failed).
//
// With paths (`npm test -- test/kernel/procfs.test.ts e2e/tty.spec.ts`): no lint or typecheck; a
// partial build (scripts/build.mjs --test <path>: the packages, image and host, only the named test
// files bundled, and vite only when a browser spec is named), then only those files run.
//
// Env:
//   AGENTOS_SKIP_BROWSER=1       skip the Playwright and engine stages (and the vite build; the node
//                                tests that drive BrowserVM on dist/web then skip, saying so)
//   AGENTOS_ENGINES=a,b          the engine stages to run (default chromium,firefox,webkit)
//   AGENTOS_TEST_CONCURRENCY=N   node --test file concurrency (default 2)
//   AGENTOS_NODE_TEST_ARGS="..." extra args for node --test (e.g. --test-name-pattern=vfs)
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = join(ROOT, 'test-results');
const NODE_COUNTS = join(RESULTS, 'node-tests.json');
const PW_JSON = join(RESULTS, 'playwright.json');
const skipBrowser = ['1', 'true', 'yes'].includes(String(process.env.AGENTOS_SKIP_BROWSER ?? '').toLowerCase());
const concurrency = Number(process.env.AGENTOS_TEST_CONCURRENCY ?? 2) || 2;

const bin = (p) => join(ROOT, 'node_modules', p);
mkdirSync(RESULTS, { recursive: true });

/** `npm test -- <path>...`: the named Node test files (test/**\/X.test.ts) and browser specs (e2e/X.spec.ts), repository-relative. */
const only = process.argv.slice(2).map((arg) => {
  const path = relative(ROOT, resolve(arg)).split(sep).join('/');
  if (!existsSync(join(ROOT, path)) || !(/^test\/.+\.test\.ts$/.test(path) || /^e2e\/.+\.spec\.ts$/.test(path))) {
    console.error(`test: ${arg}: not a test file (test/**/X.test.ts or e2e/X.spec.ts)`);
    process.exit(2);
  }
  return path;
});
const isEngineTest = (p) => p.startsWith('test/engines/');
const onlyNode = only.filter((p) => p.startsWith('test/') && !isEngineTest(p));
const onlyEngine = only.filter(isEngineTest);
const onlySpecs = only.filter((p) => p.startsWith('e2e/'));
const partial = only.length > 0;

/** @type {{ name: string, passed: number, failed: number, skipped: number, seconds: number, note: string }[]} */
const stages = [];
/** Failed tests with their errors, repeated just above the summary (the end of a CI log is what gets read). */
const failures = [];

let current = null;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (current?.pid) {
      try {
        process.kill(-current.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    process.exit(130);
  });
}

/** Run a command in its own process group, output inherited; resolve with its exit code. */
function run(cmd, args, { timeoutMs = 30 * 60_000, env = {} } = {}) {
  return new Promise((resolveRun) => {
    const child = spawn(cmd, args, {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, ...env },
      detached: true, // own process group, so a timeout can kill grandchildren too
    });
    current = child;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      console.error(`\n[test] ${[cmd, ...args].join(' ')} timed out after ${timeoutMs / 1000}s, killing it`);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      console.error(`[test] failed to start ${cmd}: ${err.message}`);
      resolveRun({ code: 127, timedOut });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      current = null;
      resolveRun({ code: code ?? (signal ? 128 : 1), timedOut });
    });
  });
}

function banner(title) {
  console.log(`\n======== ${title} ========`);
}

async function stage(name, fn) {
  banner(name);
  const t0 = performance.now();
  let r;
  try {
    r = await fn();
  } catch (err) {
    console.error(`[test] stage ${name} crashed:`, err);
    r = { passed: 0, failed: 1, skipped: 0, note: 'crashed' };
  }
  const seconds = (performance.now() - t0) / 1000;
  stages.push({ name, seconds, skipped: 0, note: '', ...r });
  console.log(`[test] ${name}: ${r.note || `${r.passed} passed, ${r.failed} failed, ${r.skipped ?? 0} skipped`} (${seconds.toFixed(1)}s)`);
}

/** A command that is one test: exit 0 = 1 passed, else 1 failed. */
async function singleTest(cmd, args) {
  const { code } = await run(cmd, args);
  return code === 0 ? { passed: 1, failed: 0, note: 'ok' } : { passed: 0, failed: 1, note: `FAILED (exit ${code})` };
}

function findFiles(dir, suffix) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith(suffix))
    .map((d) => join(d.parentPath ?? d.path, d.name))
    .sort();
}

// ------------------------------------------------------------------ stages
const tAll = performance.now();

if (!partial) {
  await stage('lint', () => singleTest(process.execPath, [bin('eslint/bin/eslint.js'), '.']));
  await stage('typecheck', () => singleTest(process.execPath, [join(ROOT, 'scripts/typecheck.mjs')]));
  await stage('layers', () => singleTest(process.execPath, [join(ROOT, 'scripts/check-layers.mjs')]));
}

await stage('build', async () => {
  const args = [join(ROOT, 'scripts/build.mjs')];
  if (skipBrowser || (partial && onlySpecs.length === 0 && onlyEngine.length === 0)) args.push('--node-only');
  if (partial) args.push(...only.flatMap((p) => ['--test', p]));
  const { code } = await run(process.execPath, args);
  // The build is not a test; a failed build counts as one failure.
  return code === 0 ? { passed: 0, failed: 0, note: 'ok' } : { passed: 0, failed: 1, note: `FAILED (exit ${code})` };
});

const ENGINE_DIR = join(ROOT, 'dist/test/engines');
if (!partial || onlyNode.length) await stage('node tests', () => nodeTests(
  partial ? onlyNode.map((p) => join(ROOT, 'dist', p.replace(/\.ts$/, '.js'))) : findFiles(join(ROOT, 'dist/test'), '.test.js').filter((f) => !f.startsWith(ENGINE_DIR + sep)),
));

/** node --test on `files`, counted by scripts/node-test-counter.mjs. */
async function nodeTests(files, { env = {}, timeoutMs, label = 'node' } = {}) {
  if (files.length === 0) {
    return { passed: 0, failed: 0, note: 'no test files in dist/test' };
  }
  rmSync(NODE_COUNTS, { force: true });
  const extra = (process.env.AGENTOS_NODE_TEST_ARGS ?? '').split(/\s+/).filter(Boolean);
  const { code, timedOut } = await run(
    process.execPath,
    [
      '--enable-source-maps',
      '--test',
      `--test-concurrency=${concurrency}`,
      '--test-timeout=300000',
      // No --test-force-exit: on Node 20 it can exit a test file before its
      // last results reach the runner, silently dropping tests.
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      // Counts: scripts/node-test-counter.mjs writes them to NODE_COUNTS.
      `--test-reporter=${join(ROOT, 'scripts/node-test-counter.mjs')}`,
      '--test-reporter-destination=stdout',
      ...extra,
      ...files.map((f) => relative(ROOT, f)),
    ],
    { env: { AGENTOS_NODE_COUNTS: NODE_COUNTS, ...env }, timeoutMs },
  );
  let counts = null;
  try {
    counts = JSON.parse(readFileSync(NODE_COUNTS, 'utf8'));
  } catch {
    /* handled below */
  }
  const how = `exit ${code}${timedOut ? ', timed out' : ''}`;
  if (!counts) return { passed: 0, failed: 1, note: `CRASHED: no counts (${how})` };
  const { summary, tally } = counts;
  for (const f of counts.failures ?? []) failures.push({ where: `${label} ${relative(ROOT, f.file ?? '')}`, name: f.name, error: f.error });
  let passed, failed, skipped;
  let note = '';
  if (summary.pass !== undefined && summary.fail !== undefined) {
    // The runner's own totals (tests only; suites are counted separately).
    // A test that hits --test-timeout is reported as cancelled: count it as failed.
    passed = summary.pass;
    failed = summary.fail + (summary.cancelled ?? 0);
    skipped = (summary.skipped ?? 0) + (summary.todo ?? 0);
  } else {
    // No final summary: the runner itself died. Use the per-test events seen so far.
    passed = tally.pass;
    failed = tally.fail + 1;
    skipped = tally.skipped + tally.todo;
    note = `CRASHED: runner gave no summary (${how}); counted events + 1 failure`;
  }
  if (code !== 0 && failed === 0) {
    failed = 1;
    note = `CRASHED: ${how} with no failing test reported`;
  }
  return { passed, failed, skipped, note };
}

if (partial && onlySpecs.length === 0) {
  // Only Node test files named: no browser stage.
} else if (skipBrowser) {
  stages.push({ name: 'browser tests', passed: 0, failed: 0, skipped: 0, seconds: 0, note: 'skipped (AGENTOS_SKIP_BROWSER)' });
  console.log('\n[test] browser tests skipped (AGENTOS_SKIP_BROWSER=1)');
} else {
  await stage('browser tests', async () => {
    const specs = findFiles(join(ROOT, 'e2e'), '.spec.ts');
    if (specs.length === 0) return { passed: 0, failed: 0, note: 'no e2e/*.spec.ts files' };
    rmSync(PW_JSON, { force: true });
    const { code, timedOut } = await run(process.execPath, [bin('@playwright/test/cli.js'), 'test', '--pass-with-no-tests', ...onlySpecs]);
    let report = null;
    try {
      report = JSON.parse(readFileSync(PW_JSON, 'utf8'));
    } catch {
      /* handled below */
    }
    if (!report?.stats) {
      return { passed: 0, failed: 1, note: `CRASHED: no JSON report (exit ${code}${timedOut ? ', timed out' : ''})` };
    }
    const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = report.stats;
    collectPlaywrightFailures(report);
    let failed = unexpected + flaky; // no retries, so flaky should stay 0
    let note = '';
    const errors = report.errors?.length ?? 0;
    if (code !== 0 && failed === 0) {
      failed = 1;
      note = `CRASHED: exit ${code}${errors ? `, ${errors} global error(s)` : ''} with no failing test reported`;
    }
    return { passed: expected, failed, skipped, note };
  });
}

// The engine suites: each engine a stage of its own, so the summary shows its counts.
/** Each engine's executable on Debian and its package (as src/host/playwright/engine-page.ts). */
const ENGINE_BINS = { chromium: ['/usr/bin/chromium', 'chromium'], firefox: ['/usr/bin/firefox-esr', 'firefox-esr'], webkit: ['/usr/bin/WebKitWebDriver', 'webkit2gtk-driver'] };
const engines = (process.env.AGENTOS_ENGINES ?? 'chromium,firefox,webkit').split(',').map((e) => e.trim()).filter(Boolean);
if (!skipBrowser && (!partial || onlyEngine.length)) {
  const files = partial ? onlyEngine.map((p) => join(ROOT, 'dist', p.replace(/\.ts$/, '.js'))) : findFiles(ENGINE_DIR, '.test.js');
  for (const engine of engines) {
    const [bin, pkg] = ENGINE_BINS[engine] ?? [];
    if (bin && !existsSync(bin)) {
      console.log(`\n[test] ${engine}: not installed (no ${bin}; Debian package ${pkg}): its engine tests are skipped`);
    }
    await stage(`engine ${engine}`, async () => {
      const r = await nodeTests(files, { env: { AGENTOS_ENGINE: engine }, timeoutMs: 15 * 60_000, label: engine });
      if (bin && !existsSync(bin)) r.note ||= `skipped: not installed (${pkg})`;
      return r;
    });
  }
}

/** Each test Playwright did not count as expected, with its first error. */
function collectPlaywrightFailures(report) {
  const walk = (suite) => {
    for (const s of suite.suites ?? []) walk(s);
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== 'unexpected' && t.status !== 'flaky') continue;
        const err = t.results?.flatMap((r) => r.errors ?? [])[0];
        failures.push({ where: `browser ${spec.file}:${spec.line}`, name: spec.title, error: String(err?.message ?? err?.value ?? '').slice(0, 4000) });
      }
    }
  };
  for (const s of report.suites ?? []) walk(s);
}

/** Playwright's messages carry colour codes; a CI log is plain text. */
// eslint-disable-next-line no-control-regex
const stripAnsi = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');

// ------------------------------------------------------------------ summary
if (failures.length) {
  banner(`failures (${failures.length})`);
  for (const f of failures) {
    console.log(`\n✗ ${f.where} › ${f.name}`);
    if (f.error) console.log(stripAnsi(f.error).replace(/^/gm, '    '));
  }
}
const total = stages.reduce(
  (a, s) => ({ passed: a.passed + s.passed, failed: a.failed + s.failed, skipped: a.skipped + (s.skipped ?? 0) }),
  { passed: 0, failed: 0, skipped: 0 },
);
banner('summary');
for (const s of stages) {
  console.log(
    `${s.name.padEnd(14)} ${String(s.passed).padStart(5)} passed ${String(s.failed).padStart(4)} failed ${String(s.skipped ?? 0).padStart(4)} skipped ${s.seconds.toFixed(1).padStart(7)}s  ${s.note ?? ''}`.trimEnd(),
  );
}
console.log(`${'total'.padEnd(14)} ${((performance.now() - tAll) / 1000).toFixed(1)}s`);
console.log(`${total.passed} passed, ${total.failed} failed${total.skipped > 0 ? `, ${total.skipped} skipped` : ''}`);
process.exitCode = total.failed > 0 ? 1 : 0;

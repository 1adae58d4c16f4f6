// Shared harness for the differential userland tests (sed, awk, grep,
// findutils): the same fixture tree at the same absolute path on the host and
// in one booted VM, each command line run by `bash -c` on both sides, the
// outcomes compared, and a pass/divergence summary printed and asserted.
// Each suite runs its cases once per locale in LOCALES: the byte locale
// (LC_ALL=C) and the UTF-8 one (LANG=C.UTF-8, the VM's default).
//
// Not a test file itself: each X.test.ts imports it and keeps its own cases,
// options and special handling.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { boot } from '../../src/host/node/index.js';
import type { Machine } from '../../src/host/node/index.js';

/** What one side produced for one command line (stdout/stderr decoded as latin1). */
export interface Outcome {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** The part of a case the harness needs; each test's Case adds its own options. */
export interface OracleCase {
  cmd: string;
  stdin?: string;
}

/** One compared case: ok, or what differed. */
export interface Result {
  cmd: string;
  ok: boolean;
  detail: string;
}

/** The booted VM and the fixture root (same absolute path on host and VM). */
export interface Fixture {
  root: string;
  m: Machine;
}

export const TIMEOUT_MS = 20_000;
export type Env = Record<string, string>;
export const ENV: Env = { PATH: '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C', TERM: 'dumb', HOME: '/tmp' };

/** A locale the suites run under: its name in test titles and summaries, and the environment. */
export interface Locale {
  name: string;
  env: Env;
  /** Whether characters are UTF-8 (the suites' divergences may differ by this). */
  utf8: boolean;
}

export const LOCALES: readonly Locale[] = [
  { name: 'LC_ALL=C', env: ENV, utf8: false },
  { name: 'LANG=C.UTF-8', env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', TERM: 'dumb', HOME: '/tmp' }, utf8: true },
];

/**
 * Make a fresh host temp dir (`<tmp>/<prefix>XXXX/fx`), boot one VM, and write
 * `files` (paths relative to the root) on both sides.
 */
export async function setupFixtures(prefix: string, files: Record<string, string | Uint8Array>): Promise<Fixture> {
  const root = join(realpathSync(mkdtempSync(join(tmpdir(), prefix))), 'fx');
  let m: Machine | null = null;
  try {
    m = await boot();
    await m.mkdirp(root);
    for (const [rel, content] of Object.entries(files)) {
      const p = join(root, rel);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, content);
      await m.mkdirp(dirname(p));
      await m.writeFile(p, typeof content === 'string' ? content : new Uint8Array(content));
    }
    return { root, m };
  } catch (e) {
    await teardownFixtures({ root, m });
    throw e;
  }
}

/** Remove the host temp dir and stop the VM (either may be missing). */
export async function teardownFixtures(fx: { root: string; m: Machine | null } | null): Promise<void> {
  if (!fx) return;
  if (fx.root) rmSync(dirname(fx.root), { recursive: true, force: true });
  if (fx.m) await fx.m.stop();
}

/** Run `bash -c cmd` on the host in the fixture root; a signal death reads as 128+N. */
export function runHost(fx: Fixture, c: OracleCase, env: Env = ENV): Outcome {
  const r = spawnSync('bash', ['-c', c.cmd], { cwd: fx.root, env, input: c.stdin ?? '', timeout: TIMEOUT_MS, maxBuffer: 64 << 20 });
  const sig = r.signal ? ((constants.signals as Record<string, number>)[r.signal] ?? 0) : 0;
  return {
    stdout: r.stdout?.toString('latin1') ?? '',
    stderr: r.stderr?.toString('latin1') ?? '',
    exitCode: r.status ?? 128 + sig,
  };
}

const latin1 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');

/** Run `/bin/bash -c cmd` in the VM in the fixture root. */
export async function runVm(fx: Fixture, c: OracleCase, env: Env = ENV): Promise<Outcome> {
  const r = await fx.m.run(['/bin/bash', '-c', c.cmd], { cwd: fx.root, env, stdin: c.stdin ?? '', timeoutMs: TIMEOUT_MS });
  return { stdout: latin1(r.stdout), stderr: latin1(r.stderr), exitCode: r.exitCode };
}

/**
 * stderr shape: every line's program-name prefix matched by `prefix` (a
 * global, multiline regex anchored at ^) replaced by `replacement`.
 */
export const shapeStderr = (s: string, prefix: RegExp, replacement: string) => s.replace(prefix, replacement);

export const sortLines = (s: string) => s.split('\n').sort().join('\n');

export const clip = (s: string) => JSON.stringify(s.length > 300 ? `${s.slice(0, 300)}…` : s);

/** Assert the host tool is the expected GNU implementation (`tool --version` matches). */
export function requireOracle(tool: string, version: RegExp, message: string): void {
  const host = spawnSync(tool, ['--version'], { encoding: 'utf8' });
  assert.match(host.stdout ?? '', version, message);
}

/**
 * The case list is well formed: keys unique, at least `min` cases, and every
 * divergence names an existing command line.
 */
export function checkCaseList<C extends OracleCase>(
  cases: readonly C[],
  divergences: Record<string, string>,
  opts: { min: number; key?: (c: C) => string; uniqueMessage?: string },
): void {
  const key = opts.key ?? ((c: C) => c.cmd);
  const seen = new Set<string>();
  const dups = cases.filter((c) => (seen.has(key(c)) ? true : (seen.add(key(c)), false))).map((c) => c.cmd);
  assert.deepEqual(dups, [], opts.uniqueMessage ?? 'command lines must be unique');
  for (const c of cases) seen.add(c.cmd);
  assert.ok(cases.length >= opts.min, `at least ${opts.min} invocations; there are ${cases.length}`);
  const unknown = Object.keys(divergences).filter((k) => !seen.has(k));
  assert.deepEqual(unknown, [], 'divergences names cases that do not exist');
}

/** How one case is judged: compare stdout as sorted lines or not, and whether stderr agrees. */
export interface Judgement {
  sorted: boolean;
  stderrOk: (want: string, got: string) => boolean;
}

/** Compare host (`want`) and VM (`got`) outcomes; returns the differences (empty: they agree). */
export function compareOutcomes(want: Outcome, got: Outcome, j: Judgement): string[] {
  const diffs: string[] = [];
  const ws = j.sorted ? sortLines(want.stdout) : want.stdout;
  const gs = j.sorted ? sortLines(got.stdout) : got.stdout;
  if (ws !== gs) diffs.push(`stdout: want ${clip(ws)}\n            got  ${clip(gs)}`);
  if (!j.stderrOk(want.stderr, got.stderr)) diffs.push(`stderr: want ${clip(want.stderr)}\n            got  ${clip(got.stderr)}`);
  if (want.exitCode !== got.exitCode) diffs.push(`exit:   want ${want.exitCode} got ${got.exitCode}`);
  return diffs;
}

/** Run every case on both sides (in `env`) and compare, in order. */
export async function runCases<C extends OracleCase>(fx: Fixture, cases: readonly C[], judge: (c: C) => Judgement, env: Env = ENV): Promise<Result[]> {
  const results: Result[] = [];
  for (const c of cases) {
    const want = runHost(fx, c, env);
    const got = await runVm(fx, c, env);
    const diffs = compareOutcomes(want, got, judge(c));
    results.push({ cmd: c.cmd, ok: diffs.length === 0, detail: diffs.join('\n    ') });
  }
  return results;
}

/**
 * Print `<name> diff: P/N passed (x%), K known divergences` and the notes, and
 * assert that every failure is a listed divergence.
 */
export function summarize(name: string, results: readonly Result[], divergences: Record<string, string>): void {
  const passed = results.filter((r) => r.ok).length;
  const unexpected = results.filter((r) => !r.ok && !(r.cmd in divergences));
  const fixed = results.filter((r) => r.ok && r.cmd in divergences);
  console.log(`${name} diff: ${passed}/${results.length} passed (${((100 * passed) / results.length).toFixed(1)}%), ${Object.keys(divergences).length} known divergences`);
  for (const r of results) if (!r.ok && r.cmd in divergences) console.log(`  divergence: ${r.cmd}: ${divergences[r.cmd]}`);
  for (const r of fixed) console.log(`  note: ${r.cmd} is listed in divergences but now matches`);
  assert.equal(unexpected.length, 0, unexpected.map((r) => `✗ ${r.cmd}\n    ${r.detail}`).join('\n'));
}

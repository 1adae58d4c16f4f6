// The differential runner: one script through the real bash on the host and
// through agentos-shell in the VM, then a comparison of stdout (exact), exit
// status (exact) and stderr "shape" (exact after mapping the program-name
// prefix of each line to `SHELL: `).
//
// Both sides run in a directory with the SAME absolute path (a fresh host temp
// directory, recreated at that path in the VM), so `pwd`, `$PWD`, `~` and glob
// results compare byte for byte without rewriting the output.

import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Machine, RunOptions } from '../../../src/host/api/machine.js';
import type { DiffCase } from './types.js';

export interface Outcome {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Set when the run did not finish (timeout, spawn failure). */
  error?: string;
}

/** Where one case runs: its working directory and its HOME (same paths on the host and in the VM). */
export interface CaseDirs {
  cwd: string;
  home: string;
}

export const TIMEOUT_MS = 10_000;

/** The search path the oracle gets; the VM always gives its own default PATH (kernel/env.ts), so no case prints PATH. */
export const HOST_PATH = '/usr/bin:/bin';

/** Every case runs in both: the byte locale, and UTF-8 (the VM's default). */
export const LOCALES = ['C', 'C.UTF-8'] as const;
export type Locale = (typeof LOCALES)[number];

/** The fixed environment of every run. USER is set because the VM host always passes USER=user. */
export function caseEnv(dirs: CaseDirs, locale: Locale = 'C'): Record<string, string> {
  return { HOME: dirs.home, PATH: HOST_PATH, LANG: locale, USER: 'user' };
}

/** A host temp root; case N gets `ROOT/cN` as cwd and `ROOT/hN` as HOME. */
export class Workspace {
  readonly root: string;
  private n = 0;

  constructor() {
    this.root = realpathSync(mkdtempSync(join(tmpdir(), 'agentos-diff-')));
  }

  next(): CaseDirs {
    const i = this.n++;
    return { cwd: join(this.root, `c${i}`), home: join(this.root, `h${i}`) };
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

function filePath(dirs: CaseDirs, rel: string): string {
  return rel.startsWith('~/') ? join(dirs.home, rel.slice(2)) : join(dirs.cwd, rel);
}

// ---------------------------------------------------------------- host (the oracle)

/** (Re)create the case's directories and files on the host. */
export function prepareHost(c: DiffCase, dirs: CaseDirs): void {
  rmSync(dirs.cwd, { recursive: true, force: true });
  rmSync(dirs.home, { recursive: true, force: true });
  mkdirSync(dirs.cwd, { recursive: true });
  mkdirSync(dirs.home, { recursive: true });
  for (const [rel, content] of Object.entries(c.files ?? {})) {
    const p = filePath(dirs, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
}

export type HostShell = 'bash' | 'dash';

/** Run the script with the real shell: `bash -c`, `bash --posix -c` for posix cases, or `dash -c`. */
export function runHost(c: DiffCase, dirs: CaseDirs, shell: HostShell = 'bash', locale: Locale = 'C'): Outcome {
  const args = shell === 'bash' && c.posix ? ['--posix', '-c', c.script] : ['-c', c.script];
  return spawnOutcome(shell, args, { cwd: dirs.cwd, env: caseEnv(dirs, locale), input: c.stdin ?? '' });
}

/** Run a host program as an oracle (output as latin1, a signal death as 128+N like a shell reports it); shared with test/packages/differential. */
export function spawnOutcome(cmd: string, args: string[], opts: Pick<SpawnSyncOptions, 'cwd' | 'env' | 'input'>): Outcome {
  const r = spawnSync(cmd, args, { ...opts, timeout: TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 });
  const stdout = r.stdout ? r.stdout.toString('latin1') : '';
  const stderr = r.stderr ? r.stderr.toString('latin1') : '';
  if (r.error) return { stdout, stderr, exitCode: -1, error: `${cmd}: ${r.error.message}` };
  if (r.status !== null) return { stdout, stderr, exitCode: r.status };
  const sig = r.signal ? (constants.signals as Record<string, number>)[r.signal] ?? 0 : 0;
  return { stdout, stderr, exitCode: 128 + sig };
}

// ---------------------------------------------------------------- VM (agentos-shell)

/** The shell the VM runs a case with: `/bin/sh` for posix cases, `/bin/bash` otherwise. */
export function vmShell(c: DiffCase): string {
  return c.posix ? '/bin/sh' : '/bin/bash';
}

/** Create the case's directories and files in the VM, at the same paths as on the host. */
export async function prepareVm(m: Machine, c: DiffCase, dirs: CaseDirs): Promise<void> {
  await m.mkdirp(dirs.cwd);
  await m.mkdirp(dirs.home);
  for (const [rel, content] of Object.entries(c.files ?? {})) {
    const p = filePath(dirs, rel);
    await m.mkdirp(dirname(p));
    await m.writeFile(p, content);
  }
}

export function runVm(m: Machine, c: DiffCase, dirs: CaseDirs, locale: Locale = 'C'): Promise<Outcome> {
  return vmOutcome(m, [vmShell(c), '-c', c.script], {
    cwd: dirs.cwd,
    env: caseEnv(dirs, locale),
    stdin: c.stdin === undefined ? undefined : Buffer.from(c.stdin, 'latin1'),
  });
}

const latin1 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');

/** Run argv in the VM with the case timeout; shared with test/packages/differential. */
export async function vmOutcome(m: Machine, argv: string[], opts: Omit<RunOptions, 'timeoutMs'>): Promise<Outcome> {
  try {
    const r = await m.run(argv, { ...opts, timeoutMs: TIMEOUT_MS });
    const out: Outcome = { stdout: latin1(r.stdout), stderr: latin1(r.stderr), exitCode: r.exitCode };
    if (r.signal === 9) out.error = `killed by SIGKILL (timeout ${TIMEOUT_MS} ms?)`;
    return out;
  } catch (e) {
    return { stdout: '', stderr: '', exitCode: -1, error: `vm: ${(e as Error).message}` };
  }
}

/** Does PATH-less lookup of NAME on the guest's default PATH find something? */
export async function vmHasCommand(m: Machine, name: string): Promise<boolean> {
  for (const dir of ['/usr/local/sbin', '/usr/local/bin', '/opt/agentos/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin']) {
    try {
      await m.stat(`${dir}/${name}`);
      return true;
    } catch {
      // next directory
    }
  }
  return false;
}

export async function vmHasFile(m: Machine, path: string): Promise<boolean> {
  try {
    await m.stat(path);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- comparison

/**
 * The shell's own diagnostics start with its name: bash `bash: line 1: x: command
 * not found` (or `/bin/bash:` / `sh:` after argv[0]), agentos-shell
 * `agentos-shell: line 1: ...`. Each line's program-name prefix becomes `SHELL: `;
 * the rest of the line (line numbers, wording, quoting) must match exactly.
 *
 * bash 5.2 under `-c` names a function's source "environment" and uses that as
 * the prefix of diagnostics raised inside functions (`environment: line 1: cd:
 * ...`); that prefix is normalised too. Other prefixes (a sourced file's name,
 * `printf: usage:` lines) are compared as they are.
 */
const PREFIX = /^(?:(?:[^\s:]*\/)?(?:bash|sh|agentos-shell)|environment): /;

export function normaliseStderr(stderr: string): string {
  return stderr
    .split('\n')
    .map((line) => line.replace(PREFIX, 'SHELL: '))
    .join('\n');
}

export interface Mismatch {
  field: 'stdout' | 'stderr' | 'exit' | 'error';
  expected: string;
  actual: string;
}

/** Compare the oracle's outcome with another; `stderrExact` skips the prefix normalisation. */
export function compare(expected: Outcome, actual: Outcome, opts: { stderr?: 'shape' | 'exact' | 'ignore' } = {}): Mismatch[] {
  const out: Mismatch[] = [];
  const mode = opts.stderr ?? 'shape';
  if (expected.error || actual.error) out.push({ field: 'error', expected: expected.error ?? '', actual: actual.error ?? '' });
  if (expected.stdout !== actual.stdout) out.push({ field: 'stdout', expected: expected.stdout, actual: actual.stdout });
  if (mode !== 'ignore') {
    const e = mode === 'shape' ? normaliseStderr(expected.stderr) : expected.stderr;
    const a = mode === 'shape' ? normaliseStderr(actual.stderr) : actual.stderr;
    if (e !== a) out.push({ field: 'stderr', expected: e, actual: a });
  }
  if (expected.exitCode !== actual.exitCode) out.push({ field: 'exit', expected: String(expected.exitCode), actual: String(actual.exitCode) });
  return out;
}

const clip = (s: string, n = 400) => (s.length > n ? `${JSON.stringify(s.slice(0, n))}…(${s.length} chars)` : JSON.stringify(s));

export function describe(name: string, script: string, mismatches: Mismatch[], labels: [string, string] = ['bash', 'agentos-shell']): string {
  const lines = [`✗ ${name}`, `    script: ${clip(script, 300)}`];
  for (const m of mismatches) {
    lines.push(`    ${m.field}: ${labels[0]} ${clip(m.expected)}`);
    lines.push(`    ${' '.repeat(m.field.length)}  ${labels[1]} ${clip(m.actual)}`);
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------- topics

export type CaseStatus = 'pass' | 'fail' | 'divergent' | 'divergent-pass' | 'skipped';

export interface CaseResult {
  name: string;
  status: CaseStatus;
  /** Why it failed / why it was skipped / the divergence reason. */
  detail: string;
}

export interface TopicReport {
  topic: string;
  results: CaseResult[];
  passed: number;
  failed: number;
  divergent: number;
  divergentPassed: number;
  skipped: number;
  /** Cases compared (everything not skipped). */
  run: number;
}

export function summarise(topic: string, results: CaseResult[]): TopicReport {
  const count = (s: CaseStatus) => results.filter((r) => r.status === s).length;
  const passed = count('pass') + count('divergent-pass');
  const skipped = count('skipped');
  return {
    topic,
    results,
    passed,
    failed: count('fail'),
    divergent: count('divergent'),
    divergentPassed: count('divergent-pass'),
    skipped,
    run: results.length - skipped,
  };
}

export function summaryLine(r: TopicReport, what = 'passed'): string {
  let s = `shell diff: topic=${r.topic} ${r.passed}/${r.run} ${what}`;
  if (r.divergent) s += `, ${r.divergent} known divergence${r.divergent === 1 ? '' : 's'}`;
  if (r.divergentPassed) s += `, ${r.divergentPassed} known divergence${r.divergentPassed === 1 ? '' : 's'} now passing`;
  if (r.skipped) s += `, ${r.skipped} skipped`;
  if (r.failed) s += `, ${r.failed} FAILED`;
  return s;
}

/** Differential run of one case: host bash vs agentos-shell in the VM. */
export async function diffCase(
  m: Machine,
  ws: Workspace,
  c: DiffCase,
  divergence: string | undefined,
  missing: (c: DiffCase) => Promise<string[]>,
  locale: Locale = 'C',
): Promise<CaseResult> {
  const lacking = await missing(c);
  if (lacking.length) return { name: c.name, status: 'skipped', detail: `needs ${lacking.join(', ')} in the VM` };
  const dirs = ws.next();
  prepareHost(c, dirs);
  const expected = runHost(c, dirs, 'bash', locale);
  await prepareVm(m, c, dirs);
  const actual = await runVm(m, c, dirs, locale);
  const mm = compare(expected, actual);
  if (divergence !== undefined) {
    return mm.length
      ? { name: c.name, status: 'divergent', detail: divergence }
      : { name: c.name, status: 'divergent-pass', detail: `listed in divergences.ts (${divergence}) but now matches: remove it` };
  }
  return mm.length ? { name: c.name, status: 'fail', detail: describe(c.name, c.script, mm) } : { name: c.name, status: 'pass', detail: '' };
}

/**
 * Oracle-only run of one case: the script twice through bash in the same
 * directory (recreated in between) must give identical stdout, stderr and
 * status; a posix case must also give bash's stdout and status under dash
 * (dash words its diagnostics differently, so stderr is not compared there).
 */
export function oracleCase(ws: Workspace, c: DiffCase, hasDash: boolean): CaseResult {
  const dirs = ws.next();
  prepareHost(c, dirs);
  const first = runHost(c, dirs);
  prepareHost(c, dirs);
  const second = runHost(c, dirs);
  const problems: string[] = [];
  const mm = compare(first, second, { stderr: 'exact' });
  if (mm.length) problems.push(describe(`${c.name} (not deterministic under bash)`, c.script, mm, ['run 1', 'run 2']));
  else if (first.error) problems.push(`✗ ${c.name}: ${first.error}`);
  if (/(^|\n)(bash|sh)(: line \d+)?: /.test(first.stdout)) {
    problems.push(`✗ ${c.name}: a shell diagnostic reaches stdout; its program-name prefix differs between bash and agentos-shell, so keep diagnostics on stderr`);
  }
  if (c.posix && hasDash) {
    prepareHost(c, dirs);
    const d = runHost(c, dirs, 'dash');
    const dm = compare(first, d, { stderr: 'ignore' });
    if (dm.length) problems.push(describe(`${c.name} (posix case: bash --posix and dash disagree)`, c.script, dm, ['bash --posix', 'dash']));
  }
  return problems.length ? { name: c.name, status: 'fail', detail: problems.join('\n') } : { name: c.name, status: 'pass', detail: '' };
}

export function hostHas(cmd: string): boolean {
  const r = spawnSync(cmd, ['-c', 'exit 0'], { stdio: 'ignore' });
  return !r.error && r.status === 0;
}

// The userland differential runner, modelled on test/shell/diff/run.ts: each
// case runs through bash + the host's GNU coreutils (the oracle) and through
// /bin/bash + agentOS's commands in one booted VM, in directories with the same
// absolute path. stdout and the exit status must match exactly; stderr must
// match after shell prefixes (`bash: line 1: `) are mapped to `SHELL: `, so
// every command diagnostic (`ls: cannot access ...`) is compared as it is.

import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Machine } from '../../../src/host/api/machine.js';
import { spawnOutcome, vmOutcome, type Outcome } from '../../shell/diff/run.js';
import type { UCase } from './types.js';

/** The locales every case runs under: the byte locale and the UTF-8 one (the VM's default). */
export const LOCALES = [
  { name: 'LC_ALL=C', env: { LANG: 'C', LC_ALL: 'C' } },
  { name: 'LANG=C.UTF-8', env: { LANG: 'C.UTF-8' } },
] as const;

export type Locale = (typeof LOCALES)[number];

/** Same environment on both sides: the locale, and UTC so dates agree. */
export function caseEnv(cwd: string, locale: Locale = LOCALES[0]): Record<string, string> {
  return { HOME: cwd, PATH: '/usr/bin:/bin', ...locale.env, TZ: 'UTC', USER: 'root' };
}

export class Workspace {
  readonly root: string;
  private n = 0;

  constructor() {
    this.root = realpathSync(mkdtempSync(join(tmpdir(), 'agentos-udiff-')));
  }

  next(): string {
    return join(this.root, `c${this.n++}`);
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

const isDirEntry = (rel: string, content: string) => rel.endsWith('/') && content === '';

export function prepareHost(c: UCase, cwd: string): void {
  rmSync(cwd, { recursive: true, force: true });
  mkdirSync(cwd, { recursive: true });
  for (const [rel, content] of Object.entries(c.files ?? {})) {
    const p = join(cwd, rel);
    if (isDirEntry(rel, content)) mkdirSync(p, { recursive: true });
    else {
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, content, 'latin1');
    }
  }
}

export function runHost(c: UCase, cwd: string, locale?: Locale): Outcome {
  return spawnOutcome('bash', ['-c', c.script], { cwd, env: caseEnv(cwd, locale), input: Buffer.from(c.stdin ?? '', 'latin1') });
}

export async function prepareVm(m: Machine, c: UCase, cwd: string): Promise<void> {
  await m.mkdirp(cwd);
  for (const [rel, content] of Object.entries(c.files ?? {})) {
    const p = join(cwd, rel);
    if (isDirEntry(rel, content)) await m.mkdirp(p);
    else {
      await m.mkdirp(dirname(p));
      await m.writeFile(p, Buffer.from(content, 'latin1'));
    }
  }
}

export function runVm(m: Machine, c: UCase, cwd: string, locale?: Locale): Promise<Outcome> {
  return vmOutcome(m, ['/bin/bash', '-c', c.script], {
    cwd,
    env: caseEnv(cwd, locale),
    stdin: c.stdin === undefined ? undefined : Buffer.from(c.stdin, 'latin1'),
  });
}

const SHELL_PREFIX = /^(?:(?:[^\s:]*\/)?(?:bash|sh|agentos-shell)|environment): (?:line \d+: )?/;

export function normaliseStderr(s: string): string {
  return s
    .split('\n')
    .map((l) => l.replace(SHELL_PREFIX, 'SHELL: '))
    .join('\n');
}

export interface Mismatch {
  field: 'stdout' | 'stderr' | 'exit' | 'error';
  expected: string;
  actual: string;
}

export function compare(c: UCase, expected: Outcome, actual: Outcome): Mismatch[] {
  const out: Mismatch[] = [];
  const norm = (s: string) => (c.normalise ?? []).reduce((acc, [re, to]) => acc.replace(re, to), s);
  if (expected.error || actual.error) out.push({ field: 'error', expected: expected.error ?? '', actual: actual.error ?? '' });
  const [eo, ao] = [norm(expected.stdout), norm(actual.stdout)];
  if (eo !== ao) out.push({ field: 'stdout', expected: eo, actual: ao });
  if (c.stderr !== 'ignore') {
    const [ee, ae] = [normaliseStderr(expected.stderr), normaliseStderr(actual.stderr)];
    if (ee !== ae) out.push({ field: 'stderr', expected: ee, actual: ae });
  }
  if (expected.exitCode !== actual.exitCode) out.push({ field: 'exit', expected: String(expected.exitCode), actual: String(actual.exitCode) });
  return out;
}

const clip = (s: string, n = 400) => (s.length > n ? `${JSON.stringify(s.slice(0, n))}…(${s.length} chars)` : JSON.stringify(s));

export function describe(c: UCase, mm: Mismatch[]): string {
  const lines = [`✗ ${c.name}`, `    script: ${clip(c.script, 300)}`];
  for (const m of mm) {
    lines.push(`    ${m.field}: GNU     ${clip(m.expected)}`);
    lines.push(`    ${' '.repeat(m.field.length)}  agentOS ${clip(m.actual)}`);
  }
  return lines.join('\n');
}

export interface Result {
  name: string;
  pass: boolean;
  detail: string;
}

export async function diffCase(m: Machine, ws: Workspace, c: UCase, locale?: Locale): Promise<Result> {
  const cwd = ws.next();
  prepareHost(c, cwd);
  const expected = runHost(c, cwd, locale);
  await prepareVm(m, c, cwd);
  const actual = await runVm(m, c, cwd, locale);
  const mm = compare(c, expected, actual);
  return { name: c.name, pass: mm.length === 0, detail: mm.length ? describe(c, mm) : '' };
}

// The git differential harness: every case is a bash script run with the
// host's git (the oracle) and with agentOS git in one booted VM, in
// directories with the same absolute path and the same environment —
// fixed identities and a clock (`tick`) that gives every commit a fixed
// date, so object ids must match exactly. stdout and the exit status are
// compared byte for byte; stderr exactly unless a case says otherwise.

import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Machine } from '../../../src/host/api/machine.js';
import { spawnOutcome, vmOutcome, type Outcome } from '../../shell/diff/run.js';

export type { Outcome };

/**
 * Both shells run this first. (agentos-shell loses `export` done inside a
 * function, so the date variables are exported before `tick` assigns them.)
 */
export const PRELUDE = `export GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL=author@example.com
export GIT_COMMITTER_NAME='C O Mitter' GIT_COMMITTER_EMAIL=committer@example.com
export GIT_CONFIG_NOSYSTEM=1 TZ=UTC GIT_AUTHOR_DATE GIT_COMMITTER_DATE
T=1700000000
tick() { T=$((T+60)); GIT_AUTHOR_DATE="@$T +0000"; GIT_COMMITTER_DATE="@$T +0000"; }
tick
`;

export interface Dirs {
  cwd: string;
  home: string;
}

/** The locales every differential case runs under: bytes, and UTF-8 (the VM's default). */
export const LOCALES = ['C', 'C.UTF-8'] as const;
export type Locale = (typeof LOCALES)[number];

export function env(d: Dirs, locale: Locale = 'C'): Record<string, string> {
  // no system configuration: the host's /etc/gitconfig must not colour the oracle
  const loc: Record<string, string> = locale === 'C' ? { LANG: 'C', LC_ALL: 'C' } : { LANG: locale };
  return { HOME: d.home, PATH: '/usr/bin:/bin', ...loc, USER: 'user', TERM: 'dumb', GIT_CONFIG_NOSYSTEM: '1' };
}

/** A host temp root; case N gets ROOT/cN and ROOT/hN (HOME), created on both sides. */
export class Workspace {
  readonly root: string;
  private n = 0;

  constructor(prefix: string) {
    this.root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  }

  async next(m: Machine): Promise<Dirs> {
    const i = this.n++;
    const d = { cwd: join(this.root, `c${i}`), home: join(this.root, `h${i}`) };
    mkdirSync(d.cwd, { recursive: true });
    mkdirSync(d.home, { recursive: true });
    await m.mkdirp(d.cwd);
    await m.mkdirp(d.home);
    return d;
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

export function runHost(script: string, d: Dirs, locale: Locale = 'C'): Outcome {
  return spawnOutcome('bash', ['-c', PRELUDE + script], { cwd: d.cwd, env: env(d, locale), input: '' });
}

export function runVm(m: Machine, script: string, d: Dirs, locale: Locale = 'C'): Promise<Outcome> {
  return vmOutcome(m, ['/bin/bash', '-c', PRELUDE + script], { cwd: d.cwd, env: env(d, locale) });
}

/** How many git invocations a script makes (for the pass-rate report). */
export const invocations = (script: string): number => (script.match(/(^|[\s;&|(`$])git\s/g) ?? []).length;

export const clip = (s: string, n = 600): string => (s.length > n ? `${JSON.stringify(s.slice(0, n))}…(${s.length} chars)` : JSON.stringify(s));

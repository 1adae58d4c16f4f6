// Runs the Oils spec corpus (corpus/*.json, extracted by scripts/oils-extract.mjs):
// each case is a script run as `/bin/bash --norc --noprofile SCRIPT` in a fresh
// working directory, by the real bash on the host (the oracle, whose answers
// are cached in the corpus) and by agentos-shell in the VM. stdout and the exit
// status must match; stderr is not compared (the Oils harness does not either).
//
// Everything lives under one fixed absolute path, the same on the host and in
// the VM, so paths printed by a case ($PWD, $TMP, $0) compare byte for byte
// even though bash ran on another machine when its answers were recorded.

import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_PATH } from '../../../src/abi/env.js';
import { WEXITSTATUS, WIFEXITED, WTERMSIG } from '../../../src/abi/wait.js';
import type { Machine } from '../../../src/host/api/machine.js';

/** The corpus, helper programs and skip list in the source tree (found from dist/test/shell/ or test/shell/oils/). */
export const SRC = (() => {
  let dir = dirname(new URL(import.meta.url).pathname);
  for (let i = 0; i < 6; i++, dir = dirname(dir)) {
    try {
      statSync(join(dir, 'test/shell/oils/skips.json'));
      return join(dir, 'test/shell/oils');
    } catch {
      // up one
    }
  }
  throw new Error('test/shell/oils not found above ' + new URL(import.meta.url).pathname);
})();

/** The fixed root of every run: REPO_ROOT (spec/bin, spec/testdata), HOME, the scripts and the case directories. */
export const ROOT = '/tmp/agentos-oils-spec';
export const SHELL = '/bin/bash';
export const TIMEOUT_MS = 10_000;

export interface Answer {
  stdout: string;
  status: number;
}

export interface Case {
  n: number;
  name: string;
  line: number;
  code: string;
  legacyTmp?: boolean;
  /** bash's answer, recorded by the oracle run; absent until then. */
  bash?: Answer;
  /** Set by the oracle when bash gives different answers on two runs. */
  unstable?: string;
}

export interface SpecFile {
  file: string;
  source: string;
  commit: string;
  cases: Case[];
}

export interface Skips {
  files: Record<string, string>;
  /** "FILE#N" (N = the case's index in its file) -> reason. */
  cases: Record<string, string>;
}

export const caseId = (f: string, c: Case) => `${f}#${c.n}`;

export function loadCorpus(): SpecFile[] {
  const dir = join(SRC, 'corpus');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'latin1')) as SpecFile);
}

export function saveSpecFile(s: SpecFile): void {
  writeFileSync(join(SRC, 'corpus', `${s.file}.json`), JSON.stringify(s, null, 1) + '\n', 'latin1');
}

export function loadSkips(): Skips {
  return JSON.parse(readFileSync(join(SRC, 'skips.json'), 'utf8')) as Skips;
}

// ---------------------------------------------------------------- layout

export interface CaseDirs {
  script: string;
  cwd: string;
}

export function caseDirs(file: string, c: Case): CaseDirs {
  return { script: `${ROOT}/cases/${file}/${c.n}.sh`, cwd: `${ROOT}/tmp/${file}/${c.n}` };
}

/**
 * The environment of a case, as the Oils harness gives it (PATH, LC_ALL, REPO_ROOT, TMP) plus SH, HOME, USER, LANG.
 * PATH is the guest's default behind spec/bin, the same string on the host (where /opt/agentos/bin does not exist).
 */
/** The directory a case starts in (with an empty `_tmp` in it for files marked legacy_tmp_dir, as the Oils harness does). */
const makeDir = (dirs: CaseDirs, c: Case) => (c.legacyTmp ? `${dirs.cwd}/_tmp` : dirs.cwd);

export function caseEnv(dirs: CaseDirs): Record<string, string> {
  return {
    PATH: `${ROOT}/spec/bin:${DEFAULT_PATH}`,
    LC_ALL: 'C.UTF-8',
    LANG: 'C.UTF-8',
    REPO_ROOT: ROOT,
    TMP: dirs.cwd,
    SH: SHELL,
    HOME: `${ROOT}/home`,
    USER: 'user',
  };
}

/** The shared files every case may use: spec/bin (helper programs) and spec/testdata, path -> [content, mode]. */
export function sharedFiles(): Map<string, [Uint8Array, number]> {
  const out = new Map<string, [Uint8Array, number]>();
  const walk = (from: string, to: string, mode?: number) => {
    for (const e of readdirSync(from, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(from, e.name), `${to}/${e.name}`, mode);
      else out.set(`${to}/${e.name}`, [readFileSync(join(from, e.name)), mode ?? (statSync(join(from, e.name)).mode & 0o777)]);
    }
  };
  walk(join(SRC, 'bin'), `${ROOT}/spec/bin`, 0o755);
  walk(join(SRC, 'testdata'), `${ROOT}/spec/testdata`);
  return out;
}

// ---------------------------------------------------------------- the oracle (host bash)

export interface Outcome extends Answer {
  stderr: string;
  /** Set when the run did not finish (timeout, spawn failure). */
  error?: string;
}

export function prepareHost(): void {
  rmSync(ROOT, { recursive: true, force: true });
  for (const [p, [data, mode]] of sharedFiles()) {
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, data);
    chmodSync(p, mode);
  }
  mkdirSync(`${ROOT}/home`, { recursive: true });
}

/** Run one case with the host's bash (asynchronously, so several run at once). */
export function runHost(file: string, c: Case): Promise<Outcome> {
  const dirs = caseDirs(file, c);
  rmSync(dirs.cwd, { recursive: true, force: true });
  mkdirSync(makeDir(dirs, c), { recursive: true });
  mkdirSync(dirname(dirs.script), { recursive: true });
  writeFileSync(dirs.script, c.code, 'latin1');
  return new Promise((resolve) => {
    const child = spawn(SHELL, ['--norc', '--noprofile', dirs.script], {
      cwd: dirs.cwd,
      env: caseEnv(dirs),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // gone
      }
    }, TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const status = code ?? 128 + ((signal && (constants.signals as Record<string, number>)[signal]) || 0);
      const o: Outcome = { stdout: Buffer.concat(out).toString('latin1'), stderr: Buffer.concat(err).toString('latin1'), status };
      if (timedOut) o.error = `timed out after ${TIMEOUT_MS} ms`;
      resolve(o);
    });
  });
}

// ---------------------------------------------------------------- agentos-shell in the VM

export async function prepareVm(m: Machine): Promise<void> {
  for (const [p, [data, mode]] of sharedFiles()) {
    await m.mkdirp(dirname(p));
    await m.writeFile(p, data, mode);
  }
  await m.mkdirp(`${ROOT}/home`);
}

const latin1 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');

async function readAll(m: Machine, fd: number): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const b of m.readStream(fd)) parts.push(b);
  return parts.map(latin1).join('');
}

/**
 * Run one case with agentos-shell. The host's PATH never reaches the guest
 * (the kernel gives the guest its default), so the case starts through the
 * guest's env, which passes PATH on and execs the shell. The case gets a
 * process group of its own, killed whole at the timeout: a background job
 * still holding stdout must not hang the run.
 */
export async function runVm(m: Machine, file: string, c: Case): Promise<Outcome> {
  const dirs = caseDirs(file, c);
  try {
    await m.mkdirp(makeDir(dirs, c));
    await m.mkdirp(dirname(dirs.script));
    await m.writeFile(dirs.script, Buffer.from(c.code, 'latin1'));
    const env = caseEnv(dirs);
    const argv = ['/usr/bin/env', `PATH=${env.PATH}`, SHELL, '--norc', '--noprofile', dirs.script];
    const [outR, outW] = (await m.syscall('pipe')) as [number, number];
    const [errR, errW] = (await m.syscall('pipe')) as [number, number];
    const inR = (await m.syscall('open', '/dev/null', 0)) as number;
    let pid: number;
    try {
      pid = await m.spawn(argv, { cwd: dirs.cwd, env, fds: [[0, inR], [1, outW], [2, errW]], pgid: 0 });
    } finally {
      for (const fd of [inR, outW, errW]) await m.syscall('close', fd);
    }
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void m.syscall('kill', -pid, 9).catch(() => {});
    }, TIMEOUT_MS);
    const [stdout, stderr, [, st]] = await Promise.all([
      readAll(m, outR),
      readAll(m, errR),
      m.syscall('waitpid', pid, 0) as Promise<[number, number]>,
    ]);
    clearTimeout(timer);
    const status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    const o: Outcome = { stdout, stderr, status };
    if (timedOut) o.error = `timed out after ${TIMEOUT_MS} ms`;
    return o;
  } catch (e) {
    return { stdout: '', stderr: '', status: -1, error: `vm: ${(e as Error).message}` };
  }
}

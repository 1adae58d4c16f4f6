// The differential suite every file compressor (bzip2, xz) runs against the
// host's tool: fixtures on both sides, the case list checked, each command
// line run by bash with stdout, stderr and exit status compared; plus a
// scratch directory on the host for the interoperation tests.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { checkCaseList, runCases, setupFixtures, summarize, teardownFixtures, type Fixture } from '../../packages/oracle.js';

export interface Case {
  cmd: string;
  stdin?: string;
}

export const C = (cmd: string, stdin?: string): Case => ({ cmd, stdin });

/** Deterministic pseudo-random bytes (xorshift), some runs repeated so they compress a little. */
export function noise(n: number, seed: number): Uint8Array {
  const b = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    b[i] = i % 4096 < 1024 ? b[Math.max(0, i - 1024)] : x & 0xff;
  }
  return b;
}

/** `lines` lines of text that compress well. */
export const sampleText = (lines: number): string =>
  Array.from({ length: lines }, (_, i) => `line ${i} of the quick brown fox ${i * 7919 % 1000}\n`).join('');

/** The host's tool run on `data` with `args`; its stdout. */
export function hostRun(tool: string, data: Uint8Array | string, args: string[]): Uint8Array {
  const r = spawnSync(tool, args, { input: data, maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, r.stderr?.toString());
  return new Uint8Array(r.stdout);
}

export interface SuiteOptions {
  /** The command, as the tests are named. */
  name: string;
  /** The oracle, as the differential test is named ("bzip2 1.0.8"). */
  against: string;
  /** Asserts the host's tool is that oracle. */
  checkOracle: () => void;
  cases: readonly Case[];
  /** Cases known to differ from the oracle, with the reason. */
  divergences: Record<string, string>;
  /** At least this many cases. */
  min: number;
  /** The fixture files, made before the tests run. */
  files: () => Record<string, string | Uint8Array>;
}

/** Registers the suite's hooks and its two tests; the fixture and the scratch directory for the caller's own tests. */
export function compressorSuite(o: SuiteOptions): { fx: () => Fixture; scratch: () => string } {
  let fx: Fixture | null = null;
  let scratch = '';
  before(async () => {
    fx = await setupFixtures(`agentos-${o.name}-`, o.files());
    scratch = mkdtempSync(join(tmpdir(), `agentos-${o.name}-interop-`));
  });
  after(async () => {
    await teardownFixtures(fx);
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });
  test(`${o.name}: the case list is well formed`, () => {
    checkCaseList(o.cases, o.divergences, { min: o.min, key: (c) => `${c.cmd}\0${c.stdin ?? ''}` });
  });
  test(`${o.name}: differential against ${o.against}`, async () => {
    o.checkOracle();
    const results = await runCases(fx!, o.cases, () => ({ sorted: false, stderrOk: (want, got) => want === got }));
    summarize(o.name, results, o.divergences);
  });
  return { fx: () => fx!, scratch: () => scratch };
}

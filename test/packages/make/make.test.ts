// Differential tests of agentOS make against the host's GNU Make 4.3: each
// case is a small project in a directory of its own (the same files at the
// same absolute path on both sides), and one command line run there by bash.
// stdout, stderr and the exit status must match (stdout as sorted lines for
// parallel runs, whose jobs interleave).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { checkCaseList, requireOracle, runCases, setupFixtures, sortLines, summarize, teardownFixtures, type Fixture } from '../oracle.js';
import { CASES, type MakeCase } from './cases.js';

/** Cases known to differ from GNU make, with the reason. */
const divergences: Record<string, string> = {};

const dirOf = new Map<MakeCase, string>(CASES.map((c, i) => [c, `c${i}-${c.name}`]));
const cmdOf = (c: MakeCase) => `cd ${dirOf.get(c)} && { ${c.cmd}; }`;

let fx: Fixture | null = null;

before(async () => {
  const files: Record<string, string> = {};
  for (const c of CASES) for (const [rel, text] of Object.entries(c.files)) files[`${dirOf.get(c)}/${rel}`] = text;
  fx = await setupFixtures('agentos-make-', files);
});

after(async () => {
  await teardownFixtures(fx);
});

test('make: the case list is well formed', () => {
  const names = new Set(CASES.map((c) => c.name));
  assert.equal(names.size, CASES.length, 'case names must be unique');
  checkCaseList(CASES.map((c) => ({ cmd: cmdOf(c) })), divergences, { min: 100 });
});

test('make: differential against GNU Make 4.3', async () => {
  requireOracle('make', /GNU Make 4\.3/, 'the oracle must be GNU Make 4.3');
  const sorted = new Set(CASES.filter((c) => c.sorted).map(cmdOf));
  const results = await runCases(fx!, CASES.map((c) => ({ cmd: cmdOf(c) })), (c) => ({
    sorted: sorted.has(c.cmd),
    stderrOk: (want, got) => (sorted.has(c.cmd) ? sortLines(want) === sortLines(got) : want === got),
  }));
  summarize('make', results, divergences);
});

test('make: endless recursion (a makefile including itself, a function calling itself) stops with an error', async () => {
  // GNU make overflows its stack and dies here: there is nothing to compare with.
  const m = fx!.m;
  await m.mkdirp(`${fx!.root}/endless`);
  await m.writeFile(`${fx!.root}/endless/Makefile`, 'include Makefile\nall:;@echo hi\n');
  await m.writeFile(`${fx!.root}/endless/call.mk`, 'f = $(call f)\nall:;@echo $(call f)\n');
  for (const args of [[], ['-f', 'call.mk']]) {
    const r = await m.run(['/opt/agentos/bin/make', ...args], { cwd: `${fx!.root}/endless` });
    assert.equal(r.exitCode, 2);
    assert.equal(Buffer.from(r.stderr).toString(), 'make: *** recursion too deep (an include or a function that never ends).  Stop.\n');
  }
});

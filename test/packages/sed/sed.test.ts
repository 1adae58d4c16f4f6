// Differential tests of agentOS sed against the host's GNU sed: the same
// fixture tree at the same absolute path on the host and in one booted VM,
// each command line run by `bash -c` on both sides. stdout must match byte for
// byte, the exit status exactly, and stderr line by line (after the `sed: `
// prefix). -i cases edit a fresh copy and print it, so file contents compare.

import { after, before, test } from 'node:test';
import { checkCaseList, LOCALES, requireOracle, runCases, setupFixtures, shapeStderr, summarize, teardownFixtures, type Fixture, type Judgement } from '../oracle.js';
import { CASES, divergences, FILES, utf8Divergences, type Case } from './cases.js';

let fx: Fixture | null = null;

before(async () => {
  fx = await setupFixtures('agentos-sed-', FILES);
});

after(async () => {
  await teardownFixtures(fx);
});

/** stderr shape: each line's program-name prefix normalised to `sed: `. */
const shape = (s: string) => shapeStderr(s, /^\S*sed: /gm, 'sed: ');

test('sed: the case list is well formed', () => {
  checkCaseList(CASES, { ...divergences, ...utf8Divergences }, { min: 120 });
});

for (const loc of LOCALES) {
  test(`sed: differential against GNU sed (${loc.name})`, async () => {
    requireOracle('sed', /GNU sed/, 'the oracle must be GNU sed');
    const judge = (c: Case): Judgement => ({
      sorted: !!c.sorted,
      stderrOk: (want, got) => !!c.ignoreStderr || shape(want) === shape(got),
    });
    const results = await runCases(fx!, CASES, judge, loc.env);
    summarize(`sed [${loc.name}]`, results, loc.utf8 ? { ...divergences, ...utf8Divergences } : divergences);
  });
}

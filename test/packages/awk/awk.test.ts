// Differential tests of agentOS awk against the host's GNU awk: the same
// fixture tree at the same absolute path on the host and in one booted VM,
// each command line run by `bash -c` on both sides. stdout must match byte for
// byte, the exit status exactly, and stderr by shape: exactly (after the
// `awk: ` prefix) unless a case says only that there must be some.

import { after, before, test } from 'node:test';
import { checkCaseList, LOCALES, requireOracle, runCases, setupFixtures, shapeStderr, summarize, teardownFixtures, type Fixture, type Judgement } from '../oracle.js';
import { CASES, divergences, FILES, utf8Divergences, type Case } from './cases.js';

let fx: Fixture | null = null;

before(async () => {
  fx = await setupFixtures('agentos-awk-', FILES);
});

after(async () => {
  await teardownFixtures(fx);
});

/** stderr shape: each line's program-name prefix normalised to `awk: `. */
const shape = (s: string) => shapeStderr(s, /^\S*awk: /gm, 'awk: ');

test('awk: the case list is well formed', () => {
  checkCaseList(CASES, { ...divergences, ...utf8Divergences }, { min: 120 });
});

for (const loc of LOCALES) {
  test(`awk: differential against GNU awk (${loc.name})`, async () => {
    requireOracle('awk', /GNU Awk/, 'the oracle must be GNU awk (apt-get install gawk)');
    const judge = (c: Case): Judgement => ({
      sorted: !!c.sorted,
      stderrOk: (want, got) => !!c.ignoreStderr || (c.someStderr ? want !== '' && got !== '' : shape(want) === shape(got)),
    });
    const results = await runCases(fx!, CASES, judge, loc.env);
    summarize(`awk [${loc.name}]`, results, loc.utf8 ? { ...divergences, ...utf8Divergences } : divergences);
  });
}

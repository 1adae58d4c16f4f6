// Differential tests of agentOS awk against the host's GNU awk: the same
// fixture tree at the same absolute path on the host and in one booted VM,
// each command line run by `bash -c` on both sides. stdout must match byte for
// byte, the exit status exactly, and stderr by shape: exactly (after the
// `awk: ` prefix) unless a case says only that there must be some.

import { after, before, test } from 'node:test';
import { checkCaseList, requireOracle, runCases, setupFixtures, shapeStderr, summarize, teardownFixtures, type Fixture } from '../oracle.js';
import { CASES, divergences, FILES } from './cases.js';

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
  checkCaseList(CASES, divergences, { min: 120 });
});

test('awk: differential against GNU awk', async () => {
  requireOracle('awk', /GNU Awk/, 'the oracle must be GNU awk (apt-get install gawk)');
  const results = await runCases(fx!, CASES, (c) => ({
    sorted: !!c.sorted,
    stderrOk: (want, got) => !!c.ignoreStderr || (c.someStderr ? want !== '' && got !== '' : shape(want) === shape(got)),
  }));
  summarize('awk', results, divergences);
});

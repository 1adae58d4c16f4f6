// Differential tests of agentOS bc against the host's GNU bc: the same
// fixture files on both sides, each command line run by `bash -c`. stdout and
// the exit status must match byte for byte; stderr too, except the "adr=N"
// of runtime messages (an address in GNU bc's bytecode, which agentOS bc,
// running a syntax tree, does not have).

import { after, before, test } from 'node:test';
import { checkCaseList, LOCALES, requireOracle, runCases, setupFixtures, summarize, teardownFixtures, type Fixture } from '../oracle.js';
import { CASES, divergences, FILES } from './cases.js';

let fx: Fixture | null = null;

before(async () => {
  fx = await setupFixtures('agentos-bc-', FILES);
});

after(async () => {
  await teardownFixtures(fx);
});

const shape = (s: string) => s.replace(/adr=\d+/g, 'adr=N');

test('bc: the case list is well formed', () => {
  checkCaseList(CASES, divergences, { min: 60, key: (c) => `${c.cmd}\0${c.stdin ?? ''}` });
});

for (const loc of LOCALES) {
  test(`bc: differential against GNU bc (${loc.name})`, async () => {
    requireOracle('bc', /^bc 1\./, 'the oracle must be GNU bc (apt-get install bc)');
    const results = await runCases(fx!, CASES, () => ({ sorted: false, stderrOk: (want, got) => shape(want) === shape(got) }), loc.env);
    summarize(`bc [${loc.name}]`, results, divergences);
  });
}

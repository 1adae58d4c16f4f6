// Differential tests of agentOS jq against the host's jq: the same fixture
// tree at the same absolute path on the host and in one booted VM, each
// command line run by `bash -c` on both sides. stdout must match byte for
// byte, the exit status exactly, and stderr exactly — except compile errors
// whose bison wording changes between jq versions (`syntax` cases: the first
// words and the "compile error" count line must agree).
//
// agentOS jq follows jq 1.7.1. When the host jq is 1.6 (Debian 12's), the
// cases whose behaviour changed in 1.7 are excused with their reason
// (divergences16); on a jq 1.7 host they must match.

import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { checkCaseList, requireOracle, runCases, setupFixtures, summarize, teardownFixtures, type Fixture } from '../oracle.js';
import { CASES, divergences, divergences16, FILES, type Case } from './cases.js';

let fx: Fixture | null = null;

before(async () => {
  fx = await setupFixtures('agentos-jq-', FILES);
});

after(async () => {
  await teardownFixtures(fx);
});

const lastLine = (s: string) => s.trimEnd().split('\n').pop() ?? '';

function stderrOk(c: Case, want: string, got: string): boolean {
  if (c.ignoreStderr) return true;
  if (c.syntax) {
    const head = 'jq: error: syntax error, unexpected';
    return want.startsWith(head) === got.startsWith(head) && lastLine(want) === lastLine(got);
  }
  return want === got;
}

test('jq: the case list is well formed', () => {
  checkCaseList(CASES, { ...divergences, ...divergences16 }, { min: 300 });
});

test('jq: differential against jq', async () => {
  requireOracle('jq', /^jq-1\.[67]/, 'the oracle must be jq 1.6 or 1.7 (apt-get install jq)');
  const version = spawnSync('jq', ['--version'], { encoding: 'utf8' }).stdout.trim();
  const known = version === 'jq-1.6' ? { ...divergences16, ...divergences } : divergences;
  const results = await runCases(fx!, CASES, (c) => ({ sorted: false, stderrOk: (want, got) => stderrOk(c, want, got) }));
  summarize(`jq (oracle ${version})`, results, known);
});

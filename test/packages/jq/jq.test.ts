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

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { checkCaseList, LOCALES, requireOracle, runCases, setupFixtures, summarize, teardownFixtures, type Fixture } from '../oracle.js';
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

for (const loc of LOCALES) {
  test(`jq: differential against jq (${loc.name})`, async () => {
    requireOracle('jq', /^jq-1\.[67]/, 'the oracle must be jq 1.6 or 1.7 (apt-get install jq)');
    const version = spawnSync('jq', ['--version'], { encoding: 'utf8' }).stdout.trim();
    const known = version === 'jq-1.6' ? { ...divergences16, ...divergences } : divergences;
    const results = await runCases(fx!, CASES, (c) => ({ sorted: false, stderrOk: (want, got) => stderrOk(c, want, got) }), loc.env);
    summarize(`jq (oracle ${version}) [${loc.name}]`, results, known);
  });
}

/** ~10 MB JSON array of small records (a fixed pseudo-random sequence). */
function benchData(): string {
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const items: string[] = [];
  let size = 0;
  for (let i = 0; size < 10_000_000; i++) {
    const s = JSON.stringify({ a: Math.floor(rnd() * 11), b: `item-${i}`, c: [rnd(), rnd()], d: { x: i, y: 'abc' } });
    items.push(s);
    size += s.length + 1;
  }
  return `[${items.join(',')}]`;
}

// JQ_BENCH=1 node --test dist/test/packages/jq/jq.test.js
test('jq: bench, .[] | select(.a > 5) | .b over 10 MB', { skip: !process.env.JQ_BENCH }, async () => {
  const file = `${fx!.root}/bench.json`;
  const data = benchData();
  writeFileSync(file, data);
  await fx!.m.writeFile(file, data);
  const cmd = `jq '.[] | select(.a > 5) | .b' ${file} | md5sum`;
  const time = async (run: () => Promise<string> | string): Promise<[number, string]> => {
    const t0 = performance.now();
    const out = await run();
    return [performance.now() - t0, out];
  };
  const host: number[] = [];
  const vm: number[] = [];
  let want = '';
  let got = '';
  for (let i = 0; i < 3; i++) {
    const [h, hOut] = await time(() => spawnSync('bash', ['-c', cmd], { encoding: 'utf8' }).stdout);
    const [v, vOut] = await time(async () => new TextDecoder().decode((await fx!.m.run(['/bin/bash', '-c', cmd], { timeoutMs: 120_000 })).stdout));
    host.push(h);
    vm.push(v);
    want = hOut;
    got = vOut;
  }
  assert.equal(got, want, 'same output');
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1];
  const mb = (data.length / 1e6).toFixed(1);
  console.log(`jq bench (${mb} MB): agentOS ${median(vm).toFixed(0)} ms, native ${median(host).toFixed(0)} ms, ratio ${(median(vm) / median(host)).toFixed(2)}x`);
});

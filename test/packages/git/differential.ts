// The git differential: every case in cases.ts through the host's git and
// agentOS git in one locale (git.test.ts: LC_ALL=C; utf8.test.ts:
// LANG=C.UTF-8, each a file of its own so each stays inside the per-file time
// limit).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { boot } from '../../../src/host/node/index.js';
import type { Machine } from '../../../src/host/node/index.js';
import { CASES, FIXTURES, type GitCase } from './cases.js';
import { clip, invocations, runHost, runVm, Workspace, type Dirs, type Locale, type Outcome } from './harness.js';

/** Cases known to differ from git, with the reason. Every other case must match. */
export const DIVERGENCES: Record<string, string> = {
  'diff: during a conflict': 'combined diffs (diff --cc) are not produced: agentOS prints "* Unmerged path" for conflicted paths',
  'merge: a renamed file': "isomorphic-git's merge has no rename detection: a file renamed on one side and edited on the other is a modify/delete conflict",
};

function differences(c: GitCase, want: Outcome, got: Outcome): string[] {
  const d: string[] = [];
  if (want.error || got.error) d.push(`error:  git ${want.error ?? '-'} / agentOS ${got.error ?? '-'}`);
  if (want.stdout !== got.stdout) d.push(`stdout: git     ${clip(want.stdout)}\n            agentOS ${clip(got.stdout)}`);
  if (c.stderr !== 'ignore' && want.stderr !== got.stderr) d.push(`stderr: git     ${clip(want.stderr)}\n            agentOS ${clip(got.stderr)}`);
  if (want.exitCode !== got.exitCode) d.push(`status: git ${want.exitCode}, agentOS ${got.exitCode}`);
  return d;
}

/** The differential cases in one locale, in a VM of their own. */
export function gitDifferential(locale: Locale): void {
  let m: Machine;
  let ws: Workspace;
  before(async () => {
    ws = new Workspace(`agentos-git-${locale === 'C' ? 'c' : 'utf8'}-`);
    m = await boot();
  });
  after(async () => {
    ws?.dispose();
    if (m) await m.stop();
  });
  test(`git: differential against the host git (${locale})`, async () => {
    const shared = new Map<string, Dirs>();
    const fixture = async (name: GitCase['fixture']): Promise<Dirs> => {
      const hit = shared.get(name);
      if (hit) return hit;
      const d = await ws.next(m);
      const want = runHost(FIXTURES[name], d, locale);
      const got = await runVm(m, FIXTURES[name], d, locale);
      assert.equal(want.exitCode, 0, `fixture ${name} on the host: ${want.stderr}`);
      assert.deepEqual({ ...got, stderr: got.stderr }, want, `fixture ${name} must build the same way in agentOS`);
      shared.set(name, d);
      return d;
    };
    const failures: string[] = [];
    const divergent: string[] = [];
    let passed = 0;
    let calls = 0;
    let callsPassed = 0;
    for (const c of CASES) {
      const fresh = c.fresh || c.fixture === 'none' || c.fixture === 'empty';
      const d = fresh ? await ws.next(m) : await fixture(c.fixture);
      const script = fresh ? FIXTURES[c.fixture] + c.script : c.script;
      const want = runHost(script, d, locale);
      const got = await runVm(m, script, d, locale);
      const diff = differences(c, want, got);
      const n = invocations(c.script);
      calls += n;
      if (diff.length === 0) {
        passed++;
        callsPassed += n;
        if (c.name in DIVERGENCES) failures.push(`✓ ${c.name} is listed as a divergence but matches now`);
      } else if (c.name in DIVERGENCES) divergent.push(`${c.name}: ${DIVERGENCES[c.name]}`);
      else failures.push(`✗ ${c.name}\n    script: ${c.script}\n    ${diff.join('\n    ')}`);
    }
    console.log(`git diff (${locale}): ${passed}/${CASES.length} cases passed (${((100 * passed) / CASES.length).toFixed(1)}%), ${callsPassed}/${calls} git invocations in passing cases; ${divergent.length} known divergences`);
    for (const d of divergent) console.log(`  divergence: ${d}`);
    assert.equal(failures.length, 0, failures.join('\n'));
  });
}

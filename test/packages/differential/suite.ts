// The userland differential suite: every case in cases/*.ts runs through the
// host's GNU tools and through agentOS's commands in ONE booted VM (run.ts),
// in one locale. One test per command family, then an overall pass-rate line.
// Each locale is a test file of its own (c.test.ts, utf8.test.ts), so the two
// runs go side by side and each stays well inside the per-file time limit.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { boot } from '../../../src/host/node/index.js';
import type { Machine } from '../../../src/host/node/index.js';
import { FAMILIES } from './cases/index.js';
import { diffCase, Workspace, type Locale, type Result } from './run.js';

export function differentialSuite(locale: Locale): void {
  const all = FAMILIES.flatMap((f) => f.cases);
  const results: Result[] = [];
  let ws: Workspace;
  let m: Machine;

  before(async () => {
    ws = new Workspace();
    m = await boot();
  });

  after(async () => {
    ws?.dispose();
    if (m) await m.stop();
  });

  test('userland diff: the suite is well formed', () => {
    const names = all.map((c) => c.name);
    assert.equal(new Set(names).size, names.length, 'case names must be unique');
    assert.ok(all.length >= 150, `at least 150 cases; there are ${all.length}`);
  });

  for (const { family, cases } of FAMILIES) {
    test(`userland diff [${locale.name}]: ${family}`, async () => {
      const mine: Result[] = [];
      for (const c of cases) mine.push(await diffCase(m, ws, c, locale));
      results.push(...mine);
      const failed = mine.filter((r) => !r.pass);
      console.log(`userland diff [${locale.name}]: family=${family} ${mine.length - failed.length}/${mine.length} passed`);
      if (failed.length) assert.fail(`${failed.length} of ${mine.length} cases differ:\n${failed.map((r) => r.detail).join('\n')}`);
    });
  }

  test(`userland diff [${locale.name}]: overall pass rate`, () => {
    const passed = results.filter((r) => r.pass).length;
    const pct = results.length ? ((100 * passed) / results.length).toFixed(1) : '0.0';
    console.log(`userland diff [${locale.name}]: overall ${passed}/${results.length} passed = ${pct}% (${all.length} cases in ${FAMILIES.length} families)`);
    assert.equal(results.length, all.length, 'every family must have run');
    assert.equal(passed, results.length, 'every case must pass');
  });
}

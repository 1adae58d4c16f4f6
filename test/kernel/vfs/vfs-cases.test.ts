// Runs the shared errno table (test/kernel/vfs-cases.ts) directly against Vfs,
// with a small in-test fd table and pipe standing in for the process layer.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cases } from '../vfs-cases.js';
import { runCase } from '../vfs-cases-runner.js';
import { VfsTarget } from './case-target.js';

test('the table has at least 120 uniquely named cases', () => {
  assert.ok(cases.length >= 120, `only ${cases.length} cases`);
  assert.equal(new Set(cases.map((c) => c.name)).size, cases.length, 'duplicate case names');
});

for (const c of cases) {
  test(`vfs case: ${c.name}`, () => {
    const r = runCase(new VfsTarget(), c);
    assert.ok(r.pass, r.detail);
  });
}

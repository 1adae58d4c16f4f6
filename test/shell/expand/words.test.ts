// Differential tests: each case is expanded by bash (on this machine) and by
// expandWords, and the fields (or the error message) must be identical.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { paramCases } from './cases.js';
import { ours, theirs } from './helpers.js';

for (const [setup, src] of paramCases) {
  test(`bash: ${setup ? setup + ' ; ' : ''}${src}`, () => {
    assert.equal(ours(setup, src), theirs(setup, src));
  });
}

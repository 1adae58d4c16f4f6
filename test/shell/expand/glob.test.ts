// Differential globbing: the same tree on the host, globbed by bash and by
// expandWords (whose test context lists the real directories).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, test } from 'node:test';
import { globCases } from './cases.js';
import { ours, theirs } from './helpers.js';
import { makeTree } from './tree.js';

const root = makeTree();
after(() => rmSync(root, { recursive: true, force: true }));

for (const [setup, src] of globCases) {
  test(`glob: ${setup ? setup + ' ; ' : ''}${src}`, () => {
    assert.equal(ours(setup, src, root), theirs(setup, src, root));
  });
}

// Sanity check that `npm run build` produced the Node bundles the host needs:
// the host finds its workers beside dist/node/index.js via import.meta.url.
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';

// This file runs as dist/test/infra/build.test.js; the repo root is three levels up.
const root = new URL('../../../', import.meta.url);

for (const [bundle, source] of [
  ['dist/node/kernel.worker.js', 'workers/kernel.node.ts'],
  ['dist/node/process.worker.js', 'workers/process.node.ts'],
  ['dist/node/index.js', 'src/host/node/index.ts'],
]) {
  test(`build emits ${bundle}`, (t) => {
    if (!existsSync(new URL(source, root))) {
      t.skip(`${source} does not exist yet`);
      return;
    }
    assert.ok(existsSync(new URL(bundle, root)), `${bundle} missing after build`);
  });
}

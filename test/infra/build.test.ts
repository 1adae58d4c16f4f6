// Sanity check that `npm run build` produced the Node bundles the host needs:
// the host finds its workers beside dist/node/index.js via import.meta.url.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import vm from 'node:vm';
import { crc32 } from 'node:zlib';
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

// WebKit (2.50) does not enter a module worker's top-level script in its module map: a chunk that
// imports the worker's entry chunk evaluates it a second time in the same worker (decision 0066).
test('no chunk of dist/web imports a worker entry chunk', (t) => {
  const assets = new URL('dist/web/assets/', root);
  if (!existsSync(assets)) {
    t.skip('dist/web is not built');
    return;
  }
  const files = readdirSync(assets).filter((f) => f.endsWith('.js'));
  const entries = files.filter((f) => /^[\w-]+\.browser-[\w-]+\.js$/.test(f));
  assert.ok(entries.some((f) => f.startsWith('process.browser-')), 'the process worker entry is built');
  for (const f of files) {
    const code = readFileSync(new URL(f, assets), 'utf8');
    for (const entry of entries) assert.ok(!code.includes(`"./${entry}"`), `${f} imports the worker entry ${entry}`);
  }
});

// Decision 0087: the process worker runs its script from a code cache made by the build; a cache this
// Node refused would cost every worker a compile of the whole script, silently.
test("the process worker's code cache is one this Node accepts", (t) => {
  const dir = new URL('dist/node/', root);
  if (!existsSync(dir)) {
    t.skip('dist/node is not built');
    return;
  }
  const cache = readdirSync(dir).find((f) => /^process\.main-[0-9a-f]+\.cache$/.test(f));
  assert.ok(cache, 'the build wrote a code cache');
  const script = new URL(cache.replace(/\.cache$/, '.js'), dir);
  const entry = readFileSync(new URL('process.worker.js', dir), 'utf8');
  assert.ok(entry.includes(`./${cache}`), 'the entry names the cache of its script');
  // The file is the cache's CRC-32, then the cache (V8 does not check its bytes; the entry does).
  const file = readFileSync(new URL(cache, dir));
  assert.equal(file.readUInt32LE(0), crc32(file.subarray(4)), 'the cache is whole');
  const compiled = new vm.Script(readFileSync(script, 'utf8'), { filename: script.href, cachedData: file.subarray(4) });
  assert.equal(compiled.cachedDataRejected, false);
});

// CRuby on the Node host: the package (dist/ruby/) installed once into one
// machine, then the shared ruby cases (also run in Chromium by e2e/wasm.spec.ts).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { boot } from '../../../src/host/node/index.js';
import type { Machine } from '../../../src/host/machine.js';
import { installPackage } from './packages.js';
import { rubyCases } from './ruby-cases.js';

let m: Machine;

before(async () => {
  m = await boot();
});

after(async () => {
  await m.stop();
});

test('ruby: the package installs with agentos-software and links ruby', async () => {
  assert.match(await installPackage(m, 'ruby'), /^installed ruby \S+\nlinked ruby\n$/);
});

for (const c of rubyCases) test(c.name, () => c.run(m));

test('ruby -e: time of a first and of later runs', async (t) => {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const r = await m.run(['/bin/sh', '-c', `ruby -e 'puts File.read("/etc/hostname")'`]);
    times.push(performance.now() - t0);
    assert.equal(r.exitCode, 0);
  }
  t.diagnostic(`ruby -e: ${times.map((x) => x.toFixed(0)).join(', ')} ms`);
});

// CRuby on the Node host: the package (dist/ruby/) installed once into one
// machine, then the shared ruby cases (also run in Chromium by e2e/wasm.spec.ts).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { boot } from '../../../src/host/node/index.js';
import type { Machine } from '../../../src/host/api/machine.js';
import { installPackage } from './packages.js';
import { rubyCases } from './ruby-cases.js';

let m: Machine;

before(async () => {
  m = await boot();
});

after(async () => {
  await m.stop();
});

const sh = async (cmd: string) => {
  const r = await m.run(['/bin/sh', '-c', cmd]);
  return { out: new TextDecoder().decode(r.stdout), err: new TextDecoder().decode(r.stderr), code: r.exitCode };
};

test('agentos-software search and info read the host repository; an unknown name is an error', async () => {
  const s = await sh('agentos-software search');
  assert.equal(s.code, 0);
  assert.match(s.out, /^clang \S+ \(\d+\.\d MB\)\n {2}C and C\+\+ .*\nruby 3\.4\.\d+ \(\d+\.\d MB\)\n {2}CRuby 3\.4 /);
  assert.match((await sh('agentos-software search ruby')).out, /^ruby 3\.4\.\d+ \(/);
  assert.equal((await sh('agentos-software search nothing-like-it')).code, 1);
  const i = await sh('agentos-software info ruby');
  assert.match(i.out, /^Name: ruby\nVersion: 3\.4\.\d+\nSize: \d+\.\d MB in 3 files\nCommands: ruby\nDescription: CRuby 3\.4/);
  const n = await sh('agentos-software install no-such-package');
  assert.deepEqual([n.code, n.err], [1, "agentos-software: install: no package 'no-such-package' in the repository ('agentos-software search' lists them)\n"]);
});

test('agentos.repository serves a guest only listed packages and their listed files, never other host paths', async () => {
  const probe = [
    '#!/usr/libexec/agentos/js',
    "const t = async (f) => { try { return 'OK ' + (await f()).length; } catch (e) { return 'ERR ' + e.message; } };",
    "agentos.print((await t(() => agentos.repository.read('ruby', '../node/index.js'))) + '\\n');",
    "agentos.print((await t(() => agentos.repository.read('../node', 'index.js'))) + '\\n');",
    "agentos.print((await t(() => agentos.repository.files('clang.files.json#'))) + '\\n');",
    "agentos.print((await t(() => agentos.repository.read('ruby', 'package.json'))) + '\\n');",
  ].join('\n');
  await m.writeFile('/tmp/probe', probe, 0o755);
  const r = await sh('/tmp/probe; rm /tmp/probe');
  assert.match(
    r.out,
    /^ERR ruby has no file \.\.\/node\/index\.js\nERR no package '\.\.\/node' in the repository\nERR no package 'clang\.files\.json#' in the repository\nOK \d+\n$/,
  );
});

test('ruby: agentos-software install ruby fetches it from the host repository with a progress bar, at Ruby\'s version', async () => {
  const r = await installPackage(m, 'ruby');
  assert.match(r.stdout, /^installed ruby 3\.4\.\d+\nlinked ruby\n$/);
  assert.match(r.stderr, /^\rfetching ruby 3\.4\.\d+ \[ +\] +0% 0\.0 MB\/\d+\.\d MB.*\rfetching ruby 3\.4\.\d+ \[#{30}\] 100% (\d+\.\d) MB\/\1 MB\n$/s);
  // The staging copy is gone; the version installed is the one ruby reports.
  assert.equal((await sh('ls /tmp')).out, '');
  assert.match((await sh('ruby --version')).out, new RegExp(`^ruby ${/ruby (\S+)/.exec(r.stdout)![1].replace(/\./g, '\\.')} `));
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

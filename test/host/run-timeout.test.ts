// Machine.run's timeout ends what the program started too: a background child
// that keeps the output pipes open must not keep the host waiting forever.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { boot } from '../../src/host/node/index.js';
import type { Machine } from '../../src/host/api/machine.js';

let m: Machine;

before(async () => {
  m = await boot();
});

after(async () => {
  await m.stop();
});

test('run: timeoutMs kills the program and its background children (they hold its stdout)', { timeout: 30_000 }, async () => {
  const r = await m.run(['/bin/sh', '-c', 'sleep 100 & echo started; wait'], { timeoutMs: 500 });
  assert.equal(new TextDecoder().decode(r.stdout), 'started\n');
  assert.equal(r.signal, 9);
  assert.equal(r.exitCode, 137);
});

test('run: a program that ends in time is unaffected, and runs in a process group of its own', async () => {
  const r = await m.run(['/bin/sh', '-c', 'ps -o pid=,pgid= -p $$'], { timeoutMs: 20_000 });
  const [pid, pgid] = new TextDecoder().decode(r.stdout).trim().split(/\s+/);
  assert.equal(pid, pgid);
  assert.equal(r.exitCode, 0);
});

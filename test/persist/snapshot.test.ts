// Snapshots of the writable layer on the Node host: create, list, restore
// (atomic, every process stopped, the session reopened), delete, and the
// portable file moved between VMs — ephemeral and persistent.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';

const sh = async (vm: AgentVM, cmd: string) => (await vm.exec(cmd)).stdout;

test('snapshot: create, change everything, restore, and the old state is back', async () => {
  const vm = new AgentVM();
  await vm.start();
  try {
    await sh(vm, 'mkdir -p p/q && echo one > p/q/f && ln -s p/q/f l && cd p');
    const before = await sh(vm, 'cd ~ && ls -laR --time-style=+ . | sort; cat l');
    const info = await vm.snapshot('base');
    assert.equal(info.name, 'base');
    await sh(vm, 'cd ~ && echo two > p/q/f && rm l && mkdir more && touch more/x && rm -f .profile');
    // A background process is stopped by the restore.
    await sh(vm, 'sleep 1000 &');
    await vm.restore('base');
    assert.equal(await sh(vm, 'cd ~ && ls -laR --time-style=+ . | sort; cat l'), before);
    assert.equal(await sh(vm, 'pwd'), '/home/user\n', 'a fresh session');
    assert.equal(await sh(vm, 'ps -e -o comm= | grep -c sleep'), '0\n');
    assert.deepEqual((await vm.snapshots.list()).map((s) => s.name), ['base']);
    await vm.snapshots.delete('base');
    assert.deepEqual(await vm.snapshots.list(), []);
    await assert.rejects(vm.restore('base'), /no snapshot 'base'/);
    await assert.rejects(vm.snapshot('../x'), /invalid snapshot name/);
    // /tmp, /proc and /dev are still mounted.
    assert.equal(await sh(vm, "df /tmp | awk 'NR == 2 { print $1 }'; ls /proc/self/fd | head -1; echo x > /dev/null && echo ok"), 'tmpfs\n0\nok\n');
  } finally {
    await vm.stop();
  }
});

test('snapshot: an exported file restores in another VM; a persistent VM keeps snapshots and restores durably', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentos-snap-'));
  const a = new AgentVM();
  await a.start();
  let file: Uint8Array;
  try {
    await sh(a, 'seq 1000 > numbers && mkdir d && echo hi > d/greeting');
    await a.snapshot('s1');
    file = await a.snapshots.export('s1');
  } finally {
    await a.stop();
  }
  const b = new AgentVM({ state: join(dir, 'vm') });
  await b.start();
  try {
    await sh(b, 'echo mine > own');
    await b.snapshots.import('from-a', file);
    await assert.rejects(b.snapshots.import('bad', file.subarray(0, file.length - 3)), /not an agentOS snapshot/);
    await b.restore('from-a');
    assert.equal(await sh(b, 'ls; wc -l < numbers; cat d/greeting'), 'd\nnumbers\n1000\nhi\n');
  } finally {
    await b.stop();
  }
  const c = new AgentVM({ state: join(dir, 'vm') });
  await c.start();
  try {
    assert.equal(await sh(c, 'ls; cat d/greeting'), 'd\nnumbers\nhi\n', 'the restore is durable');
    assert.deepEqual((await c.snapshots.list()).map((s) => s.name), ['from-a']);
  } finally {
    await c.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

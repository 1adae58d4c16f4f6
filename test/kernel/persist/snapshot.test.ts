// Snapshots of the writable layer on the Node host: create, list, restore
// (atomic, every process stopped, the session reopened), delete, and the
// portable file moved between VMs — ephemeral and persistent.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { AgentVM } from '../../../src/host/node/index.js';

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

test('snapshot: a restored layer\'s files are its own: writing one in place and restoring again gives the snapshot back', async () => {
  const vm = new AgentVM();
  await vm.start();
  try {
    await sh(vm, "head -c 8192 /dev/zero | tr '\\0' a > f && cp f g");
    await vm.snapshot('s');
    await vm.restore('s');
    await sh(vm, 'printf zz | dd of=f conv=notrunc status=none');
    assert.equal(await sh(vm, 'head -c 4 f; cmp -s f g || echo differs'), 'zzaadiffers\n');
    await vm.restore('s');
    assert.equal(await sh(vm, 'head -c 4 f; cmp f g && echo same'), 'aaaasame\n');
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

test('fork: a second VM starts from this one\'s files; afterwards each changes alone', async () => {
  const state = mkdtempSync(join(tmpdir(), 'agentos-fork-'));
  const vm = new AgentVM({ state });
  await vm.start();
  let child: AgentVM | undefined;
  try {
    await sh(vm, 'mkdir -p proj && echo v1 > proj/f && ln -s proj/f l && rm -f .profile && head -c 100000 /dev/urandom > proj/bin');
    const before = await sh(vm, 'ls -laR --time-style=+ . | sort; cat l; md5sum proj/bin');
    child = await vm.fork();
    await child.start();
    assert.equal(await sh(child, 'ls -laR --time-style=+ . | sort; cat l; md5sum proj/bin'), before);
    assert.equal(await child.vm.layer(), null, 'a fork is ephemeral');
    await sh(child, 'echo child > proj/f && touch only-child');
    await sh(vm, 'echo parent > proj/g');
    assert.equal(await sh(vm, 'cat proj/f; ls only-child 2>&1 | head -c 0; ls proj'), 'v1\nbin\nf\ng\n');
    assert.equal(await sh(child, 'cat proj/f; ls proj'), 'child\nbin\nf\n');
    assert.equal((await child.exec('ls only-child')).exitCode, 0);
  } finally {
    await child?.stop();
    await vm.stop();
    rmSync(state, { recursive: true, force: true });
  }
});

test('agentos snapshot inside the VM: create, list, export, import, delete, restore', async () => {
  const vm = new AgentVM();
  await vm.start();
  try {
    await sh(vm, 'echo one > f');
    assert.match(await sh(vm, 'agentos snapshot create s1'), /^created snapshot s1 \(\d+ B\)\n$/);
    assert.deepEqual((await vm.snapshots.list()).map((s) => s.name), ['s1'], 'the host sees it');
    await sh(vm, 'echo two > f && agentos snapshot export s1 s1.aosnap && agentos snapshot import s1.aosnap copy');
    assert.equal(await sh(vm, 'agentos snapshot list | cut -f1'), 'copy\ns1\n');
    const bad = await vm.exec('agentos snapshot import /etc/nope; agentos snapshot delete nope; agentos snapshot create "a b"; agentos snapshot import /etc/hostname x');
    assert.equal(bad.stderr, [
      'agentos snapshot: import: /etc/nope: No such file or directory',
      "agentos snapshot: delete: no snapshot 'nope'",
      "agentos snapshot: create: invalid snapshot name 'a b' (letters, digits, '.', '_', '-'; at most 64)",
      'agentos snapshot: import: not an agentOS snapshot: truncated or damaged',
      '',
    ].join('\n'));
    assert.equal(bad.exitCode, 1);
    assert.equal((await vm.exec('agentos snapshot frobnicate')).exitCode, 2);
    await sh(vm, 'agentos snapshot delete s1');
    // Restoring from inside ends every process, the shell that asked included.
    const r = await vm.exec('agentos snapshot restore copy; echo unreachable');
    assert.equal(r.stdout, '');
    assert.equal(await sh(vm, 'cat f; ls s1.aosnap 2>&1 >/dev/null | wc -l'), 'one\n1\n');
  } finally {
    await vm.stop();
  }
});

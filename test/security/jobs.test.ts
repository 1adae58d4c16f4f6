// Background jobs (vm.jobs) are guest processes like any exec's: a hostile
// job cannot outlive its VM, get past the process limit (its own forks, or the
// host starting jobs), the wall-time limit or the filesystem rules, or grow
// the kernel's memory past its log's bound however much it prints.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';
import type { AgentVMOptions } from '../../src/host/node/index.js';

async function withVM(options: AgentVMOptions, body: (vm: AgentVM) => Promise<void>): Promise<void> {
  const vm = new AgentVM(options);
  await vm.start();
  try {
    await body(vm);
  } finally {
    await vm.stop();
  }
}

const until = async (ok: () => boolean | Promise<boolean>, what: string): Promise<void> => {
  for (let i = 0; i < 500; i++) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail(`timed out waiting for ${what}`);
};

for (const isolation of ['none', 'process'] as const) {
  test(`jobs: nothing a job started outlives vm.stop() (isolation ${isolation})`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentos-jobs-'));
    try {
      const vm = new AgentVM({ isolation, mounts: { '/mnt/out': dir } });
      await vm.start();
      // The job, a background grandchild, and one in a process group of its own all write on.
      const writer = (name: string) => `while :; do echo x >> /mnt/out/${name}; sleep 0.05; done`;
      await vm.jobs.start(`(${writer('a')}) & set -m; (${writer('b')}) & trap '' TERM HUP; ${writer('c')}`);
      const size = (n: string) => { try { return statSync(join(dir, n)).size; } catch { return 0; } };
      await until(() => ['a', 'b', 'c'].every((n) => size(n) > 4), 'the writers');
      await vm.stop();
      const at = ['a', 'b', 'c'].map(size);
      await new Promise((r) => setTimeout(r, 400));
      assert.deepEqual(['a', 'b', 'c'].map(size), at, 'no write after stop');
      assert.ok(readFileSync(join(dir, 'a'), 'utf8').startsWith('x\n'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('jobs: a fork bomb in a job meets the process limit and one kill ends it; the host cannot start jobs past the limit either', async () => {
  await withVM({ policy: { processes: { maxProcesses: 10 } } }, async (vm) => {
    // The host's view (a guest's ps would itself need a process).
    const live = async () => (await vm.vm.status()).processes.filter((p) => p.pid !== 1 && p.state !== 'Z').length;
    const bomb = await vm.jobs.start('b() { b | b & }; b; wait');
    const refused = async () => (await vm.audit()).some((e) => e.type === 'policy' && (e as { rule?: string }).rule === 'processes.maxProcesses');
    await until(refused, 'the bomb to reach the limit');
    assert.ok((await live()) <= 10);
    await vm.jobs.kill(bomb, 'KILL');
    assert.equal((await vm.jobs.wait(bomb, { timeoutMs: 20_000 })).running, false, 'one kill ends the bomb');
    await until(async () => (await live()) === 1, 'only the exec shell left');

    const hold = await vm.jobs.start('for i in {1..12}; do sleep 60 & done; wait');
    await until(async () => (await live()) >= 10, 'the VM at its limit');
    await assert.rejects(vm.jobs.start('echo late'), /EAGAIN|process limit/, 'no job starts at the limit');
    await vm.jobs.kill(hold, 'KILL');
    await vm.jobs.wait(hold);
    const again = await vm.jobs.start('echo again');
    assert.equal((await vm.jobs.wait(again)).exitCode, 0, 'jobs start again below the limit');
  });
});

test('jobs: the wall-time limit and the filesystem rules hold in a job', async () => {
  await withVM({ policy: { processes: { wallTimeMs: 2000 }, fs: { hidden: ['/etc/hostname'] } } }, async (vm) => {
    const id = await vm.jobs.start('cat /etc/hostname; sleep 30');
    const st = await vm.jobs.wait(id, { timeoutMs: 20_000 });
    assert.equal(st.running, false, 'the wall-time limit ended the job');
    assert.equal(st.exitCode, 137);
    assert.match((await vm.jobs.output(id)).stderr, /No such file/);
    const audit = await vm.audit();
    assert.ok(audit.some((e) => e.type === 'process.start' && JSON.stringify(e).includes('/etc/hostname')), 'the job\'s processes are audited');
  });
});

test('jobs: a job that prints without end keeps only its log\'s bytes in the kernel', async () => {
  await withVM({}, async (vm) => {
    const id = await vm.jobs.start('yes agentos', { logBytes: 64 * 1024 });
    await until(async () => (await vm.jobs.list()).some((j) => j.id === id && j.bytes > 4 * 1024 * 1024), '4 MiB of output');
    const r = await vm.jobs.output(id);
    assert.ok(r.stdout.length <= 64 * 1024, `kept ${r.stdout.length}`);
    assert.ok(r.dropped >= 4 * 1024 * 1024 - 64 * 1024);
    assert.match(r.stdout.slice(r.stdout.indexOf('\n') + 1, 200), /^(agentos\n)+/);
    await vm.jobs.kill(id, 'KILL');
    assert.equal((await vm.jobs.wait(id)).signal, 'SIGKILL');
  });
});

// The kernel survives bad guests (issue 14, item 8): a process writes raw bytes
// into its own syscall channel — malformed headers, bad tags, lengths past the
// end, absurd nesting, arguments of the wrong type, and 100,000 random and
// mutated messages — and the kernel answers each with an errno (EINVAL for a
// malformed message) while the VM, the exec session and a sibling process go on.
// The guest programs: channel-guests.ts.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Errno } from '../../src/abi/errno.js';
import { AgentVM } from '../../src/host/node/index.js';
import { FUZZER, guest, MALFORMED, MALFORMED_ERRNOS, SIBLING } from './channel-guests.js';

let vm: AgentVM;

before(async () => {
  // Files stay small (MemFs is not sparse: a mutated truncate must not make the kernel allocate
  // gigabytes); the fd limit is below OPEN_MAX for the case of a child fd past it.
  vm = new AgentVM({ policy: { processes: { maxFileSize: 1 << 20, maxOpenFiles: 256 } } });
  await vm.start();
  for (const [name, body] of [['cases', MALFORMED], ['fuzz', FUZZER], ['sibling', SIBLING]]) {
    await vm.writeFile(`/tmp/${name}.js`, guest(body), 0o755);
  }
});

after(async () => {
  await vm.stop();
});

test('malformed messages and arguments of the wrong shape: each answered with an errno, the kernel goes on', async () => {
  const r = await vm.exec('/tmp/cases.js');
  assert.equal(r.exitCode, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), MALFORMED_ERRNOS);
  assert.equal((await vm.exec('echo ok')).stdout, 'ok\n');
});

test('fuzz: 100,000 random and mutated syscall messages; the VM, the session and a sibling process go on', async () => {
  // State of the session shell that must survive.
  await vm.exec('export KEEP=kept; cd /tmp');
  const seed = Number(process.env.AGENTOS_FUZZ_SEED ?? 20260514);
  const r = await vm.exec(`(cd / && /tmp/sibling.js) & /tmp/fuzz.js ${seed} 100000 /tmp/fuzz.json </dev/null >/tmp/fuzz.out 2>&1; st=$?; wait; cat /tmp/fuzz.out; [ $st = 0 ]`, { timeoutMs: 120_000 });
  assert.equal(r.exitCode, 0, `fuzzer (seed ${seed}) failed: ${r.stdout}${r.stderr}`);
  const report = JSON.parse((await vm.exec('cat /tmp/fuzz.json')).stdout) as { sent: number; ms: number; errnos: Record<string, number> };
  assert.equal(report.sent, 100_000);
  // Every message that could not decode was refused (EINVAL), not run.
  assert.ok((report.errnos[Errno.EINVAL] ?? 0) >= 30_000, JSON.stringify(report));
  const sibling = JSON.parse((await vm.exec('cat /tmp/sibling.json')).stdout) as { rounds: number };
  assert.ok(sibling.rounds > 20, JSON.stringify(sibling));
  const after = await vm.exec('echo "$KEEP $PWD"; /opt/agentos/bin/true && echo ran');
  assert.deepEqual([after.stdout, after.exitCode], ['kept /tmp\nran\n', 0]);
  console.log(`fuzz seed ${seed}: ${JSON.stringify(report)}`);
});

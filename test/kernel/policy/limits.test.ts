// policy.processes limits on the Node host: each test exceeds a limit from
// the guest, asserts the Linux-shaped failure and the audit record, and that
// the VM keeps working.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentVM } from '../../../src/host/node/index.js';
import type { AgentVMOptions } from '../../../src/host/node/index.js';

async function withVM(options: AgentVMOptions, body: (vm: AgentVM) => Promise<void>): Promise<void> {
  const vm = new AgentVM(options);
  await vm.start();
  try {
    await body(vm);
    const r = await vm.exec('echo alive; ls /bin | head -1');
    assert.equal(r.stdout, 'alive\nbash\n', 'the VM still works');
  } finally {
    await vm.stop();
  }
}

const denials = async (vm: AgentVM, rule: string) => (await vm.audit()).filter((e) => e.type === 'policy' && e.rule === rule);

test('fork bomb: EAGAIN at maxProcesses, cleaned up by the exec timeout, the VM stays usable', async () => {
  await withVM({ policy: { processes: { maxProcesses: 10 } } }, async (vm) => {
    const t0 = Date.now();
    const r = await vm.exec('f(){ f|f& }; f; sleep 6', { timeoutMs: 3000 });
    assert.equal(r.timedOut, true);
    assert.match(r.stderr, /Resource temporarily unavailable|process limit/);
    assert.ok(Date.now() - t0 < 10_000);
    assert.ok((await denials(vm, 'processes.maxProcesses')).length > 0);
    // Every bomb process is gone and external commands run again.
    const after = await vm.exec('sleep 0.2; ps -e -o comm= | wc -l; /opt/agentos/bin/true && echo ran');
    assert.equal(after.exitCode, 0, after.stderr);
    assert.ok(Number(after.stdout.split('\n')[0]) < 6, after.stdout);
    assert.match(after.stdout, /ran\n$/);
  });
});

test('infinite loop: killed at the CPU limit (SIGXCPU), in the shell and in a program', async () => {
  // Generous: a program's first run in a worker compiles its bundle, which is CPU
  // time too, and the session shell's own time counts against it on a loaded machine.
  await withVM({ policy: { processes: { cpuTimeMs: 3000 } } }, async (vm) => {
    await vm.writeFile('/tmp/spin.js', '#!/usr/libexec/agentos/js\nfor (;;) {}\n');
    const t0 = Date.now();
    const prog = await vm.exec('chmod +x /tmp/spin.js; /tmp/spin.js; echo "status $?"');
    assert.equal(prog.stdout, 'status 152\n'); // 128 + SIGXCPU
    assert.ok(Date.now() - t0 < 15_000);
    // A loop in the session shell itself: the shell dies, the next exec gets a fresh one.
    const loop = await vm.exec('while :; do :; done');
    assert.equal(loop.exitCode, 152);
    // Time spent blocked in syscalls is not CPU time.
    const idle = await vm.exec('sleep 2; echo slept');
    assert.equal(idle.stdout, 'slept\n');
    assert.ok((await denials(vm, 'processes.cpuTimeMs')).length >= 2);
  });
});

test('wall time: a process, or an exec, that outlives wallTimeMs is killed', async () => {
  await withVM({ policy: { processes: { wallTimeMs: 2000 } } }, async (vm) => {
    const t0 = Date.now();
    const r = await vm.exec('sleep 30');
    assert.equal(r.exitCode, 137);
    assert.ok(Date.now() - t0 < 12_000);
    // Between execs a session shell is not charged: waiting here does not kill it.
    // (The exec itself is builtins only, so a loaded machine cannot make it outlive the limit.)
    await new Promise((ok) => setTimeout(ok, 2500));
    assert.equal((await vm.exec('echo $$; echo ok')).stdout.split('\n')[1], 'ok');
    assert.ok((await denials(vm, 'processes.wallTimeMs')).length >= 1);
  });
});

test('maxFileSize: writes stop at the limit with EFBIG and SIGXFSZ, like RLIMIT_FSIZE', async () => {
  await withVM({ policy: { processes: { maxFileSize: 100_000 } } }, async (vm) => {
    const r = await vm.exec('head -c 10000000 /dev/zero > /tmp/big; echo "status $?"; wc -c < /tmp/big');
    assert.equal(r.stdout, 'status 153\n100000\n'); // 128 + SIGXFSZ
    const t = await vm.exec('truncate -s 10G /tmp/huge; echo "status $?"');
    assert.notEqual(t.stdout, 'status 0\n');
    assert.ok((await denials(vm, 'processes.maxFileSize')).length >= 1);
  });
});

test('maxLayerBytes: a huge write fills the writable layer and gets ENOSPC', async () => {
  await withVM({ policy: { processes: { maxLayerBytes: 2_000_000 } } }, async (vm) => {
    const r = await vm.exec('head -c 10000000000 /dev/zero > ~/huge; echo "status $?"; wc -c < ~/huge');
    assert.match(r.stderr, /No space left on device/);
    assert.ok(Number(r.stdout.split('\n')[1]) <= 2_000_000);
    assert.ok((await denials(vm, 'processes.maxLayerBytes')).length >= 1);
    await vm.exec('rm ~/huge');
    assert.equal((await vm.exec('echo small > ~/f && cat ~/f')).stdout, 'small\n');
  });
});

test('maxExecOutput: 100 MB of output is cut at the limit and reported as truncated', async () => {
  await withVM({ policy: { processes: { maxExecOutput: 1_000_000 } } }, async (vm) => {
    const t0 = Date.now();
    const r = await vm.exec('head -c 100000000 /dev/zero | tr "\\0" x; echo done >&2');
    assert.equal(r.truncated, true);
    assert.equal(r.stdout.length, 1_000_000);
    assert.equal(r.stderr, 'done\n');
    assert.equal(r.exitCode, 0);
    assert.ok(Date.now() - t0 < 60_000);
    const small = await vm.exec('echo hi');
    assert.equal(small.truncated, undefined);
    assert.equal(small.stdout, 'hi\n');
  });
});

test('maxOpenFiles: 10,000 opens end with EMFILE at the limit', async () => {
  await withVM({ policy: { processes: { maxOpenFiles: 64 } } }, async (vm) => {
    await vm.writeFile('/tmp/fds.js', `#!/usr/libexec/agentos/js
let n = 0;
try { for (let i = 0; i < 10000; i++) { agentos.sys.open('/dev/null'); n++; } } catch (e) { agentos.print(e.code + ' '); }
agentos.print(String(n) + '\\n');
`);
    const r = await vm.exec('chmod +x /tmp/fds.js; /tmp/fds.js');
    assert.equal(r.stdout, 'EMFILE 61\n'); // 64 minus stdin, stdout, stderr
    assert.equal((await denials(vm, 'processes.maxOpenFiles')).length, 1);
  });
});

test('command allowlist: only listed commands run, by resolved path and name', async () => {
  const allow = ['ls', 'cat', 'echo', 'head', 'chmod', 'ln'].map((c) => `/opt/agentos/bin/${c}`);
  await withVM({ policy: { processes: { allow } } }, async (vm) => {
    assert.equal((await vm.exec('ls /etc/hostname')).stdout, '/etc/hostname\n');
    // The same program by another path of its chain, under the same name.
    assert.equal((await vm.exec('/opt/agentos/coreutils/current/bin/cat /etc/hostname')).exitCode, 0);
    const rm = await vm.exec('rm -f /tmp/x; echo "status $?"');
    assert.match(rm.stderr, /Permission denied|allowlist/);
    assert.equal(rm.stdout, 'status 126\n');
    // Same multicall program under another name, and a link named like an allowed command.
    assert.notEqual((await vm.exec('ln -s /opt/agentos/bin/rm /tmp/ls; /tmp/ls -f /etc/hostname')).exitCode, 0);
    assert.notEqual((await vm.exec('ln -s /opt/agentos/bin/ls /tmp/rm; /tmp/rm -f /etc/hostname')).exitCode, 0);
    assert.equal((await vm.exec('cat /etc/hostname')).exitCode, 0, 'rm did not run');
    // Scripts the guest writes are not on the list either.
    await vm.writeFile('/tmp/mine.js', '#!/usr/libexec/agentos/js\nagentos.print("ran\\n")\n');
    assert.notEqual((await vm.exec('chmod +x /tmp/mine.js; /tmp/mine.js')).stdout, 'ran\n');
    assert.ok((await denials(vm, 'processes.allow')).length >= 3);
  });
});

test('secrets: masked in /proc/<pid>/environ of another process and in the audit trail', async () => {
  await withVM({ env: { API_TOKEN: 'sk-very-secret-123' }, policy: { env: { secrets: ['API_TOKEN'] } } }, async (vm) => {
    // The process itself sees its own value.
    assert.equal((await vm.exec('echo $API_TOKEN')).stdout, 'sk-very-secret-123\n');
    const other = await vm.exec('sleep 2 & p=$!; tr "\\0" "\\n" < /proc/$p/environ | grep API_TOKEN; kill $p');
    assert.equal(other.stdout, 'API_TOKEN=***\n');
    // The session shell's own /proc entries are closed to every other process.
    const shell = await vm.exec('cat /proc/$$/environ');
    assert.match(shell.stderr, /Permission denied/);
    await vm.exec('echo "$API_TOKEN" > /home/user/leak; /opt/agentos/bin/echo "$API_TOKEN"');
    const trail = JSON.stringify(await vm.audit());
    assert.doesNotMatch(trail, /sk-very-secret-123/);
    assert.match(trail, /\*\*\*/);
    assert.doesNotMatch((await vm.exec('cat /proc/agentos/audit')).stdout, /sk-very-secret-123/);
  });
});

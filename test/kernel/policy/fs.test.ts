// policy.fs on the Node host: each test tries an attack from the guest and
// asserts that it fails, that the failure is in the audit trail, and that
// the VM still works afterwards.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../../src/host/node/index.js';

let vm: AgentVM;

before(async () => {
  vm = new AgentVM({
    policy: { fs: { readOnly: ['/srv/data', '/etc/hosts'], hidden: ['/etc/agentos-secret', '/home/user/.ssh', '/opt/vault'] } },
  });
  await vm.start();
  // The host sets things up: it is not subject to the rules.
  // Owned by the guest's user, so only the policy stands in the way.
  await vm.vm.mkdirp('/srv/data/sub');
  await vm.vm.syscall('chown', '/srv/data', 1000, 1000);
  await vm.vm.syscall('chown', '/srv/data/sub', 1000, 1000);
  await vm.vm.writeFile('/srv/data/sub/f', 'data\n');
  await vm.vm.syscall('chown', '/srv/data/sub/f', 1000, 1000);
  await vm.vm.mkdirp('/etc/agentos-secret');
  await vm.vm.writeFile('/etc/agentos-secret/token', 'TOPSECRET\n');
  await vm.vm.syscall('chmod', '/etc/agentos-secret/token', 0o644);
});

after(async () => {
  await vm.stop();
});

async function sh(cmd: string) {
  return vm.exec(cmd);
}

async function stillWorks(): Promise<void> {
  const r = await sh('echo alive > /tmp/alive && cat /tmp/alive && ls / | head -1');
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stdout, /^alive\naos\n/);
}

test('read-only: writes, creates, unlinks, renames, chmod, utimes under the prefix fail with EROFS', async () => {
  // Paths created by the host after boot: the rule was matched by path and the host's objects marked as created.
  const attacks = [
    'echo x > /srv/data/sub/f',
    'echo x >> /srv/data/sub/f',
    'echo x > /srv/data/new',
    'mkdir /srv/data/d',
    'rm /srv/data/sub/f',
    'rm -r /srv/data',
    'mv /srv/data/sub/f /tmp/f',
    'mv /srv/data /srv/moved',
    'cp /etc/passwd /srv/data/sub/',
    'mv /tmp/alive /srv/data/',
    'chmod 777 /srv/data/sub/f',
    'touch /srv/data/sub/f',
    'truncate -s 0 /srv/data/sub/f',
    'ln -s /tmp /srv/data/link',
    'echo x > /etc/hosts',
    'cd /srv/data/sub && echo x > ../../data/sub/f',
  ];
  await sh('echo alive > /tmp/alive');
  for (const cmd of attacks) {
    const r = await sh(cmd);
    assert.notEqual(r.exitCode, 0, `${cmd} must fail`);
    assert.match(r.stderr, /Read-only file system/, `${cmd}: ${r.stderr}`);
  }
  assert.equal((await sh('cat /srv/data/sub/f; ls /srv/data')).stdout, 'data\nsub\n');
  assert.equal((await sh('test -w /srv/data/sub/f; echo $?')).stdout, '1\n');
  // Reading is fine.
  assert.equal((await sh('cat /etc/hosts | head -1 | wc -l')).stdout, '1\n');
  // A hard link to a read-only file does not make it writable: the rule is on the file.
  const r = await sh('ln /srv/data/sub/f ~/hl && echo x > ~/hl');
  assert.notEqual(r.exitCode, 0);
  assert.equal((await sh('cat /srv/data/sub/f')).stdout, 'data\n');
  const audit = await vm.audit();
  assert.ok(audit.some((e) => e.type === 'policy' && e.rule === 'fs.readOnly' && e.errno === 'EROFS'));
  await stillWorks();
});

test('hidden: not there by name, "..", symlinks, /proc links, hard links, listing or rename', async () => {
  const attacks = [
    'cat /etc/agentos-secret/token',
    'cat /etc/../etc/agentos-secret/token',
    'cd /etc && cat ./agentos-secret/token',
    'cd /tmp && cat ../etc/agentos-secret/token',
    'ln -s /etc/agentos-secret /tmp/s && cat /tmp/s/token',
    'ln -s /etc /tmp/e && cat /tmp/e/agentos-secret/token',
    'cat /proc/self/root/etc/agentos-secret/token',
    'cat /proc/1/root/etc/agentos-secret/token',
    'cat /proc/$$/cwd/../../etc/agentos-secret/token',
    'ln /etc/agentos-secret/token /tmp/hard && cat /tmp/hard',
    'mv /etc/agentos-secret /tmp/got && cat /tmp/got/token',
    'mv /etc/agentos-secret/token /tmp/got && cat /tmp/got',
    'touch ~/m && mv ~/m /etc/agentos-secret/m',
    'touch ~/m && mv ~/m /etc/agentos-secret',
    'ln ~/m /etc/agentos-secret/m2',
    'cd /etc/agentos-secret',
    'stat /etc/agentos-secret',
    'ls /etc/agentos-secret',
    'mkdir /etc/agentos-secret',
    'echo x > /home/user/.ssh',
    'mkdir -p /home/user/.ssh/keys',
    'find / -name token -path "*secret*" | grep . ',
    'grep -r TOPSECRET /etc',
  ];
  for (const cmd of attacks) {
    const r = await sh(cmd);
    assert.notEqual(r.exitCode, 0, `${cmd} must fail: ${r.stdout}`);
    assert.doesNotMatch(r.stdout, /TOPSECRET/);
  }
  assert.equal((await sh('ls -a /etc | grep -c agentos-secret')).stdout, '0\n');
  assert.match((await sh('cat /etc/agentos-secret/token')).stderr, /No such file or directory/);
  // Other runtimes go through the same resolution: a JavaScript program ...
  await vm.writeFile('/tmp/peek.js', '#!/usr/libexec/agentos/js\ntry { agentos.print(new TextDecoder().decode(agentos.sys.readFile("/etc/agentos-secret/token"))) } catch (e) { agentos.print(String(e.code ?? e)); }\n');
  const js = await sh('chmod +x /tmp/peek.js && /tmp/peek.js');
  assert.doesNotMatch(js.stdout, /TOPSECRET/);
  // ... and a WebAssembly (WASI) one: cat from wasm/cat.c, built into dist/wasm/.
  await vm.vm.writeFile('/tmp/wcat', readFileSync(new URL('../../../wasm/cat.wasm', import.meta.url)), 0o755);
  for (const path of ['/etc/agentos-secret/token', '/etc/../etc/agentos-secret/token', '/proc/self/root/etc/agentos-secret/token']) {
    const w = await sh(`/tmp/wcat ${path}`);
    assert.equal(w.exitCode, 1, path);
    assert.match(w.stderr, /No such file or directory/);
  }
  assert.equal((await sh('/tmp/wcat /srv/data/sub/f')).stdout, 'data\n', 'the WASI cat works');
  // The host still sees it (its own calls; vm.readFile acts as the VM user: test/security/paths.test.ts).
  assert.equal(new TextDecoder().decode(await vm.vm.readFile('/etc/agentos-secret/token')), 'TOPSECRET\n');
  const audit = await vm.audit();
  assert.ok(audit.some((e) => e.type === 'policy' && e.rule === 'fs.hidden' && e.errno === 'ENOENT'));
  await stillWorks();
});

test('hidden before boot: a hard link made in the image layer is hidden too', async () => {
  const v = new AgentVM({ policy: { fs: { hidden: ['/etc/passwd'] } } });
  await v.start();
  try {
    assert.notEqual((await v.exec('cat /etc/passwd')).exitCode, 0);
    assert.equal((await v.exec('echo ok')).stdout, 'ok\n');
  } finally {
    await v.stop();
  }
  // Hard link made before the rule applies (persisted layer, rule set on a later boot).
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'agentos-policy-'));
  try {
    const a = new AgentVM({ state: dir });
    await a.start();
    await a.exec('mkdir -p ~/keys && echo KEY123 > ~/keys/k && ln ~/keys/k /tmp/x 2>/dev/null; ln ~/keys/k ~/alias');
    await a.stop();
    const b = new AgentVM({ state: dir, policy: { fs: { hidden: ['/home/user/keys'] } } });
    await b.start();
    try {
      const r = await b.exec('cat ~/alias; cat ~/keys/k');
      assert.doesNotMatch(r.stdout, /KEY123/);
      assert.notEqual(r.exitCode, 0);
      assert.equal((await b.exec('echo ok')).stdout, 'ok\n');
    } finally {
      await b.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the policy cannot be changed from inside', async () => {
  const attempts = [
    'echo "{}" > /proc/agentos/audit',
    'rm /proc/agentos/audit',
    'mount -t tmpfs none /srv/data',
    'echo x > /proc/agentos/policy',
  ];
  for (const cmd of attempts) assert.notEqual((await sh(cmd)).exitCode, 0, cmd);
  assert.notEqual((await sh('echo x > /srv/data/sub/f')).exitCode, 0);
  // Even root in the VM (the host runs it) cannot lift it for the guest's next command.
  assert.notEqual((await sh('echo x > /srv/data/sub/f')).exitCode, 0);
  await stillWorks();
});

test('every denial is in the audit trail, also read-only at /proc/agentos/audit', async () => {
  await sh('cat /etc/agentos-secret/token; echo x > /srv/data/sub/f');
  const inside = await sh('cat /proc/agentos/audit');
  assert.equal(inside.exitCode, 0);
  const events = inside.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.ok(events.some((e) => e.rule === 'fs.hidden'));
  assert.ok(events.some((e) => e.rule === 'fs.readOnly'));
  assert.ok(events.some((e) => e.type === 'process.start' && Array.isArray(e.argv)));
  assert.ok(events.some((e) => e.type === 'process.exit' && typeof e.durationMs === 'number'));
  const host = await vm.audit();
  assert.ok(host.length >= events.length - 5);
});

test('read-only /opt/agentos also holds against the software broker (which writes as root for the guest)', async () => {
  const v = new AgentVM({ policy: { fs: { readOnly: ['/opt/agentos'] } } });
  await v.start();
  try {
    const r = await v.exec('agentos-software unlink ls; echo "status $?"');
    assert.equal(r.stdout, 'status 1\n');
    assert.match(r.stderr, /read-only by the VM's policy/);
    assert.equal((await v.exec('ls /etc/hostname')).stdout, '/etc/hostname\n');
  } finally {
    await v.stop();
  }
});

test('the rules survive a snapshot restore (a new root filesystem)', async () => {
  const v = new AgentVM({ policy: { fs: { hidden: ['/home/user/secret'], readOnly: ['/home/user/ro'] } } });
  await v.start();
  try {
    await v.vm.mkdirp('/home/user/secret');
    await v.vm.writeFile('/home/user/secret/k', 'KEY\n');
    await v.vm.mkdirp('/home/user/ro');
    await v.vm.syscall('chown', '/home/user/ro', 1000, 1000);
    await v.snapshot('s');
    await v.restore('s');
    assert.notEqual((await v.exec('cat ~/secret/k')).exitCode, 0);
    assert.match((await v.exec('touch ~/ro/x')).stderr, /Read-only file system/);
    assert.equal((await v.exec('echo ok')).stdout, 'ok\n');
  } finally {
    await v.stop();
  }
});

test('a malformed policy is refused when the VM is created', () => {
  assert.throws(() => new AgentVM({ policy: { fs: { hiden: ['/x'] } } as never }), /unknown key fs.hiden/);
  assert.throws(() => new AgentVM({ policy: { fs: { hidden: ['x'] } } }), /not an absolute path/);
  assert.throws(() => new AgentVM({ policy: { processes: { maxProcesses: -1 } } }), /non-negative/);
  assert.throws(() => new AgentVM({ policy: { processes: { cpuTimeMs: '5' } } as never }), /non-negative/);
});

test('policy: under filesystem rules, the guest cannot restore or import a snapshot (it would write past them)', async () => {
  const vm = new AgentVM({ policy: { fs: { readOnly: ['/etc'] } } });
  await vm.start();
  try {
    const r = await vm.exec('agentos snapshot create s && agentos snapshot export s /tmp/s.aosnap; agentos snapshot restore s; agentos snapshot import /tmp/s.aosnap t');
    assert.equal(r.stdout, 'created snapshot s (' + r.stdout.split('(')[1]!.split(')')[0] + ')\nexported s to /tmp/s.aosnap\n');
    assert.match(r.stderr, /restore: snapshot restore from inside the VM is not allowed under its filesystem policy/);
    assert.match(r.stderr, /import: snapshot import from inside the VM is not allowed/);
    assert.equal((await vm.exec('echo still here')).stdout, 'still here\n');
  } finally {
    await vm.stop();
  }
});

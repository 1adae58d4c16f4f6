// The Linux guest (decision 0067; docs/security.md, "The Linux guest"): root inside a real
// kernel, it reaches agentOS's files only through the 9p server, which runs as the calling
// process, so the VM's policy binds it; and it has no network device at all. Needs dist/linux/
// (scripts/build-linux.mjs); without it the tests skip and say why.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';

const built = existsSync(new URL('../../linux/package.json', import.meta.url));
const skip = !built && 'dist/linux is not built (node scripts/build-linux.mjs needs apt and the Debian mirror)';
const SECRET = 'LINUX-SECRET-7c1e';

/** A guest that stops answering fails its test instead of hanging the suite. */
const LIMIT = 120_000;

let vm: AgentVM;

before(async () => {
  if (!built) return;
  vm = new AgentVM({ policy: { fs: { hidden: ['/srv/secret'], readOnly: ['/srv/data'] } } });
  await vm.start();
  await vm.vm.mkdirp('/srv/secret');
  await vm.vm.writeFile('/srv/secret/token', `${SECRET}\n`);
  await vm.vm.mkdirp('/srv/data');
  await vm.vm.writeFile('/srv/data/f', 'data\n');
  const r = await vm.exec('agentos-software install linux >/dev/null');
  assert.equal(r.exitCode, 0, r.stderr);
});

after(async () => {
  await vm?.stop();
});

test('a hidden path does not exist for the guest, as root, by name, listing or search', { skip, timeout: LIMIT }, async () => {
  const r = await vm.exec("linux -c 'id -u; ls -a /aos/srv; cat /aos/srv/secret/token; cd /aos/srv/secret; grep -r LINUX-SECRET /aos/srv; echo end'");
  assert.equal(r.stdout, '0\n.\n..\ndata\nend\n');
  assert.doesNotMatch(r.stdout + r.stderr, new RegExp(SECRET));
  assert.match(r.stderr, /can't open '\/aos\/srv\/secret\/token': No such file or directory/);
});

test('a read-only path refuses the guest every write: create, append, remove, rename, chmod', { skip, timeout: LIMIT }, async () => {
  const r = await vm.exec("linux -c 'cd /aos/srv/data; echo x > g; echo y >> f; rm f; mv f h; chmod 777 f; mkdir d; cat f'");
  assert.equal(r.stdout, 'data\n');
  assert.equal(r.stderr.match(/Read-only file system/g)?.length, 6, r.stderr);
  assert.equal((await vm.exec('ls /srv/data; cat /srv/data/f; stat -c %a /srv/data/f')).stdout, 'f\ndata\n644\n');
});

test('the guest has no network device: only loopback', { skip, timeout: LIMIT }, async () => {
  const r = await vm.exec("linux -c 'ls /sys/class/net; cat /proc/net/dev | tail -n +3 | cut -d: -f1'");
  assert.equal(r.stdout, 'lo\n    lo\n');
});

test("a job that crashes the guest's kernel ends with a message and 125, never a hang; the next call gets a fresh guest", { skip, timeout: LIMIT }, async () => {
  const r = await vm.exec("linux -c 'echo before; echo c > /proc/sysrq-trigger; echo after'");
  assert.equal(r.stdout, 'before\n');
  assert.equal(r.exitCode, 125);
  assert.match(r.stderr, /^linux: the guest's kernel stopped: .*Kernel panic/m);
  const next = await vm.exec("linux -c 'echo alive'");
  assert.deepEqual([next.exitCode, next.stdout], [0, 'alive\n']);
});

test('a job that powers off, halts or reboots the guest ends with a message and 125, never a hang', { skip, timeout: LIMIT }, async () => {
  // Without ACPI the kernel's power-off ends in a halt.
  for (const [cmd, said] of [['poweroff -f', 'Power down|System halted'], ['halt -f', 'System halted'], ['reboot -f', 'Restarting system']]) {
    const r = await vm.exec(`linux -c '${cmd}'`);
    assert.equal(r.exitCode, 125, `${cmd}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`^linux: the guest's kernel stopped: .*(${said})`, 'm'));
  }
  assert.equal((await vm.exec("linux -c 'echo alive'")).stdout, 'alive\n');
});

test("a process a job leaves behind is killed when the job ends: it cannot write into the next job's output or forge its exit status", { skip, timeout: LIMIT }, async () => {
  // Root in the guest can open the agent's ports: ttyS1 is a job's stdout, ttyS0 its control lines.
  const first = await vm.exec(`linux -c '(sleep 1; echo LEAK >/dev/ttyS1; printf "\\002X42\\n" >/dev/ttyS0) >/dev/null 2>&1 </dev/null & exit 0'`);
  assert.equal(first.exitCode, 0, first.stderr);
  const next = await vm.exec("linux -c 'sleep 2; echo next; exit 5'");
  assert.deepEqual([next.exitCode, next.stdout], [5, 'next\n']);
});

test("a job that forges its own exit-status line cannot end the next caller's job or write into its output", { skip, timeout: LIMIT }, async () => {
  // The forged line ends this job (a job is root: it may lie about itself); the agent's real line for
  // it, which follows once the job is killed, and whatever it writes meanwhile belong to no other job.
  const forger = await vm.exec(`linux -c 'printf "\\002X0\\n" >/dev/ttyS0; sleep 5'`);
  assert.equal(forger.exitCode, 0, forger.stderr);
  const next = await vm.exec("linux -c 'echo next; exit 5'");
  assert.deepEqual([next.exitCode, next.stdout], [5, 'next\n']);
  const third = await vm.exec("linux -c 'echo third'");
  assert.deepEqual([third.exitCode, third.stdout], [0, 'third\n']);
});

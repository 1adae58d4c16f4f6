// The Linux guest (decision 0067; docs/security.md, "The Linux guest"): root inside a real
// kernel, it reaches agentOS's files only through the 9p server, which runs as the calling
// process, so the VM's policy binds it; and its network is the kernel's `http` syscall of the
// calling process (decision 0084), so network none reaches nothing. Needs dist/linux/
// (scripts/build-linux.mjs); without it the tests skip and say why.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

test('with network none the guest reaches nothing: HTTP is refused with the policy\'s words; other TCP ports, https and a route around the proxy fail; the host\'s server sees nothing', { skip, timeout: LIMIT }, async () => {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.end('reached\n');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  try {
    const r = await vm.exec(`linux -c '
      wget -qO- http://example.com/a; echo "1:$?"
      wget -qO- http://127.0.0.1:${port}/b; echo "2:$?"
      wget -Y off -qO- http://192.168.86.1:${port}/c; echo "3:$?"
      wget -Y off -qO- http://10.0.2.2:${port}/d; echo "4:$?"
      wget -qO- https://example.com/e; echo "5:$?"
      echo x | nc -w 2 192.168.86.1 ${port}; echo "6:$?"
      wget -Y off -qO- https://example.com/f; echo "7:$?"'`);
    assert.doesNotMatch(r.stdout, /reached/);
    assert.deepEqual(r.stdout.trim().split('\n').filter((l) => /^\d:/.test(l)), ['1:1', '2:1', '3:1', '4:1', '5:1', '6:1', '7:1']);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 7, r.stderr);
    // Through the proxy: the kernel's words (the VM's loopback has nothing on that port; https is the kernel's to make, and refused).
    assert.match(lines[0], /403 network access to http:\/\/example\.com denied by the VM's network policy \(network: none\)/);
    assert.match(lines[1], /502 nothing listens on 127\.0\.0\.1 port \d+ in the VM/);
    assert.match(lines[4], /403 network access to https:\/\/example\.com denied by the VM's network policy/);
    // Around the proxy: every other TCP port, and TLS straight to 443, is refused by the adapter.
    for (const i of [2, 3, 5, 6]) assert.match(lines[i], /can't connect to remote host .*Connection refused/);
    assert.deepEqual(hits, []);
  } finally {
    await new Promise<void>((ok) => server.close(() => ok()));
  }
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

// Hostile guests and the socket layer: sockets reach the VM's own loopback
// only (not the host's, not another VM's), unix socket files obey the fs
// policy, and neither descriptors nor queued data grow without bound.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';
import { SOCKET_MEMORY } from '../../src/kernel/socket/table.js';

let vm: AgentVM;
let host: Server;
let hostPort = 0;
let hostHits = 0;

before(async () => {
  vm = new AgentVM({ policy: { fs: { readOnly: ['/home/user/ro'], hidden: ['/home/user/private'] } } });
  await vm.start();
  await vm.writeFile('/tmp/probe.js', PROBE, 0o755);
  await vm.vm.syscall('mkdir', '/home/user/ro', 0o777);
  host = createServer((c) => {
    hostHits++;
    c.end('host secret\n');
  });
  await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
  hostPort = (host.address() as { port: number }).port;
});
after(async () => {
  await vm?.stop();
  await new Promise((r) => host.close(r));
});

const PROBE = `#!/usr/libexec/agentos/js
const s = agentos.sys;
const [, mode, a, b] = agentos.argv;
const tryIt = (f) => { try { f(); agentos.print('ok\\n'); } catch (e) { agentos.print((e.code ?? String(e)) + '\\n'); } };
if (mode === 'bind') tryIt(() => s.bind(s.socket(2, 1), { family: 2, address: a, port: 0 }));
if (mode === 'connect') tryIt(() => s.connect(s.socket(a.includes(':') ? 10 : 2, 1), { family: a.includes(':') ? 10 : 2, address: a, port: Number(b) }));
if (mode === 'udp') tryIt(() => s.sendto(s.socket(2, 2), 'x', 0, { family: 2, address: a, port: Number(b) }));
if (mode === 'fds') {
  let n = 0;
  try { for (;;) { s.socket(2, 1); n++; } } catch (e) { agentos.print(e.code + ' after ' + n + '\\n'); }
}
if (mode === 'fill') {
  // 400 socket pairs nobody reads (room for 100 MiB at 256 KiB each), each filled until the kernel says no.
  let total = 0, starved = 0, codes = new Set();
  for (let pairs = 0; pairs < 400; pairs++) {
    const [x] = s.socketpair(1, 1 | 0o4000);
    let mine = 0;
    for (;;) {
      try { mine += s.sendto(x, new Uint8Array(65536), 0); } catch (e) { codes.add(e.code); break; }
    }
    total += mine;
    if (mine === 0) starved++;
  }
  agentos.print([...codes].join(',') + ' ' + total + ' ' + starved + '\\n');
}
`;

async function probe(...args: string[]): Promise<string> {
  const r = await vm.exec(`/tmp/probe.js ${args.map((x) => `'${x}'`).join(' ')}`);
  assert.equal(r.stderr, '');
  return r.stdout.trim();
}

test('binding an address outside the loopback is EADDRNOTAVAIL', async () => {
  for (const addr of ['10.0.0.1', '192.168.1.1', '8.8.8.8', '169.254.169.254']) assert.equal(await probe('bind', addr), 'EADDRNOTAVAIL', addr);
});

test('connecting or sending outside the loopback is ENETUNREACH, whatever the spelling', async () => {
  for (const addr of ['10.0.0.1', '1.1.1.1', '169.254.169.254', '::ffff:10.0.0.1', '2001:db8::1']) {
    assert.equal(await probe('connect', addr, '80'), 'ENETUNREACH', addr);
  }
  assert.equal(await probe('udp', '8.8.8.8', '53'), 'ENETUNREACH');
  const r = await vm.exec('nc 10.0.0.1 80');
  assert.equal(r.stderr, 'nc: connect to 10.0.0.1 port 80 (tcp) failed: Network is unreachable\n');
});

test("the VM's loopback is not the host's: a server on the host's 127.0.0.1 is unreachable", async () => {
  assert.equal(await probe('connect', '127.0.0.1', String(hostPort)), 'ECONNREFUSED');
  assert.equal(await probe('connect', 'localhost', String(hostPort)), 'ECONNREFUSED');
  assert.equal((await vm.exec(`exec 3<>/dev/tcp/127.0.0.1/${hostPort}`)).exitCode, 1);
  assert.equal(hostHits, 0, 'nothing reached the host');
});

test("another VM's listening port is out of reach", async () => {
  const other = new AgentVM();
  await other.start();
  try {
    await other.writeFile('/tmp/srv.js', '#!/usr/libexec/agentos/js\nconst s = agentos.sys; const l = s.socket(2, 1); s.bind(l, { family: 2, address: "127.0.0.1", port: 7200 }); s.listen(l); agentos.print("up\\n"); s.accept(l);\n', 0o755);
    const srv = await other.spawn(['/tmp/srv.js']);
    const up = await other.exec("until grep -q ':1C20 ' /proc/net/tcp; do :; done; echo up");
    assert.equal(up.stdout, 'up\n');
    assert.equal(await probe('connect', '127.0.0.1', '7200'), 'ECONNREFUSED');
    await srv.kill();
  } finally {
    await other.stop();
  }
});

test('a unix socket path obeys the fs policy: no binding in a read-only tree, no connecting into a hidden one', async () => {
  const ro = await vm.exec('nc -lU /home/user/ro/s.sock');
  assert.equal(ro.exitCode, 1);
  assert.equal(ro.stderr, 'nc: Read-only file system\n');
  // The host (init) makes a listener inside the hidden tree; the guest cannot name it.
  const m = vm.vm;
  await m.syscall('mkdir', '/home/user/private', 0o777).catch(() => {});
  const l = await m.syscall('socket', 1, 1);
  await m.syscall('bind', l, { family: 1, address: '/home/user/private/s.sock', port: 0 });
  await m.syscall('listen', l, 1);
  const r = await vm.exec('nc -zvU /home/user/private/s.sock; echo "status $?"');
  assert.equal(r.stdout, 'status 1\n');
  assert.match(r.stderr, /No such file or directory/);
  await m.syscall('close', l);
});

test('descriptors: socket() stops at the open-file limit with EMFILE', async () => {
  assert.match(await probe('fds'), /^EMFILE after \d+$/);
});

test('queued data is bounded kernel-wide: unread socket pairs stop at the socket memory limit', async () => {
  const [codes, total, starved] = (await probe('fill')).split(' ');
  assert.equal(codes, 'EAGAIN');
  assert.ok(Number(total) <= SOCKET_MEMORY, `queued ${total} bytes`);
  assert.ok(Number(total) >= SOCKET_MEMORY - 65536, `the limit was reached: ${total}`);
  assert.ok(Number(starved) > 100, `${starved} pairs found no memory left`);
});

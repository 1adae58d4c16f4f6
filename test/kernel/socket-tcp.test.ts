// TCP on the VM's loopback at the syscall level: bind/listen/accept/connect,
// the port table (EADDRINUSE, ephemeral ports, SO_REUSEADDR), ECONNREFUSED,
// the backlog, half-close, non-blocking mode with poll, names, and errors
// that reach a guest program (EPIPE with SIGPIPE, EOF on the peer's close).
// The host acts as one process (init) through Machine.syscall; a small guest
// program is the other end where a process of its own matters.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Errno, SysError } from '../../src/abi/errno.js';
import { O_NONBLOCK } from '../../src/abi/fcntl.js';
import {
  AF_INET, AF_INET6, MSG_DONTWAIT, MSG_PEEK, SHUT_WR, SO_ERROR, SO_REUSEADDR, SO_TYPE, SOCK_NONBLOCK, SOCK_STREAM, SOL_SOCKET,
} from '../../src/abi/socket.js';
import { boot, type Machine } from '../../src/host/node/index.js';
import { errno } from './socket-errno.js';

const enc = new TextEncoder();
const dec = new TextDecoder();
let m: Machine;

before(async () => {
  m = await boot();
});
after(async () => {
  await m.stop();
});

const F_SETFL = 4;
const POLLIN = 1, POLLOUT = 4, POLLERR = 8, POLLHUP = 16;

async function listener(port = 0, address = '127.0.0.1', family = AF_INET, backlog = 16): Promise<[number, number]> {
  const fd = await m.syscall('socket', family, SOCK_STREAM);
  await m.syscall('bind', fd, { family, address, port });
  await m.syscall('listen', fd, backlog);
  return [fd, (await m.syscall('getsockname', fd)).port];
}

async function connected(port: number, address = '127.0.0.1', family = AF_INET): Promise<number> {
  const fd = await m.syscall('socket', family, SOCK_STREAM);
  await m.syscall('connect', fd, { family, address, port });
  return fd;
}

async function readAll(fd: number): Promise<string> {
  let s = '';
  for (;;) {
    const b = await m.syscall('read', fd, 65536);
    if (!b.byteLength) return s;
    s += dec.decode(b);
  }
}

describe('tcp: connections', () => {
  test('bind, listen, connect, accept, both directions, names', async () => {
    const [l, port] = await listener();
    assert.ok(port >= 32768 && port <= 60999, `ephemeral port ${port}`);
    const c = await connected(port);
    const [s, peer] = await m.syscall('accept', l);
    const cname = await m.syscall('getsockname', c);
    assert.deepEqual(peer, cname, 'accept names the client');
    assert.deepEqual(await m.syscall('getpeername', c), { family: AF_INET, address: '127.0.0.1', port });
    assert.deepEqual(await m.syscall('getsockname', s), { family: AF_INET, address: '127.0.0.1', port });
    assert.equal(await m.syscall('write', c, enc.encode('ping')), 4);
    assert.equal(dec.decode(await m.syscall('read', s, 100)), 'ping');
    await m.syscall('sendto', s, enc.encode('pong'), 0, null);
    const [data, from] = await m.syscall('recvfrom', c, 100, 0);
    assert.deepEqual([dec.decode(data), from], ['pong', { family: AF_INET, address: '127.0.0.1', port }]);
    assert.equal(await m.syscall('getsockopt', c, SOL_SOCKET, SO_TYPE), SOCK_STREAM);
    for (const fd of [c, s, l]) await m.syscall('close', fd);
  });

  test('accept waits for a connection; a wildcard listener takes any loopback address and localhost', async () => {
    const [l, port] = await listener(0, '0.0.0.0');
    const waiting = m.syscall('accept', l);
    const c = await connected(port, '127.0.0.2');
    const [s] = await waiting;
    assert.deepEqual(await m.syscall('getsockname', s), { family: AF_INET, address: '127.0.0.2', port });
    const c2 = await connected(port, 'localhost');
    const [s2] = await m.syscall('accept', l);
    for (const fd of [c, s, c2, s2, l]) await m.syscall('close', fd);
  });

  test('ECONNREFUSED with no listener, and after the listener closed', async () => {
    const [l, port] = await listener();
    await m.syscall('close', l);
    const fd = await m.syscall('socket', AF_INET, SOCK_STREAM);
    assert.equal(await errno(m.syscall('connect', fd, { family: AF_INET, address: '127.0.0.1', port })), Errno.ECONNREFUSED);
    // Bound to 127.0.0.1: another loopback address is another address.
    const [l2, port2] = await listener();
    assert.equal(await errno(m.syscall('connect', fd, { family: AF_INET, address: '127.0.0.3', port: port2 })), Errno.ECONNREFUSED);
    for (const x of [fd, l2]) await m.syscall('close', x);
  });

  test('EADDRINUSE; SO_REUSEADDR lets bound sockets share a port but not two listeners; a closed port is free', async () => {
    const [l, port] = await listener();
    const b = await m.syscall('socket', AF_INET, SOCK_STREAM);
    assert.equal(await errno(m.syscall('bind', b, { family: AF_INET, address: '127.0.0.1', port })), Errno.EADDRINUSE);
    assert.equal(await errno(m.syscall('bind', b, { family: AF_INET, address: '0.0.0.0', port })), Errno.EADDRINUSE, 'the wildcard overlaps');
    await m.syscall('bind', b, { family: AF_INET, address: '127.0.0.2', port });
    assert.equal(await errno(m.syscall('bind', b, { family: AF_INET, address: '127.0.0.3', port: 0 })), Errno.EINVAL, 'bound twice');
    await m.syscall('close', l);
    await m.syscall('close', b);
    const r1 = await m.syscall('socket', AF_INET, SOCK_STREAM);
    const r2 = await m.syscall('socket', AF_INET, SOCK_STREAM);
    for (const fd of [r1, r2]) {
      await m.syscall('setsockopt', fd, SOL_SOCKET, SO_REUSEADDR, 1);
      await m.syscall('bind', fd, { family: AF_INET, address: '127.0.0.1', port });
    }
    await m.syscall('listen', r1, 1);
    assert.equal(await errno(m.syscall('listen', r2, 1)), Errno.EADDRINUSE);
    for (const fd of [r1, r2]) await m.syscall('close', fd);
    const again = await m.syscall('socket', AF_INET, SOCK_STREAM);
    await m.syscall('bind', again, { family: AF_INET, address: '127.0.0.1', port });
    await m.syscall('close', again);
  });

  test('ports below 1024 need root; addresses outside the loopback are not the VM\'s', async () => {
    const fd = await m.syscall('socket', AF_INET, SOCK_STREAM);
    await m.syscall('bind', fd, { family: AF_INET, address: '127.0.0.1', port: 80 }); // the host is init, root
    assert.equal(await errno(m.syscall('bind', await m.syscall('socket', AF_INET, SOCK_STREAM), { family: AF_INET, address: '10.0.0.1', port: 0 })), Errno.EADDRNOTAVAIL);
    assert.equal(await errno(m.syscall('bind', await m.syscall('socket', AF_INET, SOCK_STREAM), { family: AF_INET, address: 'nonsense', port: 0 })), Errno.EINVAL);
    await m.syscall('close', fd);
  });

  test('IPv6: ::1, a dual-stack wildcard reaches IPv4 clients, names in the socket family', async () => {
    const [l, port] = await listener(0, '::', AF_INET6);
    const c6 = await connected(port, '::1', AF_INET6);
    const [s6, p6] = await m.syscall('accept', l);
    assert.equal(p6.address, '::1');
    const c4 = await connected(port, '127.0.0.1');
    const [s4, p4] = await m.syscall('accept', l);
    assert.equal(p4.address, '::ffff:127.0.0.1');
    await m.syscall('write', c4, enc.encode('v4'));
    assert.equal(dec.decode(await m.syscall('read', s4, 10)), 'v4');
    for (const fd of [c6, s6, c4, s4, l]) await m.syscall('close', fd);
  });
});

describe('tcp: flow', () => {
  test('half-close: shutdown(SHUT_WR) is EOF for the peer, which can still answer', async () => {
    const [l, port] = await listener();
    const c = await connected(port);
    const [s] = await m.syscall('accept', l);
    await m.syscall('write', c, enc.encode('request'));
    await m.syscall('shutdown', c, SHUT_WR);
    assert.equal(await readAll(s), 'request');
    assert.equal(await errno(m.syscall('write', c, enc.encode('x'))), Errno.EPIPE);
    await m.syscall('write', s, enc.encode('reply'));
    await m.syscall('close', s);
    assert.equal(await readAll(c), 'reply');
    for (const fd of [c, l]) await m.syscall('close', fd);
  });

  test('a blocked reader wakes with the data; close wakes it with EOF', async () => {
    const [l, port] = await listener();
    const c = await connected(port);
    const [s] = await m.syscall('accept', l);
    const r = readAll(s);
    await m.syscall('write', c, enc.encode('a'.repeat(100_000)));
    await m.syscall('close', c);
    assert.equal((await r).length, 100_000);
    for (const fd of [s, l]) await m.syscall('close', fd);
  });

  test('a writer blocks at the buffer bound and goes on as the reader drains', async () => {
    const [l, port] = await listener();
    const c = await connected(port);
    const [s] = await m.syscall('accept', l);
    await m.syscall('fcntl', c, F_SETFL, O_NONBLOCK);
    let queued = 0;
    for (;;) {
      try {
        queued += await m.syscall('write', c, new Uint8Array(65536));
      } catch (e) {
        assert.equal((e as SysError).errno, Errno.EAGAIN);
        break;
      }
    }
    assert.ok(queued >= 65536 && queued <= 1024 * 1024, `queued ${queued}`);
    assert.deepEqual(await m.syscall('poll', [[c, POLLOUT]], 0), []);
    await m.syscall('read', s, 65536);
    assert.deepEqual(await m.syscall('poll', [[c, POLLOUT]], 0), [[c, POLLOUT]]);
    for (const fd of [c, s, l]) await m.syscall('close', fd);
  });

  test('MSG_PEEK leaves the data; MSG_DONTWAIT is EAGAIN on an empty socket', async () => {
    const [l, port] = await listener();
    const c = await connected(port);
    const [s] = await m.syscall('accept', l);
    assert.equal(await errno(m.syscall('recvfrom', s, 10, MSG_DONTWAIT)), Errno.EAGAIN);
    await m.syscall('write', c, enc.encode('peek'));
    assert.equal(dec.decode((await m.syscall('recvfrom', s, 10, MSG_PEEK))[0]), 'peek');
    assert.equal(dec.decode(await m.syscall('read', s, 10)), 'peek');
    for (const fd of [c, s, l]) await m.syscall('close', fd);
  });
});

describe('tcp: non-blocking and poll', () => {
  test('connect is EINPROGRESS then writable; a refused one reports through poll and SO_ERROR', async () => {
    const [l, port] = await listener();
    const c = await m.syscall('socket', AF_INET, SOCK_STREAM | SOCK_NONBLOCK);
    assert.equal(await errno(m.syscall('connect', c, { family: AF_INET, address: '127.0.0.1', port })), Errno.EINPROGRESS);
    assert.deepEqual(await m.syscall('poll', [[c, POLLOUT]], 1000), [[c, POLLOUT]]);
    assert.equal(await m.syscall('getsockopt', c, SOL_SOCKET, SO_ERROR), 0);
    assert.deepEqual(await m.syscall('poll', [[l, POLLIN]], 0), [[l, POLLIN]]);
    const [s] = await m.syscall('accept', l, SOCK_NONBLOCK);
    await m.syscall('fcntl', l, F_SETFL, O_NONBLOCK);
    assert.equal(await errno(m.syscall('accept', l)), Errno.EAGAIN);
    assert.equal(await errno(m.syscall('read', s, 10)), Errno.EAGAIN);
    const waiting = m.syscall('poll', [[s, POLLIN]], -1);
    await m.syscall('write', c, enc.encode('x'));
    assert.deepEqual(await waiting, [[s, POLLIN]]);
    await m.syscall('close', s);
    await m.syscall('close', l);
    const r = await m.syscall('socket', AF_INET, SOCK_STREAM | SOCK_NONBLOCK);
    assert.equal(await errno(m.syscall('connect', r, { family: AF_INET, address: '127.0.0.1', port })), Errno.EINPROGRESS);
    const [[, rev]] = await m.syscall('poll', [[r, POLLOUT]], 1000);
    assert.equal(rev & (POLLERR | POLLHUP), POLLERR | POLLHUP);
    assert.equal(await m.syscall('getsockopt', r, SOL_SOCKET, SO_ERROR), Errno.ECONNREFUSED);
    for (const fd of [c, r]) await m.syscall('close', fd);
  });

  test('backlog: connections past it wait (EAGAIN when non-blocking) until accept makes room', async () => {
    const [l, port] = await listener(0, '127.0.0.1', AF_INET, 1); // Linux queues backlog + 1
    const c1 = await connected(port);
    const c2 = await connected(port);
    const c3 = await m.syscall('socket', AF_INET, SOCK_STREAM);
    let done = false;
    const third = m.syscall('connect', c3, { family: AF_INET, address: '127.0.0.1', port }).then(() => (done = true));
    const nb = await m.syscall('socket', AF_INET, SOCK_STREAM | SOCK_NONBLOCK);
    assert.equal(await errno(m.syscall('connect', nb, { family: AF_INET, address: '127.0.0.1', port })), Errno.EAGAIN);
    assert.equal(done, false);
    const [s1] = await m.syscall('accept', l);
    await third;
    for (const fd of [c1, c2, c3, nb, s1, l]) await m.syscall('close', fd);
  });
});

// A guest process: its own fds, fork inheritance, SIGPIPE.
const GUEST = `#!/usr/libexec/agentos/js
const s = agentos.sys;
const [, mode, port] = agentos.argv;
const addr = { family: 2, address: '127.0.0.1', port: Number(port) };
if (mode === 'client') {
  const fd = s.socket(2, 1);
  s.connect(fd, addr);
  // A child inherits the connected socket: its write reaches the server too.
  const pid = s.spawn({ path: agentos.argv[0], argv: [agentos.argv[0], 'child'], fds: [[3, fd]] });
  s.waitpid(pid, 0);
  s.writeAll(fd, 'from parent\\n');
} else if (mode === 'child') {
  s.writeAll(3, 'from child\\n');
} else if (mode === 'sigpipe') {
  const fd = s.socket(2, 1);
  s.connect(fd, addr);
  s.read(fd, 10); // the server closes: EOF
  try { s.sendto(fd, 'x', 0x4000); } catch (e) { agentos.print('nosignal ' + e.code + '\\n'); }
  s.write(fd, 'x'); // SIGPIPE kills
  agentos.print('survived\\n');
}
`;

describe('tcp: guest processes', () => {
  before(async () => {
    await m.writeFile('/usr/local/bin/sockprobe', GUEST, 0o755);
  });

  test('a socket is inherited like any fd: parent and child write the same connection', async () => {
    const [l, port] = await listener();
    const pid = await m.spawn(['/usr/local/bin/sockprobe', 'client', String(port)]);
    const [s] = await m.syscall('accept', l);
    assert.equal(await readAll(s), 'from child\nfrom parent\n');
    assert.equal(await m.wait(pid), 0);
    for (const fd of [s, l]) await m.syscall('close', fd);
  });

  test('close is EOF for the peer; writing then is EPIPE, and SIGPIPE without MSG_NOSIGNAL', async () => {
    const [l, port] = await listener();
    const [r, w] = await m.syscall('pipe');
    const pid = await m.spawn(['/usr/local/bin/sockprobe', 'sigpipe', String(port)], { fds: [[1, w]] });
    await m.syscall('close', w);
    const [s] = await m.syscall('accept', l);
    await m.syscall('close', s);
    const status = await m.wait(pid);
    assert.equal(status & 0x7f, 13, 'killed by SIGPIPE');
    assert.equal(await readAll(r), 'nosignal EPIPE\n');
    for (const fd of [r, l]) await m.syscall('close', fd);
  });
});

// AF_UNIX sockets at the syscall level: stream and datagram sockets on paths
// (socket files in the VFS) and abstract names, socketpair, EADDRINUSE on an
// existing path, ECONNREFUSED on a stale one, EPROTOTYPE across types.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Errno, SysError } from '../../src/abi/errno.js';
import { AF_INET, AF_UNIX, SOCK_DGRAM, SOCK_NONBLOCK, SOCK_STREAM } from '../../src/abi/socket.js';
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

const unix = (address: string) => ({ family: AF_UNIX, address, port: 0 });

describe('unix stream', () => {
  test('a path is a socket file; connect, accept, echo; names', async () => {
    const l = await m.syscall('socket', AF_UNIX, SOCK_STREAM);
    await m.syscall('bind', l, unix('/tmp/echo.sock'));
    await m.syscall('listen', l, 4);
    assert.equal((await m.stat('/tmp/echo.sock')).mode & 0o170000, 0o140000, 'S_IFSOCK');
    const c = await m.syscall('socket', AF_UNIX, SOCK_STREAM);
    await m.syscall('connect', c, unix('/tmp/echo.sock'));
    const [s, peer] = await m.syscall('accept', l);
    assert.deepEqual(peer, unix(''), 'an unbound client is unnamed');
    assert.deepEqual(await m.syscall('getpeername', c), unix('/tmp/echo.sock'));
    await m.syscall('write', c, enc.encode('hello'));
    await m.syscall('write', s, await m.syscall('read', s, 100));
    assert.equal(dec.decode(await m.syscall('read', c, 100)), 'hello');
    for (const fd of [c, s, l]) await m.syscall('close', fd);
  });

  test('an existing path is EADDRINUSE; a socket file with nobody bound is ECONNREFUSED; a missing one ENOENT', async () => {
    const l = await m.syscall('socket', AF_UNIX, SOCK_STREAM);
    await m.syscall('bind', l, unix('/tmp/stale.sock'));
    await m.syscall('close', l);
    const again = await m.syscall('socket', AF_UNIX, SOCK_STREAM);
    assert.equal(await errno(m.syscall('bind', again, unix('/tmp/stale.sock'))), Errno.EADDRINUSE);
    assert.equal(await errno(m.syscall('connect', again, unix('/tmp/stale.sock'))), Errno.ECONNREFUSED);
    assert.equal(await errno(m.syscall('connect', again, unix('/tmp/none.sock'))), Errno.ENOENT);
    await m.writeFile('/tmp/plain', 'x');
    assert.equal(await errno(m.syscall('connect', again, unix('/tmp/plain'))), Errno.ECONNREFUSED);
    await m.syscall('unlink', '/tmp/stale.sock');
    await m.syscall('bind', again, unix('/tmp/stale.sock'));
    await m.syscall('close', again);
  });

  test('abstract names live in the kernel, not the file tree', async () => {
    const l = await m.syscall('socket', AF_UNIX, SOCK_STREAM);
    await m.syscall('bind', l, unix('\0agentos-test'));
    await m.syscall('listen', l);
    const other = await m.syscall('socket', AF_UNIX, SOCK_STREAM);
    assert.equal(await errno(m.syscall('bind', other, unix('\0agentos-test'))), Errno.EADDRINUSE);
    await m.syscall('connect', other, unix('\0agentos-test'));
    const [s] = await m.syscall('accept', l);
    assert.deepEqual(await m.syscall('getsockname', s), unix('\0agentos-test'));
    for (const fd of [other, s, l]) await m.syscall('close', fd);
    const reuse = await m.syscall('socket', AF_UNIX, SOCK_STREAM);
    await m.syscall('bind', reuse, unix('\0agentos-test')); // free once closed
    await m.syscall('close', reuse);
  });

  test('connect to a stream listener from a datagram socket is EPROTOTYPE; socketpair is AF_UNIX only', async () => {
    const l = await m.syscall('socket', AF_UNIX, SOCK_STREAM);
    await m.syscall('bind', l, unix('\0proto'));
    await m.syscall('listen', l);
    const d = await m.syscall('socket', AF_UNIX, SOCK_DGRAM);
    assert.equal(await errno(m.syscall('connect', d, unix('\0proto'))), Errno.EPROTOTYPE);
    assert.equal(await errno(m.syscall('socketpair', AF_INET, SOCK_STREAM)), Errno.ENOTSUP);
    for (const fd of [l, d]) await m.syscall('close', fd);
  });

  test('socketpair: a connected pair; closing one end is EOF for the other', async () => {
    const [a, b] = await m.syscall('socketpair', AF_UNIX, SOCK_STREAM);
    await m.syscall('write', a, enc.encode('ab'));
    assert.equal(dec.decode(await m.syscall('read', b, 10)), 'ab');
    await m.syscall('write', b, enc.encode('ba'));
    await m.syscall('close', b);
    assert.equal(dec.decode(await m.syscall('read', a, 10)), 'ba');
    assert.equal((await m.syscall('read', a, 10)).byteLength, 0);
    assert.equal(await errno(m.syscall('write', a, enc.encode('x'))), Errno.EPIPE);
    await m.syscall('close', a);
  });
});

describe('unix datagram', () => {
  test('messages keep their boundaries and their sender; read cuts a message', async () => {
    const srv = await m.syscall('socket', AF_UNIX, SOCK_DGRAM);
    await m.syscall('bind', srv, unix('/tmp/dgram.sock'));
    const cli = await m.syscall('socket', AF_UNIX, SOCK_DGRAM);
    await m.syscall('bind', cli, unix('/tmp/dgram-cli.sock'));
    await m.syscall('sendto', cli, enc.encode('one'), 0, unix('/tmp/dgram.sock'));
    await m.syscall('sendto', cli, enc.encode('second'), 0, unix('/tmp/dgram.sock'));
    const [d1, from] = await m.syscall('recvfrom', srv, 100);
    assert.deepEqual([dec.decode(d1), from], ['one', unix('/tmp/dgram-cli.sock')]);
    assert.equal(dec.decode(await m.syscall('read', srv, 3)), 'sec', 'the rest of the message is dropped');
    assert.equal(await errno(m.syscall('recvfrom', srv, 10, 0x40)), Errno.EAGAIN);
    for (const fd of [srv, cli]) await m.syscall('close', fd);
  });

  test('a full receiver makes a non-blocking sender EAGAIN; a blocked one goes on when it drains', async () => {
    const [a, b] = await m.syscall('socketpair', AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK);
    let sent = 0;
    for (;;) {
      try {
        await m.syscall('write', a, new Uint8Array(16384));
        sent++;
      } catch (e) {
        assert.equal((e as SysError).errno, Errno.EAGAIN);
        break;
      }
    }
    assert.ok(sent >= 8 && sent <= 64, `queued ${sent} datagrams`);
    await m.syscall('read', b, 65536);
    await m.syscall('write', a, new Uint8Array(16384));
    for (const fd of [a, b]) await m.syscall('close', fd);
  });
});

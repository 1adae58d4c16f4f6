// UDP on the VM's loopback at the syscall level: datagrams with their sender,
// a connected socket's filter, what UDP drops, EMSGSIZE and EADDRINUSE.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Errno } from '../../src/abi/errno.js';
import { AF_INET, AF_INET6, SOCK_DGRAM } from '../../src/abi/socket.js';
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

async function udp(address = '127.0.0.1', port = 0, family = AF_INET): Promise<[number, number]> {
  const fd = await m.syscall('socket', family, SOCK_DGRAM);
  await m.syscall('bind', fd, { family, address, port });
  return [fd, (await m.syscall('getsockname', fd)).port];
}

test('sendto/recvfrom: a datagram and its sender; an unbound sender gets a port', async () => {
  const [srv, port] = await udp();
  const cli = await m.syscall('socket', AF_INET, SOCK_DGRAM);
  await m.syscall('sendto', cli, enc.encode('ping'), 0, { family: AF_INET, address: 'localhost', port });
  const [data, from] = await m.syscall('recvfrom', srv, 100);
  assert.equal(dec.decode(data), 'ping');
  assert.equal(from!.address, '127.0.0.1');
  assert.equal(from!.port, (await m.syscall('getsockname', cli)).port);
  await m.syscall('sendto', srv, enc.encode('pong'), 0, from);
  assert.equal(dec.decode(await m.syscall('read', cli, 100)), 'pong');
  for (const fd of [srv, cli]) await m.syscall('close', fd);
});

test('nobody listening: the datagram is dropped, not an error; a connected socket only hears its peer', async () => {
  const [a, pa] = await udp();
  const [b, pb] = await udp();
  const [c] = await udp();
  await m.syscall('close', await udp().then(([fd]) => fd));
  await m.syscall('connect', a, { family: AF_INET, address: '127.0.0.1', port: pb });
  assert.deepEqual(await m.syscall('getpeername', a), { family: AF_INET, address: '127.0.0.1', port: pb });
  await m.syscall('sendto', c, enc.encode('stranger'), 0, { family: AF_INET, address: '127.0.0.1', port: pa });
  await m.syscall('sendto', b, enc.encode('peer'), 0, { family: AF_INET, address: '127.0.0.1', port: pa });
  assert.equal(dec.decode(await m.syscall('read', a, 100)), 'peer');
  assert.equal(await errno(m.syscall('recvfrom', a, 100, 0x40)), Errno.EAGAIN, 'the stranger was filtered');
  assert.equal(await m.syscall('write', a, enc.encode('to b')), 4);
  assert.equal(dec.decode(await m.syscall('read', b, 100)), 'to b');
  for (const fd of [a, b, c]) await m.syscall('close', fd);
});

test('EMSGSIZE past 65507 bytes; EDESTADDRREQ without an address; EADDRINUSE on a bound port', async () => {
  const [a, port] = await udp();
  assert.equal(await errno(m.syscall('sendto', a, new Uint8Array(65508), 0, { family: AF_INET, address: '127.0.0.1', port })), Errno.EMSGSIZE);
  assert.equal(await errno(m.syscall('write', a, enc.encode('x'))), Errno.EDESTADDRREQ);
  const b = await m.syscall('socket', AF_INET, SOCK_DGRAM);
  assert.equal(await errno(m.syscall('bind', b, { family: AF_INET, address: '127.0.0.1', port })), Errno.EADDRINUSE);
  assert.equal(await errno(m.syscall('sendto', b, enc.encode('x'), 0, { family: AF_INET, address: '8.8.8.8', port: 53 })), Errno.ENETUNREACH);
  for (const fd of [a, b]) await m.syscall('close', fd);
});

test('IPv6 UDP on ::1', async () => {
  const [srv, port] = await udp('::1', 0, AF_INET6);
  const cli = await m.syscall('socket', AF_INET6, SOCK_DGRAM);
  await m.syscall('sendto', cli, enc.encode('six'), 0, { family: AF_INET6, address: '::1', port });
  const [data, from] = await m.syscall('recvfrom', srv, 100);
  assert.deepEqual([dec.decode(data), from!.address], ['six', '::1']);
  for (const fd of [srv, cli]) await m.syscall('close', fd);
});

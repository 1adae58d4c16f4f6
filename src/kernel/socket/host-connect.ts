// Connections from outside the VM (vm.expose, browser previews): the host holds
// the client end of a TCP connection to a listener on the VM's loopback. It is
// no guest fd and no syscall reaches it: only the host's control channel
// (host/worker/host-ports.ts) calls these, so a guest can neither open a port
// outside nor be reached unless the host asks.

import { Errno, SysError } from '../../abi/errno.js';
import { AF_INET, AF_INET6 } from '../../abi/socket.js';
import type { WaitQueue } from '../waitqueue.js';
import { sockAddr } from './address.js';
import { StreamSocket } from './stream.js';
import type { SocketTable } from './table.js';

/**
 * A new connection from the host to whatever listens on the VM's `port` at
 * 127.0.0.1 (or ::1): the client end, or the listener's queue to wait on
 * while its backlog is full. ECONNREFUSED when nothing listens there.
 */
export function connectFromHost(t: SocketTable, port: number): StreamSocket | WaitQueue {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new SysError(Errno.EINVAL, `port ${port}`);
  const ip = t.listener('127.0.0.1', port) ? '127.0.0.1' : '::1';
  const listener = t.listener(ip, port);
  if (!listener) throw new SysError(Errno.ECONNREFUSED, `nothing listens on port ${port} in the VM`);
  if (listener.acceptFull) return listener.queue;
  // Owned by root: the host is init's side of the VM.
  const client = t.newStream(ip === '::1' ? AF_INET6 : AF_INET, 0, 0);
  t.autobind(client, ip);
  listener.connectFrom(client, sockAddr(client.family, ip, port));
  return client;
}

/** The TCP ports the host can reach: listening on a loopback or wildcard address, ascending. */
export function loopbackPorts(t: SocketTable): number[] {
  const ports = new Set<number>();
  for (const s of t.all) {
    if (!(s instanceof StreamSocket) || s.state !== 'listening' || !s.isInet) continue;
    const port = s.local!.port;
    if (t.listener('127.0.0.1', port) || t.listener('::1', port)) ports.add(port);
  }
  return [...ports].sort((a, b) => a - b);
}

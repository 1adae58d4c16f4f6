// HTTP to the VM's own loopback. A URL whose host is the VM's loopback —
// `localhost` and its subdomains, 127.0.0.0/8, ::1 (in any spelling the URL
// parser reads as those), and 0.0.0.0 / :: which Linux connects to the
// loopback — is served from the VM's socket table: the kernel connects to
// the listening socket as a client would and speaks HTTP/1.1 over it
// (http1.ts). It never leaves the VM, so the network policy, approvals, the
// audit trail and host-held secrets do not apply (a secret's value would be
// handed to the VM's own server, which is the guest). Nothing listening is
// ECONNREFUSED, unless the policy names that loopback host (`127.0.0.1`,
// `http://localhost:8080`): then the operator opened the host's own loopback
// and the request goes there as before. A listener in the VM always wins.

import { Errno, SysError } from '../../abi/errno.js';
import { longTimeout } from '../../abi/long-timeout.js';
import { AF_INET, AF_INET6 } from '../../abi/socket.js';
import type { Kernel } from '../kernel.js';
import type { Process } from '../process.js';
import { isV4, sockAddr } from '../socket/address.js';
import type { StreamSocket } from '../socket/stream.js';
import { WaitQueue } from '../waitqueue.js';
import { canonicalHost, parseIPv6 } from './address.js';
import { NetError, type HostRequest, type HostResponse } from './host.js';
import { exchange, type ByteStream } from './http1.js';

/** Bytes taken from the socket per read. */
const CHUNK = 64 * 1024;

/** A server in the VM that a request reaches. */
export interface VmServer {
  ip: string;
  port: number;
}

/** The VM addresses a URL's host names, in the order a client tries them; null when it is not the VM's loopback. */
export function loopbackAddresses(hostname: string): string[] | null {
  // The URL parser has made IPv4 a dotted quad and IPv6 compressed hex; canonicalHost makes ::ffff:a.b.c.d IPv4.
  const h = canonicalHost(hostname);
  if (/(^|\.)localhost$/.test(h)) return ['127.0.0.1', '::1'];
  if (h === '0.0.0.0') return ['127.0.0.1'];
  if (/^127\.\d+\.\d+\.\d+$/.test(h)) return [h];
  const b = h.startsWith('[') ? parseIPv6(h) : null;
  if (b && b.slice(0, 15).every((x) => x === 0) && b[15] <= 1) return ['::1'];
  return null;
}

const portOf = (u: URL) => (u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80);

/**
 * Where a request goes: a server in the VM, or null for the host's path
 * (not a loopback URL, or nothing listens in the VM and the policy names
 * that loopback host: then the policy decides, method and `ask` included).
 * ECONNREFUSED when it is the VM's loopback and nothing listens there.
 */
export function vmServer(k: Kernel, url: string): VmServer | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null; // the policy reports a malformed URL
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  const ips = loopbackAddresses(u.hostname);
  if (!ips) return null;
  const port = portOf(u);
  const ip = ips.find((a) => k.sockets.listener(a, port));
  if (ip) return { ip, port };
  if (k.net.policy.opensLoopback(u)) return null;
  throw new SysError(Errno.ECONNREFUSED, `nothing listens on ${u.hostname} port ${port} in the VM`);
}

const cancelled = () => new NetError(Errno.EINTR, 'the transfer was cancelled');

/** Until `q` wakes; rejects when `signal` aborts first. */
function wake(q: WaitQueue, signal: AbortSignal): Promise<void> {
  return new Promise((ok, fail) => {
    if (signal.aborted) return fail(cancelled());
    const onAbort = () => {
      off();
      fail(cancelled());
    };
    const off = q.add(() => {
      signal.removeEventListener('abort', onAbort);
      ok();
    });
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The kernel's end of a connection to a server in the VM: a socket no process holds. */
class KernelSocket implements ByteStream {
  private closed = false;

  constructor(
    private readonly s: StreamSocket,
    private readonly signal: AbortSignal,
  ) {
    signal.addEventListener('abort', () => this.close(), { once: true });
  }

  async read(): Promise<Uint8Array> {
    for (;;) {
      if (this.closed) throw cancelled();
      const r = this.s.read(CHUNK, false, false);
      if (!(r instanceof WaitQueue)) return r;
      await wake(r, this.signal);
    }
  }

  async write(b: Uint8Array): Promise<void> {
    for (let off = 0; off < b.byteLength; ) {
      if (this.closed) throw cancelled();
      const r = this.s.write(off ? b.subarray(off) : b, false);
      if (r instanceof WaitQueue) await wake(r, this.signal);
      else off += r;
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.s.close();
  }
}

/** Connect to the listener as a blocking connect() does: wait while its backlog is full, up to the connect timeout. */
async function connect(k: Kernel, p: Process, t: VmServer, timeoutMs: number, signal: AbortSignal): Promise<StreamSocket> {
  const gave = new AbortController();
  const onAbort = () => gave.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer = longTimeout(() => {
    timedOut = true;
    gave.abort();
  }, timeoutMs);
  try {
    for (;;) {
      const listener = k.sockets.listener(t.ip, t.port);
      if (!listener) throw new NetError(Errno.ECONNREFUSED, `Failed to connect to ${t.ip} port ${t.port}: Connection refused`);
      if (!listener.acceptFull) {
        const family = isV4(t.ip) ? AF_INET : AF_INET6;
        const s = k.sockets.newStream(family, p.uid, p.gid);
        k.sockets.autobind(s, t.ip);
        listener.connectFrom(s, sockAddr(family, t.ip, t.port));
        return s;
      }
      try {
        await wake(listener.queue, gave.signal);
      } catch (e) {
        if (timedOut && !signal.aborted) throw new NetError(Errno.ETIMEDOUT, `Connection timed out after ${timeoutMs} milliseconds`);
        throw e;
      }
    }
  } finally {
    timer.clear();
    signal.removeEventListener('abort', onAbort);
  }
}

/** Perform `req` against the server in the VM at `t`, for process `p` (the client socket is its, for /proc/net). */
export async function loopbackFetch(
  k: Kernel,
  p: Process,
  t: VmServer,
  req: Pick<HostRequest, 'method' | 'url' | 'headers' | 'body' | 'connectTimeoutMs' | 'signal'>,
): Promise<HostResponse> {
  if (new URL(req.url).protocol === 'https:') {
    throw new NetError(Errno.EPROTO, `TLS is not available to servers in the VM: ${t.ip} port ${t.port} is reached with http://`);
  }
  const s = await connect(k, p, t, req.connectTimeoutMs, req.signal);
  return exchange(new KernelSocket(s, req.signal), req, `${t.ip}:${t.port}`);
}

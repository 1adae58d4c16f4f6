// nc [-46dhklNnuvzU] [-p port] [-q secs] [-s source] [-w secs] [host] [port]
// Arbitrary TCP, UDP and unix-domain connections and listens (OpenBSD
// netcat, as Debian ships it): copy standard input to the socket and the
// socket to standard output until the peer closes.
//
// As OpenBSD nc: end of standard input does not end the connection unless -N
// (shut the socket down for writing) or -q SECS (quit SECS seconds later;
// -q 0 at once) says so. -l listens (once; -k keeps listening), -z only
// checks that something listens, -w bounds the connect and idle times.
// Sockets reach the VM's loopback only (127.0.0.0/8, ::1, localhost).

import { Errno, strerror, SysError } from '../../../abi/errno.js';
import {
  AF_INET, AF_INET6, AF_UNIX, MSG_NOSIGNAL, MSG_PEEK, SHUT_WR, SO_ERROR, SO_REUSEADDR, SOCK_DGRAM, SOCK_STREAM, SOL_SOCKET, type SockAddr,
} from '../../../abi/socket.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import type { Sys } from '../../../libc/sys.js';
import { parseArgs, UsageError } from '../../../userland/lib/args.js';

const USAGE = `usage: nc [-46dhklNnuvzU] [-p source_port] [-q seconds] [-s sourceaddr]
	  [-w timeout] [destination] [port]
	Command Summary:
		-4		Use IPv4
		-6		Use IPv6
		-d		Detach from stdin
		-h		This help text
		-k		Keep inbound sockets open for multiple connects
		-l		Listen mode, for inbound connects
		-N		Shutdown the network socket after EOF on stdin
		-n		Suppress name/port resolutions
		-p port		Specify local port for remote connects
		-q secs		quit after EOF on stdin and delay of secs
		-s sourceaddr	Local source address
		-U		Use UNIX domain socket
		-u		UDP mode
		-v		Verbose
		-w timeout	Timeout for connects and final net reads
		-z		Zero-I/O mode [used for scanning]
	Port numbers can be individual or ranges: lo-hi [inclusive]
`;

const POLLIN = 1, POLLOUT = 4, POLLERR = 8, POLLHUP = 16;
const F_SETFL = 4, O_NONBLOCK = 0o4000;

interface Opts {
  family: number;
  listen: boolean;
  keep: boolean;
  udp: boolean;
  unix: boolean;
  zero: boolean;
  verbose: boolean;
  noStdin: boolean;
  shutOnEof: boolean;
  /** -q: ms to linger after stdin's EOF; -1 = forever (the default). */
  quitMs: number;
  /** -w: ms; -1 = none. */
  waitMs: number;
  port: string | null;
  source: string | null;
}

class Fatal extends Error {}

export default function main(os: AgentosApi): void {
  os.exit(run(os));
}

function run(os: AgentosApi): number {
  const o: Opts = {
    family: 0, listen: false, keep: false, udp: false, unix: false, zero: false, verbose: false, noStdin: false,
    shutOnEof: false, quitMs: -1, waitMs: -1, port: null, source: null,
  };
  let operands: string[];
  try {
    const parsed = parseArgs(os.argv.slice(1), { short: '46dhklNnp:q:s:Uuvw:z' });
    for (const [k, v] of parsed.list) {
      switch (k) {
        case '4': o.family = AF_INET; break;
        case '6': o.family = AF_INET6; break;
        case 'd': o.noStdin = true; break;
        case 'h': os.print(USAGE); return 0;
        case 'k': o.keep = true; break;
        case 'l': o.listen = true; break;
        case 'N': o.shutOnEof = true; break;
        case 'n': break;
        case 'p': o.port = v!; break;
        case 'q': o.quitMs = seconds(v!, 'quit'); break;
        case 's': o.source = v!; break;
        case 'U': o.unix = true; break;
        case 'u': o.udp = true; break;
        case 'v': o.verbose = true; break;
        case 'w': o.waitMs = seconds(v!, 'timeout'); break;
        case 'z': o.zero = true; break;
      }
    }
    operands = parsed.operands;
  } catch (e) {
    if (e instanceof UsageError || e instanceof Fatal) {
      os.eprint(`nc: ${e.message}\n${USAGE}`);
      return 1;
    }
    throw e;
  }
  try {
    return o.listen ? listen(os, o, operands) : connect(os, o, operands);
  } catch (e) {
    if (e instanceof Fatal) {
      os.eprint(`nc: ${e.message}\n`);
      return 1;
    }
    if (e instanceof SysError) {
      os.eprint(`nc: ${strerror(e.errno)}\n`);
      return 1;
    }
    throw e;
  }
}

function seconds(v: string, what: string): number {
  if (!/^-?\d+$/.test(v)) throw new Fatal(`${what} "${v}" is invalid`);
  return Number(v) < 0 ? -1 : Number(v) * 1000;
}

function portNumber(v: string): number {
  if (!/^\d+$/.test(v) || Number(v) > 65535) throw new Fatal(`port number invalid: ${v}`);
  return Number(v);
}

/** The address of host:port for the chosen family (an IPv6 literal picks AF_INET6). */
function inetAddr(o: Opts, host: string, port: number): SockAddr {
  const family = o.family || (host.includes(':') ? AF_INET6 : AF_INET);
  return { family, address: host, port };
}

function listen(os: AgentosApi, o: Opts, operands: string[]): number {
  const s = os.sys;
  let addr: SockAddr;
  if (o.unix) {
    if (operands.length !== 1) throw new Fatal('missing socket path');
    addr = { family: AF_UNIX, address: operands[0], port: 0 };
  } else {
    // nc -l [host] port, or nc -l -p port (traditional netcat)
    const [host, port] = operands.length >= 2 ? operands : [o.family === AF_INET6 ? '::' : '0.0.0.0', operands[0] ?? o.port];
    if (!port) throw new Fatal('missing port with option -l');
    addr = inetAddr(o, host, portNumber(port));
  }
  const fd = s.socket(addr.family, o.udp ? SOCK_DGRAM : SOCK_STREAM);
  if (addr.family !== AF_UNIX) s.setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, 1);
  s.bind(fd, addr);
  if (o.udp) {
    // The first datagram names the peer: connect to it and go on as a connection.
    const [, from] = s.recvfrom(fd, 65536, MSG_PEEK);
    if (from && from.address) s.connect(fd, from);
    if (o.verbose) os.eprint(`Bound on ${show(addr)}\nConnection received on ${from ? show(from) : 'unknown'}\n`);
    return pump(os, o, fd);
  }
  s.listen(fd, 5);
  if (o.verbose) os.eprint(`Listening on ${show(s.getsockname(fd))}\n`);
  for (;;) {
    const [conn, peer] = s.accept(fd);
    if (o.verbose) os.eprint(`Connection received on ${show(peer)}\n`);
    const st = pump(os, o, conn);
    s.close(conn);
    if (!o.keep) {
      s.close(fd);
      if (o.unix) s.unlink(addr.address);
      return st;
    }
  }
}

function connect(os: AgentosApi, o: Opts, operands: string[]): number {
  const s = os.sys;
  let targets: SockAddr[];
  if (o.unix) {
    if (operands.length !== 1) throw new Fatal('missing socket path');
    targets = [{ family: AF_UNIX, address: operands[0], port: 0 }];
  } else {
    if (operands.length !== 2) throw new Fatal('missing hostname and port');
    const [host, ports] = operands;
    const range = /^(\d+)-(\d+)$/.exec(ports);
    const [lo, hi] = range ? [portNumber(range[1]), portNumber(range[2])] : [portNumber(ports), portNumber(ports)];
    targets = [];
    for (let p = lo; p <= hi; p++) targets.push(inetAddr(o, host, p));
  }
  let status = 1;
  for (const addr of targets) {
    const fd = s.socket(addr.family, o.udp ? SOCK_DGRAM : SOCK_STREAM);
    try {
      if (o.source || o.port) s.bind(fd, { family: addr.family, address: o.source ?? (addr.family === AF_INET6 ? '::' : '0.0.0.0'), port: o.port ? portNumber(o.port) : 0 });
      connectTimed(s, fd, addr, o.waitMs);
    } catch (e) {
      s.close(fd);
      if (!(e instanceof SysError)) throw e;
      if (o.verbose || !o.zero) os.eprint(`nc: connect to ${addr.address} port ${addr.port} (${o.udp ? 'udp' : 'tcp'}) failed: ${strerror(e.errno)}\n`);
      continue;
    }
    if (o.verbose) os.eprint(addr.family === AF_UNIX ? '' : `Connection to ${addr.address} ${addr.port} port [${o.udp ? 'udp' : 'tcp'}/*] succeeded!\n`);
    status = o.zero ? 0 : pump(os, o, fd);
    s.close(fd);
  }
  return status;
}

/** connect(2), bounded by -w: non-blocking, then poll for the outcome. */
function connectTimed(s: Sys, fd: number, addr: SockAddr, waitMs: number): void {
  if (waitMs < 0) return s.connect(fd, addr);
  s.fcntl(fd, F_SETFL, O_NONBLOCK);
  try {
    s.connect(fd, addr);
  } catch (e) {
    if (!(e instanceof SysError) || (e.errno !== Errno.EINPROGRESS && e.errno !== Errno.EAGAIN)) throw e;
    if (!s.poll([[fd, POLLOUT]], waitMs).length) throw new SysError(Errno.ETIMEDOUT);
    const err = s.getsockopt(fd, SOL_SOCKET, SO_ERROR);
    if (err) throw new SysError(err);
  }
  s.fcntl(fd, F_SETFL, 0);
}

/**
 * Copy stdin to the socket and the socket to stdout until the socket ends
 * (or -q/-w say so). The peer's EOF is a half-close: it still reads, so nc
 * goes on sending stdin until stdin ends too (a client that half-closes at
 * once gets the answer even when the stage writing nc's stdin has not run
 * yet). A listener whose peer has gone both ways (POLLHUP: it reads no more)
 * ends at once, as OpenBSD nc -l does when its client disconnects.
 */
function pump(os: AgentosApi, o: Opts, fd: number): number {
  const s = os.sys;
  let stdinOpen = !o.noStdin;
  let netOpen = true;
  let quitAt = Infinity;
  for (;;) {
    const fds: [number, number][] = [];
    if (netOpen) fds.push([fd, POLLIN]);
    // After the peer's EOF a listener still watches for it going away (POLLHUP/POLLERR come whatever the events).
    else if (o.listen) fds.push([fd, 0]);
    if (stdinOpen) fds.push([0, POLLIN]);
    const now = Date.now();
    if (now >= quitAt) return 0;
    let wait = quitAt === Infinity ? -1 : quitAt - now;
    if (o.waitMs >= 0) wait = wait < 0 ? o.waitMs : Math.min(wait, o.waitMs);
    const ready = s.poll(fds, wait);
    if (!ready.length) {
      if (Date.now() >= quitAt || o.waitMs >= 0) return 0; // -q's delay ran out, or idle past -w: closed
      continue;
    }
    for (const [rfd, rev] of ready) {
      if (rfd === fd && rev & (POLLIN | POLLHUP | POLLERR)) {
        if (!netOpen) return 0; // a listener's peer that had half-closed has gone
        let b: Uint8Array;
        try {
          b = s.read(fd, 65536);
        } catch (e) {
          if (e instanceof SysError && e.errno === Errno.EAGAIN) continue;
          throw e;
        }
        if (b.byteLength) s.writeAll(1, b);
        else if (!stdinOpen || (o.listen && rev & POLLHUP)) return 0;
        else netOpen = false;
      } else if (rfd === 0 && rev & (POLLIN | POLLHUP | POLLERR)) {
        const b = s.read(0, 65536);
        if (b.byteLength) {
          try {
            s.sendto(fd, b, MSG_NOSIGNAL);
          } catch (e) {
            // The peer went after it had finished sending: nothing more to do, quietly.
            if (netOpen || !(e instanceof SysError) || (e.errno !== Errno.EPIPE && e.errno !== Errno.ECONNRESET)) throw e;
            return 0;
          }
          continue;
        }
        stdinOpen = false;
        if (!netOpen) return 0;
        if (o.shutOnEof && !o.udp) s.shutdown(fd, SHUT_WR);
        if (o.quitMs >= 0) quitAt = Date.now() + o.quitMs;
        if (o.quitMs === 0) return 0;
      }
    }
  }
}

function show(a: SockAddr): string {
  if (a.family === AF_UNIX) return a.address;
  return `${a.address} ${a.port}`;
}


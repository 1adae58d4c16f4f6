// bash's network redirections: /dev/tcp/HOST/PORT and /dev/udp/HOST/PORT open
// a socket connected to HOST:PORT instead of a file (bash does this in the
// shell; no such files exist). HOST is an IPv4 or IPv6 address or `localhost`;
// the kernel's sockets reach the VM's loopback only.

import { strerror, SysError } from '../../abi/errno.js';
import { AF_INET, AF_INET6, SOCK_CLOEXEC, SOCK_DGRAM, SOCK_STREAM } from '../../abi/socket.js';
import type { Sys } from '../../libc/sys.js';
import { ShellError } from '../errors.js';

const NET_PATH = /^\/dev\/(tcp|udp)\/([^/]+)\/([^/]+)$/;

/** The connected socket's fd (close-on-exec, as the shell's own fds are), or null when `path` is not a network path. */
export function openNetPath(sys: Sys, path: string): number | null {
  const m = NET_PATH.exec(path);
  if (!m) return null;
  const [, proto, host, service] = m;
  if (!/^\d+$/.test(service) || Number(service) > 65535) throw new ShellError(`${service}: Servname not supported for ai_socktype`);
  const family = host.includes(':') ? AF_INET6 : AF_INET;
  if (!/^localhost$/i.test(host) && !/^[\d.]+$/.test(host) && family === AF_INET) throw new ShellError(`${host}: Name or service not known`);
  const fd = sys.socket(family, (proto === 'tcp' ? SOCK_STREAM : SOCK_DGRAM) | SOCK_CLOEXEC);
  try {
    sys.connect(fd, { family, address: host.replace(/^\[|\]$/g, ''), port: Number(service) });
  } catch (e) {
    sys.close(fd);
    if (e instanceof SysError) throw new ShellError(`${path}: ${strerror(e.errno)}`);
    throw e;
  }
  return fd;
}

// Sockets: the constants of socket(2) and friends, with Linux's numbers, and
// the address as it crosses the syscall channel.
//
// An address is an object, not a packed sockaddr: { family, address, port }.
//   AF_INET:  address '127.0.0.1' (any 127.0.0.0/8, '0.0.0.0', or 'localhost'), port 0..65535
//   AF_INET6: address '::1' (or '::', '::ffff:127.x.y.z', 'localhost'), port
//   AF_UNIX:  address a path in the VM's file tree; a leading NUL ('\0name')
//             is an abstract name (no file); '' is unnamed; port 0
// The kernel answers addresses in the same shape, normalised (getsockname,
// getpeername, accept, recvfrom).

export const AF_UNIX = 1;
export const AF_INET = 2;
export const AF_INET6 = 10;

export const SOCK_STREAM = 1;
export const SOCK_DGRAM = 2;
/** Or'ed into socket(2)'s type, as on Linux (the numbers are O_NONBLOCK and O_CLOEXEC). */
export const SOCK_NONBLOCK = 0o4000;
export const SOCK_CLOEXEC = 0o2000000;

export const IPPROTO_TCP = 6;
export const IPPROTO_UDP = 17;

export const SHUT_RD = 0;
export const SHUT_WR = 1;
export const SHUT_RDWR = 2;

/** send/recv flags. */
export const MSG_PEEK = 0x2;
export const MSG_TRUNC = 0x20;
export const MSG_DONTWAIT = 0x40;
export const MSG_WAITALL = 0x100;
export const MSG_NOSIGNAL = 0x4000;

/** setsockopt/getsockopt levels and names (values are integers). */
export const SOL_SOCKET = 1;
export const SO_REUSEADDR = 2;
export const SO_TYPE = 3;
export const SO_ERROR = 4;
export const SO_BROADCAST = 6;
export const SO_SNDBUF = 7;
export const SO_RCVBUF = 8;
export const SO_KEEPALIVE = 9;
export const SO_LINGER = 13;
export const SO_REUSEPORT = 15;
export const SO_ACCEPTCONN = 30;
export const SO_DOMAIN = 39;
export const SO_PROTOCOL = 38;
export const TCP_NODELAY = 1;
export const IPPROTO_IPV6 = 41;
export const IPV6_V6ONLY = 26;

/** listen(2)'s backlog is capped here (Linux's net.core.somaxconn). */
export const SOMAXCONN = 4096;

/** A socket address as the syscalls take and answer it (see the top of this file). */
export interface SockAddr {
  family: number;
  address: string;
  port: number;
}

/** How addresses are shown: 127.0.0.1:80, [::1]:80, /path, @abstract. */
export function formatSockAddr(a: SockAddr): string {
  if (a.family === AF_UNIX) return a.address.startsWith('\0') ? `@${a.address.slice(1)}` : a.address;
  return a.family === AF_INET6 ? `[${a.address}]:${a.port}` : `${a.address}:${a.port}`;
}

// Linux errno numbers (asm-generic/errno-base.h, errno.h) and their strerror texts.
// Kernel and user code share these, so errors cross the syscall boundary as plain numbers.

export const enum Errno {
  EPERM = 1, ENOENT = 2, ESRCH = 3, EINTR = 4, EIO = 5, ENXIO = 6, E2BIG = 7, ENOEXEC = 8,
  EBADF = 9, ECHILD = 10, EAGAIN = 11, ENOMEM = 12, EACCES = 13, EFAULT = 14, EBUSY = 16,
  EEXIST = 17, EXDEV = 18, ENODEV = 19, ENOTDIR = 20, EISDIR = 21, EINVAL = 22, ENFILE = 23,
  EMFILE = 24, ENOTTY = 25, ETXTBSY = 26, EFBIG = 27, ENOSPC = 28, ESPIPE = 29, EROFS = 30,
  EMLINK = 31, EPIPE = 32, ERANGE = 34, ENAMETOOLONG = 36, ENOSYS = 38, ENOTEMPTY = 39,
  ELOOP = 40, ENOTSUP = 95 /* = EOPNOTSUPP on Linux */, ETIMEDOUT = 110,
  EPROTO = 71, ENETUNREACH = 101, ECONNRESET = 104, ECONNREFUSED = 111, EHOSTUNREACH = 113,
  // sockets
  ENOTSOCK = 88, EDESTADDRREQ = 89, EMSGSIZE = 90, EPROTOTYPE = 91, ENOPROTOOPT = 92, EPROTONOSUPPORT = 93,
  EAFNOSUPPORT = 97, EADDRINUSE = 98, EADDRNOTAVAIL = 99, ENOBUFS = 105, EISCONN = 106, ENOTCONN = 107,
  EALREADY = 114, EINPROGRESS = 115,
}

const table: Record<number, [string, string]> = {
  1: ['EPERM', 'Operation not permitted'],
  2: ['ENOENT', 'No such file or directory'],
  3: ['ESRCH', 'No such process'],
  4: ['EINTR', 'Interrupted system call'],
  5: ['EIO', 'Input/output error'],
  6: ['ENXIO', 'No such device or address'],
  7: ['E2BIG', 'Argument list too long'],
  8: ['ENOEXEC', 'Exec format error'],
  9: ['EBADF', 'Bad file descriptor'],
  10: ['ECHILD', 'No child processes'],
  11: ['EAGAIN', 'Resource temporarily unavailable'],
  12: ['ENOMEM', 'Cannot allocate memory'],
  13: ['EACCES', 'Permission denied'],
  14: ['EFAULT', 'Bad address'],
  16: ['EBUSY', 'Device or resource busy'],
  17: ['EEXIST', 'File exists'],
  18: ['EXDEV', 'Invalid cross-device link'],
  19: ['ENODEV', 'No such device'],
  20: ['ENOTDIR', 'Not a directory'],
  21: ['EISDIR', 'Is a directory'],
  22: ['EINVAL', 'Invalid argument'],
  23: ['ENFILE', 'Too many open files in system'],
  24: ['EMFILE', 'Too many open files'],
  25: ['ENOTTY', 'Inappropriate ioctl for device'],
  26: ['ETXTBSY', 'Text file busy'],
  27: ['EFBIG', 'File too large'],
  28: ['ENOSPC', 'No space left on device'],
  29: ['ESPIPE', 'Illegal seek'],
  30: ['EROFS', 'Read-only file system'],
  31: ['EMLINK', 'Too many links'],
  32: ['EPIPE', 'Broken pipe'],
  34: ['ERANGE', 'Numerical result out of range'],
  36: ['ENAMETOOLONG', 'File name too long'],
  38: ['ENOSYS', 'Function not implemented'],
  39: ['ENOTEMPTY', 'Directory not empty'],
  40: ['ELOOP', 'Too many levels of symbolic links'],
  95: ['ENOTSUP', 'Operation not supported'],
  110: ['ETIMEDOUT', 'Connection timed out'],
  71: ['EPROTO', 'Protocol error'],
  101: ['ENETUNREACH', 'Network is unreachable'],
  104: ['ECONNRESET', 'Connection reset by peer'],
  111: ['ECONNREFUSED', 'Connection refused'],
  113: ['EHOSTUNREACH', 'No route to host'],
  88: ['ENOTSOCK', 'Socket operation on non-socket'],
  89: ['EDESTADDRREQ', 'Destination address required'],
  90: ['EMSGSIZE', 'Message too long'],
  91: ['EPROTOTYPE', 'Protocol wrong type for socket'],
  92: ['ENOPROTOOPT', 'Protocol not available'],
  93: ['EPROTONOSUPPORT', 'Protocol not supported'],
  97: ['EAFNOSUPPORT', 'Address family not supported by protocol'],
  98: ['EADDRINUSE', 'Address already in use'],
  99: ['EADDRNOTAVAIL', 'Cannot assign requested address'],
  105: ['ENOBUFS', 'No buffer space available'],
  106: ['EISCONN', 'Transport endpoint is already connected'],
  107: ['ENOTCONN', 'Transport endpoint is not connected'],
  114: ['EALREADY', 'Operation already in progress'],
  115: ['EINPROGRESS', 'Operation now in progress'],
};

export function errnoName(e: number): string {
  return table[e]?.[0] ?? `E${e}`;
}

export function strerror(e: number): string {
  return table[e]?.[1] ?? `Unknown error ${e}`;
}

export function errnoFromName(name: string): number {
  for (const [n, [sym]] of Object.entries(table)) if (sym === name) return Number(n);
  throw new Error(`unknown errno name ${name}`);
}

/** Shared across bundles: a program bundles its own copy of this module, the runtime another. */
const BRAND = Symbol.for('agentos.SysError');

/** The one error type that crosses the syscall boundary: an errno plus context for messages. */
export class SysError extends Error {
  readonly [BRAND] = true;

  constructor(readonly errno: number, readonly detail?: string) {
    super(`${errnoName(errno)}: ${strerror(errno)}${detail ? ` (${detail})` : ''}`);
    this.name = 'SysError';
  }

  /** `instanceof` works whichever bundled copy of the class made the error. */
  static override [Symbol.hasInstance](x: unknown): boolean {
    return typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[BRAND] === true;
  }

  get code(): string {
    return errnoName(this.errno);
  }
}

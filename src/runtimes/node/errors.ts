// Node-shaped errors: SysError from a syscall becomes libuv's message format
// (`ENOENT: no such file or directory, open '/x'`) with code, errno (negative),
// syscall and path, as Node's fs and child_process report them.

import { errnoName, SysError } from '../../abi/errno.js';

/** libuv's lower-case messages for the errnos the kernel returns. */
const UV: Record<string, string> = {
  EPERM: 'operation not permitted', ENOENT: 'no such file or directory', ESRCH: 'no such process',
  EINTR: 'interrupted system call', EIO: 'i/o error', ENXIO: 'no such device or address',
  E2BIG: 'argument list too long', ENOEXEC: 'exec format error', EBADF: 'bad file descriptor',
  ECHILD: 'no child processes', EAGAIN: 'resource temporarily unavailable', ENOMEM: 'not enough memory',
  EACCES: 'permission denied', EFAULT: 'bad address in system call argument', EBUSY: 'resource busy or locked',
  EEXIST: 'file already exists', EXDEV: 'cross-device link not permitted', ENODEV: 'no such device',
  ENOTDIR: 'not a directory', EISDIR: 'illegal operation on a directory', EINVAL: 'invalid argument',
  ENFILE: 'file table overflow', EMFILE: 'too many open files', ENOTTY: 'inappropriate ioctl for device',
  ETXTBSY: 'text file is busy', EFBIG: 'file too large', ENOSPC: 'no space left on device',
  ESPIPE: 'invalid seek', EROFS: 'read-only file system', EMLINK: 'too many links', EPIPE: 'broken pipe',
  ERANGE: 'result too large', ENAMETOOLONG: 'name too long', ENOSYS: 'function not implemented',
  ENOTEMPTY: 'directory not empty', ELOOP: 'too many symbolic links encountered',
  ENOTSUP: 'operation not supported on socket', ETIMEDOUT: 'connection timed out',
  EADDRINUSE: 'address already in use', EADDRNOTAVAIL: 'address not available', ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by peer', ENETUNREACH: 'network is unreachable', ENOTCONN: 'socket is not connected',
  EAFNOSUPPORT: 'address family not supported', EISCONN: 'socket is already connected', ENOTSOCK: 'socket operation on non-socket',
  EPROTOTYPE: 'protocol wrong type for socket', EALREADY: 'connection already in progress',
};

export interface NodeSysError extends Error {
  errno: number;
  code: string;
  syscall: string;
  path?: string;
  dest?: string;
}

/** A Node-style system error for `errno` (positive, as the kernel reports it). */
export function uvError(errno: number, syscall: string, path?: string, dest?: string): NodeSysError {
  const code = errnoName(errno);
  let msg = `${code}: ${UV[code] ?? 'unknown error'}, ${syscall}`;
  if (path !== undefined) msg += ` '${path}'`;
  if (dest !== undefined) msg += ` -> '${dest}'`;
  const e = new Error(msg) as NodeSysError;
  e.errno = -errno;
  e.code = code;
  e.syscall = syscall;
  if (path !== undefined) e.path = path;
  if (dest !== undefined) e.dest = dest;
  return e;
}

/**
 * A socket error as Node's net reports it: `connect ECONNREFUSED 127.0.0.1:80`,
 * `write EPIPE` (no description), but `listen EADDRINUSE: address already in
 * use :::80`; with address and port (or the unix path) as properties.
 */
export function netError(errno: number, syscall: string, address?: string, port?: number): NodeSysError & { address?: string; port?: number } {
  const code = errnoName(errno);
  const where = address === undefined ? '' : port === undefined || port < 0 ? ` ${address}` : ` ${address}:${port}`;
  const msg = syscall === 'listen' ? `${syscall} ${code}: ${UV[code] ?? 'unknown error'}${where}` : `${syscall} ${code}${where}`;
  const e = new Error(msg) as NodeSysError & { address?: string; port?: number };
  e.errno = -errno;
  e.code = code;
  e.syscall = syscall;
  if (address !== undefined) e.address = address;
  if (port !== undefined && port >= 0) e.port = port;
  return e;
}

/** Run a syscall; a SysError becomes the Node-style error, anything else passes through. */
export function uv<T>(syscall: string, fn: () => T, path?: string, dest?: string): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof SysError) throw uvError(e.errno, syscall, path, dest);
    throw e;
  }
}

/** Node's internal errors: `TypeError [ERR_X]: message` with a `code`. */
export function nodeError<E extends ErrorConstructor>(Base: E, code: string, message: string): Error & { code: string } {
  const e = new Base(message) as Error & { code: string };
  e.code = code;
  Object.defineProperty(e, 'name', { value: `${Base.name} [${code}]`, configurable: true, writable: true });
  void e.stack; // fix the stack's first line with the bracketed name, as Node does
  Object.defineProperty(e, 'name', { value: Base.name, configurable: true, writable: true });
  return e;
}

export const invalidArgType = (name: string, expected: string, actual: unknown): Error =>
  nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "${name}" argument must be ${expected}. Received ${describe(actual)}`);

function describe(v: unknown): string {
  if (v == null) return String(v);
  if (typeof v === 'function') return `function ${v.name}`;
  if (typeof v === 'object') return v.constructor?.name ? `an instance of ${v.constructor.name}` : 'an object';
  let s = String(v);
  if (s.length > 28) s = s.slice(0, 25) + '...';
  return `type ${typeof v} (${typeof v === 'string' ? `'${s}'` : s})`;
}

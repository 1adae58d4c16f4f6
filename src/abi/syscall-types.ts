// The syscall signature table: for each syscall of abi/syscalls.ts, the
// arguments it takes (in wire order) and the value it answers. Types only,
// nothing at run time. As xv6 generates usys.S from one list, the three sides
// of the ABI are checked against this one table by the compiler:
//   - processes: SyscallClient.call (user/syscall-client.ts) and so Sys (user/sys.ts);
//   - the host: Machine.syscall and UserFiles.syscall (host/), through AsyncSyscall;
//   - the kernel: each handler is a Handler<name> (kernel/syscall.ts), whose
//     argument readers (kernel/sys/args.ts) accept only an index whose type
//     here is the one they read, and whose return must be the result here.
// A changed argument type or count fails to compile on every side that uses
// it (test/abi/syscall-types.typecheck.ts keeps that true).
//
// The wire stays what it was (abi/codec.ts): positional values, checked by
// the kernel at run time, since a process may send anything.

import type { AgentOps } from './agent-sys.js';
import type { AosOps } from './aos.js';
import type { Value } from './codec.js';
import type { HttpRequest, HttpResponse } from './http.js';
import type { SockAddr } from './socket.js';
import type { SpawnRequest } from './spawn.js';
import type { Stat, StatFs } from './stat.js';
import type { SyscallName } from './syscalls.js';

/** A directory entry as getdents sends it: [name, ino, d_type]. */
export type Dirent = [name: string, ino: number, type: number];

/** uname(2)'s fields. */
export type Utsname = {
  sysname: string;
  nodename: string;
  release: string;
  version: string;
  machine: string;
};

/** A named snapshot, as the snapshot syscall reports it. */
export interface SnapshotRecord {
  name: string;
  bytes: number;
  mtimeMs: number;
}

/** Commands linked into /usr/local/bin by the software syscall, and what went wrong on the way. */
export interface SoftwareLinks {
  linked: string[];
  warnings: string[];
}

/** One link in /usr/local/bin: the command and where it points ('' when not a link). */
export interface SoftwareLink {
  command: string;
  target: string;
}

/** The operations of snapshot(op, ...): what each takes after `op` and answers. */
export interface SnapshotOps {
  create: { args: [name: string]; result: SnapshotRecord };
  list: { args: []; result: SnapshotRecord[] };
  delete: { args: [name: string]; result: 0 };
  /** Write snapshot `name` to the file `path` (in the VM); answers its size. */
  export: { args: [name: string, path: string]; result: number };
  /** Read the file `path` (in the VM) as snapshot `name`. */
  import: { args: [path: string, name: string]; result: SnapshotRecord };
  /** Never answers the caller: every process stops. */
  restore: { args: [name: string]; result: 0 };
}

/** The operations of software(op, ...), the kernel end of agentos-software. */
export interface SoftwareOps {
  link: { args: [path: string]; result: SoftwareLinks };
  unlink: { args: [name: string]; result: string[] };
  list: { args: []; result: SoftwareLink[] };
  install: { args: [staging: string, upgrade: number]; result: SoftwareLinks & { name: string; version: string } };
  upgrade: { args: [name: string, version: string]; result: SoftwareLinks };
}

/** A multiplexed syscall's arguments: [op, ...that op's] for each op; its result: any op's. */
type OpArgs<T> = { [O in keyof T]: T[O] extends { args: infer A extends unknown[] } ? [op: O, ...A] : never }[keyof T];
type OpResult<T> = { [O in keyof T]: T[O] extends { result: infer R } ? R : never }[keyof T];

/** A time in milliseconds since the epoch, or null for "now". */
type TimeOrNow = number | null;

export interface SyscallSignatures {
  // files; a trailing `dirfd` makes the call its *at() variant (AT_FDCWD when absent)
  open: { args: [path: string, flags?: number, mode?: number, dirfd?: number]; result: number };
  close: { args: [fd: number]; result: 0 };
  /** `more`: the next piece of one read larger than the channel, which never waits (kernel/sys/file.ts). */
  read: { args: [fd: number, len: number, more?: number]; result: Uint8Array };
  pread: { args: [fd: number, len: number, pos: number]; result: Uint8Array };
  write: { args: [fd: number, data: Uint8Array]; result: number };
  pwrite: { args: [fd: number, data: Uint8Array, pos: number]; result: number };
  lseek: { args: [fd: number, offset: number, whence: number]; result: number };
  fstat: { args: [fd: number]; result: Stat };
  stat: { args: [path: string, dirfd?: number]; result: Stat };
  lstat: { args: [path: string, dirfd?: number]; result: Stat };
  /** The next `max` entries (default 1024); [] at the end. */
  getdents: { args: [fd: number, max?: number]; result: Dirent[] };
  mkdir: { args: [path: string, mode?: number, dirfd?: number]; result: 0 };
  mknod: { args: [path: string, mode: number, rdev?: number, dirfd?: number]; result: 0 };
  symlink: { args: [target: string, path: string, dirfd?: number]; result: 0 };
  readlink: { args: [path: string, dirfd?: number]; result: string };
  link: { args: [oldPath: string, newPath: string, oldDirfd?: number, newDirfd?: number]; result: 0 };
  unlink: { args: [path: string, dirfd?: number]; result: 0 };
  rmdir: { args: [path: string, dirfd?: number]; result: 0 };
  rename: { args: [oldPath: string, newPath: string, oldDirfd?: number, newDirfd?: number]; result: 0 };
  chmod: { args: [path: string, mode: number, dirfd?: number]; result: 0 };
  fchmod: { args: [fd: number, mode: number]; result: 0 };
  chown: { args: [path: string, uid: number, gid: number, dirfd?: number]; result: 0 };
  lchown: { args: [path: string, uid: number, gid: number, dirfd?: number]; result: 0 };
  fchown: { args: [fd: number, uid: number, gid: number]; result: 0 };
  /** `follow`: false acts on a symbolic link itself. */
  utimes: { args: [path: string, atimeMs: TimeOrNow, mtimeMs: TimeOrNow, follow?: boolean, dirfd?: number]; result: 0 };
  truncate: { args: [path: string, len: number]; result: 0 };
  ftruncate: { args: [fd: number, len: number]; result: 0 };
  access: { args: [path: string, mode?: number, dirfd?: number]; result: 0 };
  chdir: { args: [path: string]; result: 0 };
  fchdir: { args: [fd: number]; result: 0 };
  getcwd: { args: []; result: string };
  dup: { args: [fd: number]; result: number };
  /** With flags (O_CLOEXEC): dup3. */
  dup2: { args: [oldfd: number, newfd: number, flags?: number]; result: number };
  fcntl: { args: [fd: number, cmd: number, arg?: number]; result: number };
  /** pipe2(flags) → [readFd, writeFd]. */
  pipe: { args: [flags?: number]; result: [readFd: number, writeFd: number] };
  statfs: { args: [path: string]; result: StatFs };
  umask: { args: [mask: number]; result: number };
  isatty: { args: [fd: number]; result: boolean };
  /** A device control request (abi/termios.ts): what it takes and answers depend on the request. */
  ioctl: { args: [fd: number, request: number, arg?: Value]; result: Value };
  /** [[fd, events], ...] → [[fd, revents], ...] for the ready fds. */
  poll: { args: [fds: [fd: number, events: number][], timeoutMs?: number]; result: [fd: number, revents: number][] };
  realpath: { args: [path: string]; result: string };
  // processes
  getpid: { args: []; result: number };
  getppid: { args: []; result: number };
  getpgid: { args: [pid?: number]; result: number };
  setpgid: { args: [pid: number, pgid: number]; result: 0 };
  getsid: { args: [pid?: number]; result: number };
  setsid: { args: []; result: number };
  getuid: { args: []; result: number };
  getgid: { args: []; result: number };
  geteuid: { args: []; result: number };
  getegid: { args: []; result: number };
  spawn: { args: [request: SpawnRequest]; result: number };
  /** spawn with execvp's search of `search` (a PATH) for a `request.path` without '/' → [pid, the path that ran]. */
  spawnp: { args: [request: SpawnRequest, search: string]; result: [pid: number, path: string] };
  execve: { args: [path: string, argv: string[], env: string[]]; result: 0 };
  exit: { args: [status?: number]; result: 0 };
  /** → [pid, status]; [0, 0] with WNOHANG when nothing has changed. */
  waitpid: { args: [pid?: number, options?: number]; result: [pid: number, status: number] };
  kill: { args: [pid: number, sig: number]; result: 0 };
  /** → the old disposition (SIG_DFL, SIG_IGN or SIG_HANDLE). */
  sigaction: { args: [sig: number, disposition: number]; result: number };
  /** → the caught signals to run handlers for (a bitmask). */
  sigtake: { args: []; result: number };
  /** how: 0 block, 1 unblock, 2 set; → the old mask. */
  sigprocmask: { args: [how: number, mask: number]; result: number };
  alarm: { args: [seconds: number]; result: number };
  nanosleep: { args: [ms: number]; result: 0 };
  uname: { args: []; result: Utsname };
  sync: { args: []; result: 0 };
  setuid: { args: [uid: number]; result: 0 };
  setgid: { args: [gid: number]; result: 0 };
  mount: { args: [target: string, fstype: string]; result: 0 };
  software: { args: OpArgs<SoftwareOps>; result: OpResult<SoftwareOps> };
  fsync: { args: [fd: number]; result: 0 };
  fdatasync: { args: [fd: number]; result: 0 };
  futimes: { args: [fd: number, atimeMs: TimeOrNow, mtimeMs: TimeOrNow]; result: 0 };
  snapshot: { args: OpArgs<SnapshotOps>; result: OpResult<SnapshotOps> };
  // network
  http: { args: [request: HttpRequest]; result: HttpResponse };
  // files, appended
  /** LOCK_SH 1, LOCK_EX 2, LOCK_NB 4, LOCK_UN 8. */
  flock: { args: [fd: number, op: number]; result: 0 };
  // agents
  agent: { args: OpArgs<AgentOps>; result: OpResult<AgentOps> };
  // sockets (abi/socket.ts): type may carry SOCK_NONBLOCK | SOCK_CLOEXEC
  socket: { args: [domain: number, type: number, protocol?: number]; result: number };
  socketpair: { args: [domain: number, type: number, protocol?: number]; result: [fd0: number, fd1: number] };
  bind: { args: [fd: number, addr: SockAddr]; result: 0 };
  listen: { args: [fd: number, backlog?: number]; result: 0 };
  /** accept4(fd, SOCK_NONBLOCK | SOCK_CLOEXEC) → [the new fd, the peer's address]. */
  accept: { args: [fd: number, flags?: number]; result: [fd: number, peer: SockAddr] };
  connect: { args: [fd: number, addr: SockAddr]; result: 0 };
  /** send(2) without `addr`; MSG_DONTWAIT, MSG_NOSIGNAL. → bytes sent. */
  sendto: { args: [fd: number, data: Uint8Array, flags?: number, addr?: SockAddr | null]; result: number };
  /** recv(2) with the sender: a datagram's, or a stream's peer (null when none). MSG_PEEK, MSG_DONTWAIT. */
  recvfrom: { args: [fd: number, len: number, flags?: number]; result: [data: Uint8Array, from: SockAddr | null] };
  shutdown: { args: [fd: number, how: number]; result: 0 };
  getsockname: { args: [fd: number]; result: SockAddr };
  getpeername: { args: [fd: number]; result: SockAddr };
  /** Integer options only (abi/socket.ts names them). */
  setsockopt: { args: [fd: number, level: number, name: number, value: number]; result: 0 };
  getsockopt: { args: [fd: number, level: number, name: number]; result: number };
  // /aos
  aosctl: { args: OpArgs<AosOps>; result: OpResult<AosOps> };
}

export type SyscallArgs<N extends SyscallName> = SyscallSignatures[N]['args'];
export type SyscallResult<N extends SyscallName> = SyscallSignatures[N]['result'];

/** A syscall made by a process: blocks until the kernel answers (user/syscall-client.ts). */
export type SyncSyscall = <N extends SyscallName>(name: N, ...args: SyscallArgs<N>) => SyscallResult<N>;

/** A syscall made by the host: the kernel's answer as a promise (host/machine.ts, host/user-files.ts). */
export type AsyncSyscall = <N extends SyscallName>(name: N, ...args: SyscallArgs<N>) => Promise<SyscallResult<N>>;

// ---- checks, at compile time ---------------------------------------------

/** Whether values of T cross the channel as themselves (abi/codec.ts): no functions, maps, classes but Uint8Array. */
type Wire<T> = T extends Value
  ? true
  : T extends readonly (infer E)[]
    ? Wire<E>
    : T extends (...a: never[]) => unknown
      ? false
      : T extends object
        ? false extends { [K in keyof T]-?: Wire<T[K]> }[keyof T]
          ? false
          : true
        : false;

type Assert<T extends true> = T;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Every syscall number has a signature, and every signature a number. */
export type CheckNames = Assert<Same<keyof SyscallSignatures, SyscallName>>;
/** Every argument and result is something the codec carries as it is. */
export type CheckWire = Assert<Wire<SyscallSignatures>>;

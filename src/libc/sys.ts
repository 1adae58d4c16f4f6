// Typed syscall wrappers: the agentOS "libc" that every runtime builds on.
// Errors are thrown as SysError (errno + name); reads and writes of any size
// are chunked to fit the channel.

import { IO_CHUNK } from '../abi/channel.js';
import { concatBytes } from '../abi/bytes.js';
import type { AgentOps } from '../abi/agent-sys.js';
import type { Value } from '../abi/codec.js';
import type { AosOps } from '../abi/aos.js';
import type { HttpRequest, HttpResponse } from '../abi/http.js';
import { SysError } from '../abi/errno.js';
import { AT_FDCWD, O_CREAT, O_RDONLY, O_TRUNC, O_WRONLY } from '../abi/fcntl.js';
import type { SockAddr } from '../abi/socket.js';
import type { SpawnRequest } from '../abi/spawn.js';
import type { DirEntry, Stat, StatFs } from '../abi/stat.js';
import type { SnapshotOps, SoftwareOps, SyscallArgs, Utsname } from '../abi/syscall-types.js';
import type { SyscallClient } from './syscall-client.js';

const enc = new TextEncoder();
const toBytes = (d: Uint8Array | string): Uint8Array => (typeof d === 'string' ? enc.encode(d) : d);

/** Thrown by a successful execve: the old program must unwind; its pid now runs the new image. */
export class ExecReplaced extends Error {
  constructor() {
    super('execve: this program has been replaced');
  }
}

export class Sys {
  /**
   * Calls that closed or replaced fd 0 (close, dup2: the only ways it
   * changes): a caller that put its own file there knows, without a syscall,
   * whether it still is (the exec shell's /dev/null stdin).
   */
  stdinChanges = 0;

  constructor(readonly raw: SyscallClient) {}

  // files
  open(path: string, flags = O_RDONLY, mode = 0o666, dirfd = AT_FDCWD): number {
    return this.raw.call('open', path, flags, mode, dirfd);
  }
  close(fd: number): void {
    if (fd === 0) this.stdinChanges++;
    this.raw.call('close', fd);
  }
  /**
   * read(2): up to `len` bytes; fewer only at end of file, or from a pipe or
   * terminal (what it holds now); empty at EOF. Past one channel's worth it
   * takes several calls, the later ones never waiting (the kernel's `more`).
   */
  read(fd: number, len = IO_CHUNK): Uint8Array {
    const first = this.raw.call('read', fd, Math.min(len, IO_CHUNK));
    if (len <= IO_CHUNK || first.byteLength < IO_CHUNK) return first;
    return this.readOn(first, len, (n) => this.raw.call('read', fd, n, 1));
  }
  /** pread(2): as read, at `pos` (files only, so it never waits). */
  pread(fd: number, len: number, pos: number): Uint8Array {
    const first = this.raw.call('pread', fd, Math.min(len, IO_CHUNK), pos);
    if (len <= IO_CHUNK || first.byteLength < IO_CHUNK) return first;
    let at = pos + first.byteLength;
    return this.readOn(first, len, (n) => {
      const b = this.raw.call('pread', fd, n, at);
      at += b.byteLength;
      return b;
    });
  }
  /** The rest of a large read after a full first chunk: until `len`, a short chunk, or an error (reported by the next call, as read(2) does). */
  private readOn(first: Uint8Array, len: number, next: (n: number) => Uint8Array): Uint8Array {
    const parts = [first];
    for (let got = first.byteLength; got < len; ) {
      const want = Math.min(len - got, IO_CHUNK);
      let b: Uint8Array;
      try {
        b = next(want);
      } catch (e) {
        if (e instanceof SysError) break;
        throw e;
      }
      if (b.byteLength) parts.push(b);
      got += b.byteLength;
      if (b.byteLength < want) break;
    }
    return concatBytes(parts);
  }
  /** write(2): everything, in channel-sized calls; fewer bytes only when one of them wrote less or failed after some (the next call reports the error). */
  write(fd: number, data: Uint8Array | string): number {
    const b = toBytes(data);
    if (b.byteLength <= IO_CHUNK) return this.raw.call('write', fd, b);
    return this.writeOn(b, (chunk) => this.raw.call('write', fd, chunk));
  }
  /** pwrite(2): as write, at `pos`. */
  pwrite(fd: number, data: Uint8Array | string, pos: number): number {
    const b = toBytes(data);
    if (b.byteLength <= IO_CHUNK) return this.raw.call('pwrite', fd, b, pos);
    return this.writeOn(b, (chunk, done) => this.raw.call('pwrite', fd, chunk, pos + done));
  }
  private writeOn(b: Uint8Array, put: (chunk: Uint8Array, done: number) => number): number {
    let done = 0;
    while (done < b.byteLength) {
      const chunk = b.subarray(done, done + IO_CHUNK);
      let n: number;
      try {
        n = put(chunk, done);
      } catch (e) {
        if (done > 0 && e instanceof SysError) break;
        throw e;
      }
      done += n;
      if (n < chunk.byteLength) break;
    }
    return done;
  }
  /** Write everything, in chunks. */
  writeAll(fd: number, data: Uint8Array | string): void {
    const b = toBytes(data);
    for (let off = 0; off < b.byteLength; ) off += this.write(fd, b.subarray(off));
  }
  /** Read until EOF. */
  readAll(fd: number): Uint8Array {
    const parts: Uint8Array[] = [];
    for (let b = this.read(fd); b.byteLength; b = this.read(fd)) parts.push(b);
    return concatBytes(parts);
  }
  lseek(fd: number, offset: number, whence: number): number {
    return this.raw.call('lseek', fd, offset, whence);
  }
  fstat(fd: number): Stat {
    return this.raw.call('fstat', fd);
  }
  stat(path: string): Stat {
    return this.raw.call('stat', path);
  }
  lstat(path: string): Stat {
    return this.raw.call('lstat', path);
  }
  readdir(path: string): DirEntry[] {
    const fd = this.open(path, 0o200000 /* O_DIRECTORY */);
    try {
      const out: DirEntry[] = [];
      for (;;) {
        const batch = this.raw.call('getdents', fd);
        if (batch.length === 0) return out;
        for (const [name, ino, type] of batch) out.push({ name, ino, type });
      }
    } finally {
      this.close(fd);
    }
  }
  mkdir(path: string, mode = 0o777): void {
    this.raw.call('mkdir', path, mode);
  }
  mknod(path: string, mode: number, rdev = 0): void {
    this.raw.call('mknod', path, mode, rdev);
  }
  symlink(target: string, path: string): void {
    this.raw.call('symlink', target, path);
  }
  readlink(path: string): string {
    return this.raw.call('readlink', path);
  }
  link(oldPath: string, newPath: string): void {
    this.raw.call('link', oldPath, newPath);
  }
  unlink(path: string): void {
    this.raw.call('unlink', path);
  }
  rmdir(path: string): void {
    this.raw.call('rmdir', path);
  }
  rename(oldPath: string, newPath: string): void {
    this.raw.call('rename', oldPath, newPath);
  }
  chmod(path: string, mode: number): void {
    this.raw.call('chmod', path, mode);
  }
  chown(path: string, uid: number, gid: number): void {
    this.raw.call('chown', path, uid, gid);
  }
  /** chown of a symbolic link itself. */
  lchown(path: string, uid: number, gid: number): void {
    this.raw.call('lchown', path, uid, gid);
  }
  utimes(path: string, atimeMs: number | null, mtimeMs: number | null): void {
    this.raw.call('utimes', path, atimeMs, mtimeMs);
  }
  futimes(fd: number, atimeMs: number | null, mtimeMs: number | null): void {
    this.raw.call('futimes', fd, atimeMs, mtimeMs);
  }
  fchmod(fd: number, mode: number): void {
    this.raw.call('fchmod', fd, mode);
  }
  fchown(fd: number, uid: number, gid: number): void {
    this.raw.call('fchown', fd, uid, gid);
  }
  truncate(path: string, len: number): void {
    this.raw.call('truncate', path, len);
  }
  ftruncate(fd: number, len: number): void {
    this.raw.call('ftruncate', fd, len);
  }
  access(path: string, mode = 0): void {
    this.raw.call('access', path, mode);
  }
  chdir(path: string): void {
    this.raw.call('chdir', path);
  }
  getcwd(): string {
    return this.raw.call('getcwd');
  }
  realpath(path: string): string {
    return this.raw.call('realpath', path);
  }
  statfs(path: string): StatFs {
    return this.raw.call('statfs', path);
  }
  dup(fd: number): number {
    return this.raw.call('dup', fd);
  }
  dup2(oldfd: number, newfd: number, flags = 0): number {
    if (newfd === 0) this.stdinChanges++;
    return this.raw.call('dup2', oldfd, newfd, flags);
  }
  fcntl(fd: number, cmd: number, arg = 0): number {
    return this.raw.call('fcntl', fd, cmd, arg);
  }
  /** flock(2): LOCK_SH 1, LOCK_EX 2, LOCK_NB 4, LOCK_UN 8; EAGAIN when LOCK_NB and held. */
  flock(fd: number, op: number): void {
    this.raw.call('flock', fd, op);
  }
  pipe(flags = 0): [number, number] {
    return this.raw.call('pipe', flags);
  }
  isatty(fd: number): boolean {
    return this.raw.call('isatty', fd);
  }
  /** A device control request (abi/termios.ts): what comes back depends on the request. */
  ioctl(fd: number, request: number, arg: Value = null): Value {
    return this.raw.call('ioctl', fd, request, arg);
  }
  poll(fds: [number, number][], timeoutMs = -1): [number, number][] {
    return this.raw.call('poll', fds, timeoutMs);
  }
  umask(mask: number): number {
    return this.raw.call('umask', mask);
  }
  readFile(path: string): Uint8Array {
    const fd = this.open(path);
    try {
      return this.readAll(fd);
    } finally {
      this.close(fd);
    }
  }
  writeFile(path: string, data: Uint8Array | string, mode = 0o666): void {
    const fd = this.open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
    try {
      this.writeAll(fd, data);
    } finally {
      this.close(fd);
    }
  }

  // processes
  getpid(): number {
    return this.raw.call('getpid');
  }
  getppid(): number {
    return this.raw.call('getppid');
  }
  getpgid(pid = 0): number {
    return this.raw.call('getpgid', pid);
  }
  setpgid(pid: number, pgid: number): void {
    this.raw.call('setpgid', pid, pgid);
  }
  getsid(pid = 0): number {
    return this.raw.call('getsid', pid);
  }
  setsid(): number {
    return this.raw.call('setsid');
  }
  getuid(): number {
    return this.raw.call('getuid');
  }
  getgid(): number {
    return this.raw.call('getgid');
  }
  /** The effective user: root while a set-user-ID program runs, whoever ran it in getuid(). */
  geteuid(): number {
    return this.raw.call('geteuid');
  }
  getegid(): number {
    return this.raw.call('getegid');
  }
  setuid(uid: number): void {
    this.raw.call('setuid', uid);
  }
  setgid(gid: number): void {
    this.raw.call('setgid', gid);
  }
  mount(target: string, fstype: string): void {
    this.raw.call('mount', target, fstype);
  }
  spawn(o: SpawnRequest): number {
    return this.raw.call('spawn', o);
  }
  /** spawn, `o.path` searched for on `search` (a PATH) as execvp does → [pid, the path that ran]. */
  spawnp(o: SpawnRequest, search: string): [pid: number, path: string] {
    return this.raw.call('spawnp', o, search);
  }
  /** Replace this program. On success the new image runs elsewhere and this one unwinds (ExecReplaced). */
  execve(path: string, argv: string[], env: string[]): never {
    this.raw.call('execve', path, argv, env);
    this.raw.invalidate();
    throw new ExecReplaced();
  }
  /** waitpid → [pid, status]; [0, 0] with WNOHANG when nothing has changed. */
  waitpid(pid = -1, options = 0): [number, number] {
    return this.raw.call('waitpid', pid, options);
  }
  kill(pid: number, sig: number): void {
    this.raw.call('kill', pid, sig);
  }
  sigaction(sig: number, disposition: number): number {
    return this.raw.call('sigaction', sig, disposition);
  }
  sigprocmask(how: number, mask: number): number {
    return this.raw.call('sigprocmask', how, mask);
  }
  alarm(seconds: number): number {
    return this.raw.call('alarm', seconds);
  }
  /** Sleep in the kernel; interrupted by caught signals (EINTR). */
  sleep(ms: number): void {
    this.raw.call('nanosleep', ms);
  }
  /** Wait until every write so far is durable (a persistent VM's layer). */
  sync(): void {
    this.raw.call('sync');
  }

  fsync(fd: number): void {
    this.raw.call('fsync', fd);
  }

  uname(): Utsname {
    return this.raw.call('uname');
  }

  /** software(op, ...): the kernel end of agentos-software; what each op takes and answers is SoftwareOps. */
  software<O extends keyof SoftwareOps>(op: O, ...args: SoftwareOps[O]['args']): SoftwareOps[O]['result'] {
    // The compiler cannot pair a generic op with its arguments in the table's union by itself.
    return this.raw.call('software', ...([op, ...args] as unknown as SyscallArgs<'software'>)) as SoftwareOps[O]['result'];
  }

  /** aosctl(op, ...): /aos's calls that are not file I/O (capabilities, intents, questions); AosOps says what each takes. */
  aosctl<O extends keyof AosOps>(op: O, ...args: AosOps[O]['args']): AosOps[O]['result'] {
    return this.raw.call('aosctl', ...([op, ...args] as unknown as SyscallArgs<'aosctl'>)) as AosOps[O]['result'];
  }

  /** snapshot(op, ...): the kernel end of `agentos snapshot`; what each op takes and answers is SnapshotOps. */
  snapshot<O extends keyof SnapshotOps>(op: O, ...args: SnapshotOps[O]['args']): SnapshotOps[O]['result'] {
    return this.raw.call('snapshot', ...([op, ...args] as unknown as SyscallArgs<'snapshot'>)) as SnapshotOps[O]['result'];
  }

  /** agent(op, ...): the kernel's model service (abi/agent-sys.ts says what each op takes and answers). */
  agent<O extends keyof AgentOps>(op: O, ...args: AgentOps[O]['args']): AgentOps[O]['result'] {
    return this.raw.call('agent', ...([op, ...args] as unknown as SyscallArgs<'agent'>)) as AgentOps[O]['result'];
  }

  /** One HTTP(S) request through the kernel (and the VM's network policy); the body is an fd to read. */
  http(req: HttpRequest): HttpResponse {
    return this.raw.call('http', req);
  }

  // sockets (abi/socket.ts): addresses are { family, address, port }
  socket(domain: number, type: number, protocol = 0): number {
    return this.raw.call('socket', domain, type, protocol);
  }
  socketpair(domain: number, type: number): [number, number] {
    return this.raw.call('socketpair', domain, type);
  }
  bind(fd: number, addr: SockAddr): void {
    this.raw.call('bind', fd, addr);
  }
  listen(fd: number, backlog = 128): void {
    this.raw.call('listen', fd, backlog);
  }
  /** accept4: [the connection's fd, the peer's address]. */
  accept(fd: number, flags = 0): [number, SockAddr] {
    return this.raw.call('accept', fd, flags);
  }
  connect(fd: number, addr: SockAddr): void {
    this.raw.call('connect', fd, addr);
  }
  /** send/sendto: on a stream every byte (in channel-sized calls), a datagram in one. */
  sendto(fd: number, data: Uint8Array | string, flags = 0, addr: SockAddr | null = null): number {
    const b = toBytes(data);
    if (b.byteLength <= IO_CHUNK || addr) return this.raw.call('sendto', fd, b, flags, addr);
    return this.writeOn(b, (chunk) => this.raw.call('sendto', fd, chunk, flags, null));
  }
  /** recv/recvfrom: [data, the sender or peer]. */
  recvfrom(fd: number, len = IO_CHUNK, flags = 0): [Uint8Array, SockAddr | null] {
    return this.raw.call('recvfrom', fd, Math.min(len, IO_CHUNK), flags);
  }
  shutdown(fd: number, how: number): void {
    this.raw.call('shutdown', fd, how);
  }
  getsockname(fd: number): SockAddr {
    return this.raw.call('getsockname', fd);
  }
  getpeername(fd: number): SockAddr {
    return this.raw.call('getpeername', fd);
  }
  setsockopt(fd: number, level: number, name: number, value: number): void {
    this.raw.call('setsockopt', fd, level, name, value);
  }
  getsockopt(fd: number, level: number, name: number): number {
    return this.raw.call('getsockopt', fd, level, name);
  }
}

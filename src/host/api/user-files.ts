// The VM's files as its user sees them, for host callers that act for someone
// else: AgentVM's readFile/writeFile/listDirectory (so the MCP file tools and
// BrowserVM) and the playground's file tree. Every call is a syscall the
// kernel makes as the VM user (Kernel.userCall): uid 1000 with its permissions,
// and the policy — hidden paths ENOENT, read-only EROFS, `ask` asks — checked
// where a guest process's are, in the kernel. The host's own, exempt calls
// are Machine's.

import type { Remote } from 'comlink';
import { concatBytes } from '../../abi/bytes.js';
import type { Value } from '../../abi/codec.js';
import { Errno, SysError } from '../../abi/errno.js';
import { O_CREAT, O_NONBLOCK, O_RDONLY, O_TRUNC, O_WRONLY } from '../../abi/fcntl.js';
import { isDir, isReg, type DirEntry, type Stat } from '../../abi/stat.js';
import type { SyscallArgs, SyscallResult } from '../../abi/syscall-types.js';
import type { SyscallName } from '../../abi/syscalls.js';
import type { KernelService } from '../worker/kernel-service.js';
import { readDirectory } from './read-directory.js';

/** Bytes per call, copied: a view would be cloned to the kernel with its whole buffer. */
const CHUNK = 256 * 1024;
const enc = new TextEncoder();

export class UserFiles {
  constructor(private readonly service: Remote<KernelService>) {}

  /** A file syscall as the VM user. Throws SysError. */
  async syscall<N extends SyscallName>(name: N, ...args: SyscallArgs<N>): Promise<SyscallResult<N>> {
    // Every argument type of the table is a codec value (CheckWire in abi/syscall-types.ts).
    const r = await this.service.userSyscall(name, args as readonly Value[] as Value[]);
    if (!r.ok) throw new SysError(r.errno, r.detail ?? `${name}${typeof args[0] === 'string' ? ` ${args[0]}` : ''}`);
    return r.value as SyscallResult<N>;
  }

  /** A regular file's bytes (a FIFO or a device would never end: EINVAL; a directory: EISDIR). */
  readFile(path: string): Promise<Uint8Array> {
    return named(path, () => this.read(path));
  }

  /**
   * Create or replace regular file `path`. A new file gets `mode` (default
   * 0644) and the VM user as owner; an existing one keeps its owner, and its
   * mode unless `mode` is given (chmod: the owner's right).
   */
  writeFile(path: string, data: Uint8Array | string, mode?: number): Promise<void> {
    return named(path, () => this.write(path, data, mode));
  }

  readdir(path: string): Promise<DirEntry[]> {
    return named(path, () => readDirectory((name, ...args) => this.syscall(name, ...args), path));
  }

  stat(path: string): Promise<Stat> {
    return named(path, () => this.syscall('stat', path));
  }

  private async read(path: string): Promise<Uint8Array> {
    // O_NONBLOCK: opening a FIFO the guest put there must not wait for a writer.
    const fd = await this.syscall('open', path, O_RDONLY | O_NONBLOCK);
    try {
      await this.regular(fd, path);
      const parts: Uint8Array[] = [];
      for (;;) {
        const b = await this.syscall('read', fd, CHUNK);
        if (b.byteLength === 0) return concatBytes(parts);
        parts.push(b);
      }
    } finally {
      await this.syscall('close', fd);
    }
  }

  private async write(path: string, data: Uint8Array | string, mode?: number): Promise<void> {
    const bytes = typeof data === 'string' ? enc.encode(data) : data;
    const fd = await this.syscall('open', path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK, mode ?? 0o644);
    try {
      const st = await this.regular(fd, path);
      if (mode !== undefined && (st.mode & 0o7777) !== (mode & 0o7777)) await this.syscall('fchmod', fd, mode & 0o7777);
      for (let off = 0; off < bytes.byteLength; ) {
        off += await this.syscall('write', fd, new Uint8Array(bytes.subarray(off, off + CHUNK)));
      }
    } finally {
      await this.syscall('close', fd);
    }
  }


  private async regular(fd: number, path: string): Promise<Stat> {
    const st = (await this.syscall('fstat', fd)) as unknown as Stat;
    if (isDir(st.mode)) throw new SysError(Errno.EISDIR, path);
    if (!isReg(st.mode)) throw new SysError(Errno.EINVAL, `${path}: not a regular file`);
    return st;
  }
}

/** Errors name the path, as a Unix tool's do, unless the kernel's detail already says more about it. */
async function named<T>(path: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (!(e instanceof SysError) || e.detail?.includes(path) || e.detail?.includes('policy')) throw e;
    throw new SysError(e.errno, path);
  }
}

// A CaseTarget (test/kernel/vfs-cases-runner.ts) straight on a Vfs, with a
// small in-test fd table and pipe standing in for the process layer.

import { Errno, SysError } from '../../../src/abi/errno.js';
import { O_DIRECTORY, O_RDONLY, O_WRONLY } from '../../../src/abi/fcntl.js';
import { S_IFIFO } from '../../../src/abi/stat.js';
import { OpenFile } from '../../../src/kernel/file.js';
import { MemFs } from '../../../src/kernel/fs/memfs.js';
import { ROOT_CRED, Vfs } from '../../../src/kernel/vfs/vfs.js';
import type { Cred, FileOps, FileSystem, Inode } from '../../../src/kernel/vfs/types.js';
import { WaitQueue } from '../../../src/kernel/waitqueue.js';
import type { CaseStat, CaseTarget } from '../vfs-cases-runner.js';

/** A non-blocking byte queue: enough for the table's pipe and FIFO cases. */
class TestPipe {
  buf: number[] = [];
  ops(): FileOps {
    return {
      read: (f, len) => {
        if (!f.readable) throw new SysError(Errno.EBADF);
        return Uint8Array.from(this.buf.splice(0, len));
      },
      write: (f, data) => {
        if (!f.writable) throw new SysError(Errno.EBADF);
        this.buf.push(...data);
        return data.length;
      },
    };
  }
}

export interface VfsTargetOptions {
  /** The root filesystem; a fresh MemFs by default. */
  rootFs?: FileSystem;
  /** Create the scratch dir (mode 0777); false when the root fs already has it. Default true. */
  makeScratch?: boolean;
  /** Starting working directory (absolute); the scratch dir by default. */
  cwd?: string;
}

export class VfsTarget implements CaseTarget {
  readonly scratch = '/scratch';
  readonly vfs: Vfs;
  /** What mountFs()/mount() mounted, in order (to mount it again on another tree). */
  readonly mounted: { path: string; fs: FileSystem }[] = [];
  private cred: Cred = { ...ROOT_CRED };
  private cwd: Inode;
  private fds = new Map<number, OpenFile>();
  private fifos = new WeakMap<Inode, TestPipe>();
  private readonly pipefs = new MemFs();

  constructor(opts: VfsTargetOptions = {}) {
    this.vfs = new Vfs(opts.rootFs ?? new MemFs(), {
      openFifo: (inode) => {
        let p = this.fifos.get(inode);
        if (!p) this.fifos.set(inode, (p = new TestPipe()));
        return p.ops();
      },
    });
    const root = this.vfs.root();
    if (opts.makeScratch ?? true) {
      this.vfs.mkdir(ROOT_CRED, root, this.scratch, 0o777);
      this.vfs.chmod(ROOT_CRED, root, this.scratch, 0o777);
    }
    this.cwd = this.vfs.resolve(ROOT_CRED, root, opts.cwd ?? this.scratch);
  }

  /** Mount `fs` on the absolute path `path` (as root). */
  mountFs(path: string, fs: FileSystem): void {
    this.vfs.mount(ROOT_CRED, path, fs);
    this.mounted.push({ path, fs });
  }

  private alloc(f: OpenFile): number {
    let fd = 3;
    while (this.fds.has(fd)) fd++;
    this.fds.set(fd, f);
    return fd;
  }

  private get(fd: number): OpenFile {
    const f = this.fds.get(fd);
    if (!f) throw new SysError(Errno.EBADF);
    return f;
  }

  private toCaseStat(st: { mode: number; size: number; nlink: number; uid: number; gid: number; mtimeMs: number }): CaseStat {
    return { mode: st.mode, size: st.size, nlink: st.nlink, uid: st.uid, gid: st.gid, mtimeMs: st.mtimeMs };
  }

  open(path: string, flags: number, mode: number): number {
    const r = this.vfs.open(this.cred, this.cwd, path, flags, mode);
    if (r instanceof WaitQueue) throw new SysError(Errno.EAGAIN, 'would block');
    return this.alloc(r);
  }
  close(fd: number): void {
    this.get(fd).unref();
    this.fds.delete(fd);
  }
  read(fd: number, len: number): Uint8Array {
    const f = this.get(fd);
    if (!f.readable) throw new SysError(Errno.EBADF);
    const r = f.ops.read(f, len);
    if (r instanceof WaitQueue) throw new SysError(Errno.EAGAIN);
    return r.slice();
  }
  write(fd: number, data: Uint8Array): number {
    const f = this.get(fd);
    if (!f.writable) throw new SysError(Errno.EBADF);
    const r = f.ops.write(f, data);
    if (r instanceof WaitQueue) throw new SysError(Errno.EAGAIN);
    return r;
  }
  lseek(fd: number, offset: number, whence: number): number {
    const f = this.get(fd);
    if (!f.ops.seek) throw new SysError(Errno.ESPIPE);
    return f.ops.seek(f, offset, whence);
  }
  dup(fd: number): number {
    return this.alloc(this.get(fd).ref());
  }
  pipe(): [number, number] {
    const inode = this.pipefs.create(this.pipefs.root(), `pipe${Math.random()}`, S_IFIFO | 0o600, 0, this.cred);
    const p = new TestPipe();
    return [this.alloc(new OpenFile(inode, O_RDONLY, p.ops(), 'pipe:')), this.alloc(new OpenFile(inode, O_WRONLY, p.ops(), 'pipe:'))];
  }
  fstat(fd: number): CaseStat {
    return this.toCaseStat(this.vfs.fstat(this.get(fd).inode));
  }
  ftruncate(fd: number, len: number): void {
    this.vfs.ftruncate(this.cred, this.get(fd), len);
  }
  stat(path: string): CaseStat {
    return this.toCaseStat(this.vfs.stat(this.cred, this.cwd, path, true));
  }
  lstat(path: string): CaseStat {
    return this.toCaseStat(this.vfs.stat(this.cred, this.cwd, path, false));
  }
  mkdir(path: string, mode: number): void { this.vfs.mkdir(this.cred, this.cwd, path, mode); }
  rmdir(path: string): void { this.vfs.rmdir(this.cred, this.cwd, path); }
  unlink(path: string): void { this.vfs.unlink(this.cred, this.cwd, path); }
  rename(from: string, to: string): void { this.vfs.rename(this.cred, this.cwd, from, this.cwd, to); }
  link(from: string, to: string): void { this.vfs.link(this.cred, this.cwd, from, this.cwd, to); }
  symlink(target: string, path: string): void { this.vfs.symlink(this.cred, this.cwd, target, path); }
  readlink(path: string): string { return this.vfs.readlink(this.cred, this.cwd, path); }
  chmod(path: string, mode: number): void { this.vfs.chmod(this.cred, this.cwd, path, mode); }
  chown(path: string, uid: number, gid: number): void { this.vfs.chown(this.cred, this.cwd, path, uid, gid); }
  truncate(path: string, len: number): void { this.vfs.truncate(this.cred, this.cwd, path, len); }
  access(path: string, mode: number): void { this.vfs.access(this.cred, this.cwd, path, mode); }
  mknod(path: string, mode: number, dev: number): void { this.vfs.mknod(this.cred, this.cwd, path, mode, dev); }
  utimes(path: string, a: number | null, m: number | null): void { this.vfs.utimes(this.cred, this.cwd, path, a, m); }
  chdir(path: string): void { this.cwd = this.vfs.chdir(this.cred, this.cwd, path); }
  getcwd(): string { return this.vfs.pathOf(this.cwd); }
  readdir(path: string): string[] {
    const f = this.vfs.open(this.cred, this.cwd, path, O_RDONLY | O_DIRECTORY);
    if (f instanceof WaitQueue) throw new SysError(Errno.EAGAIN);
    try {
      return this.vfs.readdirOf(f).map((e) => e.name);
    } finally {
      f.unref();
    }
  }
  setUser(uid: number, gid: number): void {
    this.cred = { uid, gid, groups: [], pid: 2, umask: 0o022 };
  }
  mount(path: string): void {
    this.mountFs(`${this.scratch}/${path}`, new MemFs({ rootMode: 0o755 }));
  }
}

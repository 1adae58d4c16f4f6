// fscases all | one N: run the Linux-checked VFS errno table (test/kernel/vfs-cases.ts)
// through real syscalls. `all` runs each case in its own child process (so credentials
// and fd numbers start fresh, as on Linux) and prints one JSON line per case.
import type { AgentosApi } from '../../src/runtimes/js/api.js';
import type { Sys } from '../../src/libc/sys.js';
import { cases } from '../kernel/vfs-cases.js';
import { runCase, type CaseStat, type CaseTarget } from '../kernel/vfs-cases-runner.js';

const ROOT = '/tmp/vfs-cases';

class SysTarget implements CaseTarget {
  constructor(
    private readonly s: Sys,
    readonly scratch: string,
  ) {}
  private st(x: CaseStat): CaseStat {
    return { mode: x.mode, size: x.size, nlink: x.nlink, uid: x.uid, gid: x.gid, mtimeMs: x.mtimeMs };
  }
  open(path: string, flags: number, mode: number): number { return this.s.open(path, flags, mode); }
  close(fd: number): void { this.s.close(fd); }
  read(fd: number, len: number): Uint8Array { return this.s.read(fd, len); }
  write(fd: number, data: Uint8Array): number { return this.s.write(fd, data); }
  lseek(fd: number, offset: number, whence: number): number { return this.s.lseek(fd, offset, whence); }
  dup(fd: number): number { return this.s.dup(fd); }
  pipe(): [number, number] { return this.s.pipe(); }
  fstat(fd: number): CaseStat { return this.st(this.s.fstat(fd)); }
  ftruncate(fd: number, len: number): void { this.s.ftruncate(fd, len); }
  stat(path: string): CaseStat { return this.st(this.s.stat(path)); }
  lstat(path: string): CaseStat { return this.st(this.s.lstat(path)); }
  mkdir(path: string, mode: number): void { this.s.mkdir(path, mode); }
  rmdir(path: string): void { this.s.rmdir(path); }
  unlink(path: string): void { this.s.unlink(path); }
  rename(from: string, to: string): void { this.s.rename(from, to); }
  link(from: string, to: string): void { this.s.link(from, to); }
  symlink(target: string, path: string): void { this.s.symlink(target, path); }
  readlink(path: string): string { return this.s.readlink(path); }
  chmod(path: string, mode: number): void { this.s.chmod(path, mode); }
  chown(path: string, uid: number, gid: number): void { this.s.chown(path, uid, gid); }
  truncate(path: string, len: number): void { this.s.truncate(path, len); }
  access(path: string, mode: number): void { this.s.access(path, mode); }
  mknod(path: string, mode: number, dev: number): void { this.s.mknod(path, mode, dev); }
  utimes(path: string, a: number | null, m: number | null): void { this.s.utimes(path, a, m); }
  chdir(path: string): void { this.s.chdir(path); }
  getcwd(): string { return this.s.getcwd(); }
  readdir(path: string): string[] {
    return this.s.readdir(path).map((e) => e.name).filter((n) => n !== '.' && n !== '..');
  }
  setUser(uid: number, gid: number): void {
    this.s.setgid(gid);
    this.s.setuid(uid);
  }
  mount(path: string): void { this.s.mount(path, 'tmpfs'); }
}

function runOne(os: AgentosApi, i: number): void {
  const dir = `${ROOT}/${i}`;
  os.sys.mkdir(dir, 0o777);
  os.sys.chmod(dir, 0o777);
  os.sys.chdir(dir);
  const c = cases[i];
  let r: { pass: boolean; detail: string };
  try {
    r = runCase(new SysTarget(os.sys, dir), c);
  } catch (e) {
    r = { pass: false, detail: `threw ${(e as Error)?.stack ?? e}` };
  }
  os.print(JSON.stringify({ i, name: c.name, pass: r.pass, detail: r.detail }) + '\n');
}

export default function main(os: AgentosApi): void {
  const [mode, arg] = os.argv.slice(1);
  if (mode === 'one') return runOne(os, Number(arg));
  if (mode === 'count') return os.print(`${cases.length}\n`);
  os.sys.mkdir(ROOT, 0o777);
  const self = os.argv[0];
  for (let i = 0; i < cases.length; i++) {
    const pid = os.sys.spawn({ path: self, argv: [self, 'one', String(i)] });
    const [, status] = os.sys.waitpid(pid, 0);
    if (status !== 0) os.print(JSON.stringify({ i, name: cases[i].name, pass: false, detail: `status ${status}` }) + '\n');
  }
}

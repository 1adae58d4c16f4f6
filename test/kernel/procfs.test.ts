// procfs: generated tree, Linux file formats, magic links and Linux's errnos,
// exercised directly and through the Vfs with real Process objects.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Errno, SysError } from '../../src/abi/errno.js';
import { O_CREAT, O_RDONLY, O_RDWR, O_WRONLY, SEEK_END, SEEK_SET } from '../../src/abi/fcntl.js';
import { S_IFMT, S_IFDIR, S_IFLNK, S_IFREG, isLnk } from '../../src/abi/stat.js';
import { SIGINT, SIGTERM, SIGUSR1, SIG_HANDLE, SIG_IGN } from '../../src/abi/signal.js';
import { OpenFile } from '../../src/kernel/file.js';
import { PipeFs } from '../../src/kernel/fifo.js';
import { MemFs } from '../../src/kernel/fs/memfs.js';
import { ProcFs, type ProcSource } from '../../src/kernel/fs/procfs.js';
import { Process, ProcessTable } from '../../src/kernel/process.js';
import { sameInode } from '../../src/kernel/vfs/mount.js';
import type { Cred, FileOps, Inode } from '../../src/kernel/vfs/types.js';
import { ROOT_CRED, Vfs } from '../../src/kernel/vfs/vfs.js';
import { WaitQueue } from '../../src/kernel/waitqueue.js';

const dec = new TextDecoder();
const enc = new TextEncoder();

/** A booted-enough world: / (tmpfs) with /tmp, /proc mounted, init (pid 1, root) and a shell (pid 2, uid 1000). */
function world() {
  const vfs = new Vfs(new MemFs());
  const root = vfs.root();
  for (const d of ['/tmp', '/proc', '/home', '/home/user']) vfs.mkdir(ROOT_CRED, root, d, 0o755);
  vfs.chmod(ROOT_CRED, root, '/tmp', 0o1777);
  const table = new ProcessTable();
  const bootMs = Date.now() - 12_340;
  const src: ProcSource = {
    procs: () => table.all(),
    get: (pid) => table.get(pid),
    bootMs,
    hostname: 'testhost',
    cpus: 3,
    pathOf: (i) => vfs.pathOf(i),
    memory: () => ({ totalKiB: 4194304, freeKiB: 3145728 }),
    mounts: () => vfs.mounts().map((m) => ({ source: m.type, target: m.target, type: m.type, options: 'rw' })),
  };
  const procfs = new ProcFs(src);
  vfs.mount(ROOT_CRED, '/proc', procfs);
  const init = new Process(table.allocPid(), root, null);
  init.uid = init.gid = 0;
  init.comm = 'init';
  init.argv = ['init'];
  table.add(init);
  const sh = spawn(table, init, vfs.resolve(ROOT_CRED, root, '/home/user'), ['/bin/sh', '-c', 'echo hi']);
  sh.uid = sh.gid = 1000;
  sh.env = ['HOME=/home/user', 'PATH=/bin'];
  return { vfs, root, table, procfs, src, init, sh, bootMs };
}

function spawn(table: ProcessTable, parent: Process, cwd: Inode, argv: string[]): Process {
  const p = new Process(table.allocPid(), cwd, parent);
  p.argv = argv;
  p.exe = argv[0];
  p.comm = argv[0].split('/').pop()!;
  parent.children.add(p);
  table.add(p);
  return p;
}

function open(vfs: Vfs, cred: Cred, path: string, flags = O_RDONLY, mode = 0o644): OpenFile {
  const f = vfs.open(cred, vfs.root(), path, flags, mode);
  assert.ok(!(f instanceof WaitQueue), `open ${path} would block`);
  return f;
}

function readAll(f: OpenFile): string {
  let out = '';
  for (;;) {
    const chunk = f.ops.read(f, 7); // small reads exercise positioned serving
    assert.ok(chunk instanceof Uint8Array);
    if (chunk.length === 0) return out;
    out += dec.decode(chunk);
  }
}

function cat(vfs: Vfs, cred: Cred, path: string): string {
  const f = open(vfs, cred, path);
  try {
    return readAll(f);
  } finally {
    f.unref();
  }
}

function throwsErrno(fn: () => unknown, errno: number, msg?: string): void {
  assert.throws(fn, (e: unknown) => e instanceof SysError && e.errno === errno, msg);
}

test('root lists system files, self and every pid; inode numbers are stable', () => {
  const { vfs, sh, init } = world();
  const dir = open(vfs, sh.cred, '/proc');
  const names = vfs.readdirOf(dir).map((e) => e.name);
  dir.unref();
  for (const n of ['.', '..', 'meminfo', 'uptime', 'loadavg', 'version', 'mounts', 'cpuinfo', 'stat', 'self', 'sys']) {
    assert.ok(names.includes(n), `missing ${n}`);
  }
  assert.ok(names.includes(String(init.pid)) && names.includes(String(sh.pid)));
  const a = vfs.stat(sh.cred, vfs.root(), `/proc/${sh.pid}/status`);
  const b = vfs.stat(sh.cred, vfs.root(), `/proc/${sh.pid}/status`);
  assert.equal(a.ino, b.ino);
  assert.equal(a.size, 0);
  assert.equal(a.mode & S_IFMT, S_IFREG);
  assert.equal(a.uid, 1000);
  const d = vfs.stat(sh.cred, vfs.root(), `/proc/${sh.pid}`);
  assert.equal(d.mode, S_IFDIR | 0o555);
  assert.notEqual(d.ino, a.ino);
  // readdir's inode numbers agree with lookup's (pathOf depends on it).
  const pdir = open(vfs, sh.cred, `/proc/${sh.pid}`);
  const ent = vfs.readdirOf(pdir).find((e) => e.name === 'status')!;
  pdir.unref();
  assert.equal(ent.ino, a.ino);
  assert.equal(vfs.pathOf(vfs.resolve(sh.cred, vfs.root(), `/proc/${sh.pid}/fd`)), `/proc/${sh.pid}/fd`);
});

test('/proc/self is the caller; non-canonical pids do not exist', () => {
  const { vfs, sh, init } = world();
  assert.equal(vfs.readlink(sh.cred, vfs.root(), '/proc/self'), String(sh.pid));
  assert.equal(vfs.readlink(init.cred, vfs.root(), '/proc/self'), String(init.pid));
  assert.ok(isLnk(vfs.stat(sh.cred, vfs.root(), '/proc/self', false).mode));
  assert.match(cat(vfs, sh.cred, '/proc/self/status'), new RegExp(`^Pid:\\t${sh.pid}$`, 'm'));
  throwsErrno(() => vfs.stat(sh.cred, vfs.root(), `/proc/0${sh.pid}`), Errno.ENOENT);
  throwsErrno(() => vfs.stat(sh.cred, vfs.root(), '/proc/99999'), Errno.ENOENT);
  throwsErrno(() => vfs.stat(sh.cred, vfs.root(), '/proc/nonesuch'), Errno.ENOENT);
});

test('status has Linux fields and layout', () => {
  const { vfs, sh, init } = world();
  sh.groups = [4, 24];
  sh.dispositions[SIGINT] = SIG_IGN;
  sh.dispositions[SIGTERM] = SIG_HANDLE;
  sh.blocked = 1 << SIGUSR1;
  const s = cat(vfs, sh.cred, `/proc/${sh.pid}/status`);
  const field = (k: string): string => s.match(new RegExp(`^${k}:\\t(.*)$`, 'm'))![1];
  assert.equal(field('Name'), 'sh');
  assert.equal(field('State'), 'R (running)');
  assert.equal(field('Tgid'), String(sh.pid));
  assert.equal(field('Pid'), String(sh.pid));
  assert.equal(field('PPid'), String(init.pid));
  assert.equal(field('Uid'), '1000\t1000\t1000\t1000');
  assert.equal(field('Gid'), '1000\t1000\t1000\t1000');
  assert.equal(field('Groups'), '4 24 ');
  assert.equal(field('Umask'), '0022');
  assert.equal(field('FDSize'), '64');
  assert.equal(field('SigIgn'), (1 << (SIGINT - 1)).toString(16).padStart(16, '0'));
  assert.equal(field('SigCgt'), (1 << (SIGTERM - 1)).toString(16).padStart(16, '0'));
  assert.equal(field('SigBlk'), (1 << (SIGUSR1 - 1)).toString(16).padStart(16, '0'));
  assert.ok(s.endsWith('\n'));
  sh.state = 'T';
  assert.match(cat(vfs, sh.cred, `/proc/${sh.pid}/status`), /^State:\tT \(stopped\)$/m);
});

test('stat is one line of 52 fields that ps-style parsers split after the last ")"', () => {
  const { vfs, sh, init, bootMs } = world();
  sh.comm = 'a) b';
  sh.pgid = 7;
  sh.sid = 5;
  const line = cat(vfs, sh.cred, `/proc/${sh.pid}/stat`);
  assert.ok(line.endsWith('\n') && !line.slice(0, -1).includes('\n'));
  const close = line.lastIndexOf(')');
  assert.equal(line.slice(0, line.indexOf(' (')), String(sh.pid));
  assert.equal(line.slice(line.indexOf('(') + 1, close), 'a) b');
  const rest = line.slice(close + 2, -1).split(' ');
  assert.equal(rest.length + 2, 52);
  const f = (n: number): string => rest[n - 3]; // proc(5) numbers fields from 1
  assert.equal(f(3), 'R');
  assert.equal(f(4), String(init.pid));
  assert.equal(f(5), '7');
  assert.equal(f(6), '5');
  assert.equal(f(20), '1'); // num_threads
  const start = Number(f(22));
  assert.ok(Math.abs(start - Math.round(((sh.startMs - bootMs) * 100) / 1000)) <= 1);
  assert.ok(start >= 1200, `starttime ${start} ticks`);
});

test('cmdline and environ are NUL-terminated; environ needs ptrace access', () => {
  const { vfs, sh, init, table } = world();
  assert.equal(cat(vfs, sh.cred, `/proc/${sh.pid}/cmdline`), '/bin/sh\0-c\0echo hi\0');
  assert.equal(cat(vfs, sh.cred, `/proc/${sh.pid}/environ`), 'HOME=/home/user\0PATH=/bin\0');
  assert.equal(cat(vfs, init.cred, `/proc/${sh.pid}/environ`), 'HOME=/home/user\0PATH=/bin\0'); // root
  assert.equal(vfs.stat(sh.cred, vfs.root(), `/proc/${sh.pid}/environ`).mode & 0o777, 0o400);
  const other = spawn(table, init, vfs.root(), ['/bin/cat']);
  other.uid = other.gid = 1001;
  throwsErrno(() => cat(vfs, other.cred, `/proc/${sh.pid}/environ`), Errno.EACCES);
  // Even with the mode bits out of the way, the ptrace rule still refuses.
  const inode = vfs.resolve(other.cred, vfs.root(), `/proc/${sh.pid}/environ`);
  throwsErrno(() => inode.fs.open!(inode, O_RDONLY, other.cred), Errno.EACCES);
  assert.equal(cat(vfs, sh.cred, `/proc/${sh.pid}/comm`), 'sh\n');
});

test('zombies stay listed with state Z and empty cmdline; reaped ones vanish', () => {
  const { vfs, sh, table, init } = world();
  const status = open(vfs, init.cred, `/proc/${sh.pid}/status`);
  const dir = vfs.resolve(init.cred, vfs.root(), `/proc/${sh.pid}`);
  sh.state = 'Z';
  sh.status = 3 << 8;
  assert.match(cat(vfs, init.cred, `/proc/${sh.pid}/status`), /^State:\tZ \(zombie\)$/m);
  assert.equal(cat(vfs, init.cred, `/proc/${sh.pid}/cmdline`), '');
  assert.equal(cat(vfs, init.cred, `/proc/${sh.pid}/stat`).trim().split(' ').pop(), String(3 << 8));
  throwsErrno(() => vfs.readlink(init.cred, vfs.root(), `/proc/${sh.pid}/cwd`), Errno.ENOENT);
  throwsErrno(() => vfs.readlink(init.cred, vfs.root(), `/proc/${sh.pid}/exe`), Errno.ENOENT);
  table.remove(sh);
  throwsErrno(() => vfs.stat(init.cred, vfs.root(), `/proc/${sh.pid}`), Errno.ENOENT);
  assert.equal(dir.nlink, 0);
  throwsErrno(() => dir.fs.lookup(dir, 'status', init.cred), Errno.ENOENT);
  // The description opened earlier still has its snapshot; a fresh pass finds no process.
  assert.match(readAll(status), /^Name:\tsh$/m);
  status.ops.seek!(status, 0, SEEK_SET);
  throwsErrno(() => status.ops.read(status, 100), Errno.ESRCH);
  status.unref();
  // A new process reusing the pid does not inherit the old inode.
  const again = new Process(sh.pid, vfs.root(), init);
  table.add(again);
  throwsErrno(() => dir.fs.lookup(dir, 'status', init.cred), Errno.ENOENT);
  assert.ok(vfs.resolve(init.cred, vfs.root(), `/proc/${sh.pid}/status`));
});

test('cwd and exe links; cwd jumps straight to the directory', () => {
  const { vfs, sh, table, init } = world();
  assert.equal(vfs.readlink(sh.cred, vfs.root(), `/proc/${sh.pid}/cwd`), '/home/user');
  assert.equal(vfs.readlink(sh.cred, vfs.root(), `/proc/${sh.pid}/exe`), '/bin/sh');
  assert.equal(vfs.readlink(sh.cred, vfs.root(), `/proc/${sh.pid}/root`), '/');
  const cwd = vfs.resolve(sh.cred, vfs.root(), `/proc/${sh.pid}/cwd`);
  assert.ok(sameInode(cwd, sh.cwd));
  // Even after the directory is renamed, the magic link reaches it.
  vfs.rename(ROOT_CRED, vfs.root(), '/home/user', vfs.root(), '/home/moved');
  assert.ok(sameInode(vfs.resolve(sh.cred, vfs.root(), `/proc/${sh.pid}/cwd/.`), sh.cwd));
  assert.equal(vfs.readlink(sh.cred, vfs.root(), `/proc/self/cwd`), '/home/moved');
  const other = spawn(table, init, vfs.root(), ['/bin/cat']);
  other.uid = other.gid = 1001;
  throwsErrno(() => vfs.readlink(other.cred, vfs.root(), `/proc/${sh.pid}/cwd`), Errno.EACCES);
  throwsErrno(() => vfs.resolve(other.cred, vfs.root(), `/proc/${sh.pid}/cwd`), Errno.EACCES);
  assert.equal(vfs.readlink(init.cred, vfs.root(), `/proc/${sh.pid}/cwd`), '/home/moved');
});

test('fd/ lists descriptors; fd/N reads back the path and reopens the same file', () => {
  const { vfs, sh, table, init } = world();
  const f = open(vfs, sh.cred, '/tmp/data', O_CREAT | O_RDWR);
  f.ops.write(f, enc.encode('hello'));
  sh.fds.set(3, f);
  // An anonymous pipe: its inode lives on pipefs and its path is pipe:[ino].
  const pipefs = new PipeFs();
  const pino = pipefs.newPipeInode(1000, 1000);
  const dummy: FileOps = { read: () => new Uint8Array(0), write: (_f, d) => d.length };
  sh.fds.set(5, new OpenFile(pino, O_WRONLY, dummy, `pipe:[${pino.ino}]`));
  const dir = open(vfs, sh.cred, `/proc/${sh.pid}/fd`);
  assert.deepEqual(vfs.readdirOf(dir).map((e) => e.name), ['.', '..', '3', '5']);
  dir.unref();
  assert.equal(vfs.readlink(sh.cred, vfs.root(), '/proc/self/fd/3'), '/tmp/data');
  assert.equal(vfs.readlink(sh.cred, vfs.root(), '/proc/self/fd/5'), `pipe:[${pino.ino}]`);
  const l3 = vfs.stat(sh.cred, vfs.root(), '/proc/self/fd/3', false);
  assert.equal(l3.mode, S_IFLNK | 0o700);
  assert.equal(vfs.stat(sh.cred, vfs.root(), '/proc/self/fd/5', false).mode, S_IFLNK | 0o300);
  assert.equal(vfs.resolve(sh.cred, vfs.root(), '/proc/self/fd/5'), pino);
  // Unlink the file: only the magic link still leads to it.
  vfs.unlink(sh.cred, vfs.root(), '/tmp/data');
  const again = open(vfs, sh.cred, '/proc/self/fd/3');
  assert.equal(again.inode, f.inode);
  assert.notEqual(again, f); // a new description with its own offset
  assert.equal(readAll(again), 'hello');
  again.unref();
  const info = cat(vfs, sh.cred, `/proc/${sh.pid}/fdinfo/3`);
  assert.match(info, /^pos:\t5$/m);
  assert.match(info, /^flags:\t02$/m);
  assert.match(info, new RegExp(`^ino:\\t${f.inode.ino}$`, 'm'));
  throwsErrno(() => vfs.readlink(sh.cred, vfs.root(), '/proc/self/fd/4'), Errno.ENOENT);
  // Another user cannot even look into the directory (dr-x------, owner 1000).
  const other = spawn(table, init, vfs.root(), ['/bin/cat']);
  other.uid = other.gid = 1001;
  throwsErrno(() => vfs.readlink(other.cred, vfs.root(), `/proc/${sh.pid}/fd/3`), Errno.EACCES);
});

test('system files: uptime, meminfo, loadavg, version, mounts, cpuinfo, hostname', () => {
  const { vfs, sh, table } = world();
  const up = cat(vfs, sh.cred, '/proc/uptime');
  assert.match(up, /^\d+\.\d\d \d+\.\d\d\n$/);
  assert.ok(Number(up.split(' ')[0]) >= 12.3);
  const mem = cat(vfs, sh.cred, '/proc/meminfo');
  assert.match(mem, /^MemTotal: {8}4194304 kB$/m);
  assert.match(mem, /^MemFree: {9}3145728 kB$/m);
  assert.match(mem, /^MemAvailable: {4}3145728 kB$/m);
  const load = cat(vfs, sh.cred, '/proc/loadavg');
  assert.equal(load, `0.00 0.00 0.00 2/2 ${table.all().at(-1)!.pid}\n`);
  assert.match(cat(vfs, sh.cred, '/proc/version'), /^Linux version \S+ /);
  assert.equal(vfs.readlink(sh.cred, vfs.root(), '/proc/mounts'), 'self/mounts');
  const mounts = cat(vfs, sh.cred, '/proc/mounts');
  assert.match(mounts, /^tmpfs \/ tmpfs rw 0 0$/m);
  assert.match(mounts, /^proc \/proc proc rw 0 0$/m);
  assert.match(cat(vfs, sh.cred, '/proc/cpuinfo'), /^processor\t: 0$/m);
  // The CPU count the host gave at boot, one block per CPU.
  assert.equal((cat(vfs, sh.cred, '/proc/cpuinfo').match(/^processor\t: \d+$/gm) ?? []).length, 3);
  assert.match(cat(vfs, sh.cred, '/proc/stat'), /^btime \d+$/m);
  assert.equal(cat(vfs, sh.cred, '/proc/sys/kernel/hostname'), 'testhost\n');
});

test('generated files regenerate when read again from 0; SEEK_END is refused', () => {
  const { vfs, sh } = world();
  const f = open(vfs, sh.cred, `/proc/${sh.pid}/comm`);
  sh.comm = 'renamed';
  assert.equal(readAll(f), 'sh\n'); // the snapshot taken at open
  assert.equal((f.ops.read(f, 10, 0) as Uint8Array).length, 8); // pread from 0: a fresh pass
  assert.equal(f.ops.seek!(f, 0, SEEK_SET), 0);
  assert.equal(readAll(f), 'renamed\n');
  throwsErrno(() => f.ops.seek!(f, 0, SEEK_END), Errno.EINVAL);
  throwsErrno(() => f.ops.seek!(f, -1, SEEK_SET), Errno.EINVAL);
  f.unref();
});

test('comm is writable by the process itself only', () => {
  const { vfs, sh, init } = world();
  const f = open(vfs, sh.cred, '/proc/self/comm', O_WRONLY);
  assert.equal(f.ops.write(f, enc.encode('a-very-long-process-name')), 24);
  f.unref();
  assert.equal(sh.comm, 'a-very-long-pro');
  const g = open(vfs, init.cred, `/proc/${sh.pid}/comm`, O_WRONLY);
  throwsErrno(() => g.ops.write(g, enc.encode('x')), Errno.EINVAL);
  g.unref();
});

test('mutations fail as on Linux', () => {
  const { vfs, sh, init } = world();
  const root = vfs.root();
  for (const cred of [sh.cred, init.cred]) {
    throwsErrno(() => vfs.open(cred, root, '/proc/newfile', O_CREAT | O_WRONLY, 0o644), Errno.ENOENT);
    throwsErrno(() => vfs.mkdir(cred, root, '/proc/newdir', 0o755), Errno.ENOENT);
    throwsErrno(() => vfs.symlink(cred, root, 'x', `/proc/${sh.pid}/link`), Errno.ENOENT);
  }
  throwsErrno(() => vfs.unlink(init.cred, root, '/proc/uptime'), Errno.EPERM);
  throwsErrno(() => vfs.rmdir(init.cred, root, `/proc/${sh.pid}/fd`), Errno.EPERM); // empty: the Vfs checks emptiness first
  throwsErrno(() => vfs.rename(init.cred, root, '/proc/uptime', root, '/proc/version'), Errno.EPERM);
  throwsErrno(() => vfs.chmod(init.cred, root, '/proc/uptime', 0o666), Errno.EPERM);
  // Users hit the mode bits; root gets through open and the write itself fails.
  throwsErrno(() => open(vfs, sh.cred, '/proc/uptime', O_WRONLY), Errno.EACCES);
  const up = open(vfs, init.cred, '/proc/uptime', O_WRONLY | 0o1000 /* O_TRUNC */);
  throwsErrno(() => up.ops.write(up, enc.encode('0')), Errno.EIO);
  up.unref();
  const st = open(vfs, init.cred, `/proc/${sh.pid}/status`, O_RDWR);
  throwsErrno(() => st.ops.write(st, enc.encode('0')), Errno.EINVAL);
  st.unref();
});

test('directory link counts and magic-link-free statfs', () => {
  const { vfs, sh, procfs } = world();
  const rootStat = vfs.stat(sh.cred, vfs.root(), '/proc');
  assert.equal(rootStat.nlink, 2 + 1 /* sys */ + 1 /* net */ + 1 /* agentos */ + 2 /* processes */);
  assert.equal(vfs.stat(sh.cred, vfs.root(), `/proc/${sh.pid}`).nlink, 2 + 2 /* fd, fdinfo */);
  assert.equal(procfs.statfs().type, 'proc');
});

// devfs and the character devices: node layout, driver behaviour, and the
// /dev/std* links resolving through procfs to the caller's descriptors.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Errno, SysError } from '../../src/abi/errno.js';
import { O_CREAT, O_RDONLY, O_RDWR, O_WRONLY, SEEK_CUR, SEEK_SET } from '../../src/abi/fcntl.js';
import { S_IFCHR, S_IFDIR, S_IFLNK, makedev } from '../../src/abi/stat.js';
import { DeviceTable } from '../../src/kernel/dev/device.js';
import { registerStandardDevices } from '../../src/kernel/dev/register.js';
import type { OpenFile } from '../../src/kernel/file.js';
import { createDevfs, populateDevfs } from '../../src/kernel/fs/devfs.js';
import { MemFs } from '../../src/kernel/fs/memfs.js';
import { ProcFs } from '../../src/kernel/fs/procfs.js';
import { Process, ProcessTable } from '../../src/kernel/process.js';
import type { Cred } from '../../src/kernel/vfs/types.js';
import { ROOT_CRED, Vfs } from '../../src/kernel/vfs/vfs.js';
import { WaitQueue } from '../../src/kernel/waitqueue.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

function world() {
  const devices = new DeviceTable();
  registerStandardDevices(devices);
  const vfs = new Vfs(new MemFs(), { devices });
  const root = vfs.root();
  for (const d of ['/dev', '/proc', '/tmp']) vfs.mkdir(ROOT_CRED, root, d, 0o755);
  vfs.chmod(ROOT_CRED, root, '/tmp', 0o1777);
  const dev = new MemFs();
  populateDevfs(dev, ROOT_CRED);
  vfs.mount(ROOT_CRED, '/dev', dev);
  const table = new ProcessTable();
  vfs.mount(ROOT_CRED, '/proc', new ProcFs({
    procs: () => table.all(),
    get: (pid) => table.get(pid),
    bootMs: Date.now(),
    hostname: 'h',
    cpus: 1,
    pathOf: (i) => vfs.pathOf(i),
    memory: () => ({ totalKiB: 1, freeKiB: 1 }),
    mounts: () => [],
  }));
  const init = new Process(table.allocPid(), root, null);
  init.uid = init.gid = 0;
  table.add(init);
  const user = new Process(table.allocPid(), root, init);
  table.add(user);
  return { vfs, dev, devices, init, user };
}

function open(vfs: Vfs, cred: Cred, path: string, flags = O_RDONLY, mode = 0o644): OpenFile {
  const f = vfs.open(cred, vfs.root(), path, flags, mode);
  assert.ok(!(f instanceof WaitQueue), `open ${path} would block`);
  return f;
}

function read(f: OpenFile, len: number): Uint8Array {
  const r = f.ops.read(f, len);
  assert.ok(r instanceof Uint8Array);
  return r;
}

function throwsErrno(fn: () => unknown, errno: number): void {
  assert.throws(fn, (e: unknown) => e instanceof SysError && e.errno === errno);
}

test('devfs holds the standard nodes, directories and /proc/self links', () => {
  const { vfs, user } = world();
  const st = (p: string, follow = true) => vfs.stat(user.cred, vfs.root(), p, follow);
  const expect: [string, number, number][] = [
    ['null', 1, 3], ['zero', 1, 5], ['full', 1, 7], ['random', 1, 8], ['urandom', 1, 9], ['tty', 5, 0],
  ];
  for (const [name, maj, min] of expect) {
    const s = st(`/dev/${name}`);
    assert.equal(s.mode, S_IFCHR | 0o666, name);
    assert.equal(s.rdev, makedev(maj, min), name);
    assert.equal(s.uid, 0);
  }
  assert.equal(st('/dev/pts').mode, S_IFDIR | 0o755);
  assert.equal(st('/dev/shm').mode, S_IFDIR | 0o1777);
  for (const [name, target] of [
    ['fd', '/proc/self/fd'], ['stdin', '/proc/self/fd/0'], ['stdout', '/proc/self/fd/1'], ['stderr', '/proc/self/fd/2'],
  ]) {
    assert.equal(st(`/dev/${name}`, false).mode & 0o170000, S_IFLNK);
    assert.equal(vfs.readlink(user.cred, vfs.root(), `/dev/${name}`), target);
  }
  // Anyone may create in /dev/shm (sticky, world-writable).
  open(vfs, user.cred, '/dev/shm/seg', O_CREAT | O_RDWR).unref();
});

test('createDevfs builds and populates from a factory', () => {
  const fs = createDevfs(() => new MemFs());
  const names = fs.readdir(fs.root()).map((e) => e.name).sort();
  assert.deepEqual(names, ['fd', 'full', 'null', 'pts', 'random', 'shm', 'stderr', 'stdin', 'stdout', 'tty', 'urandom', 'zero']);
});

test('/dev/null: EOF on read, swallows writes, seeks to 0', () => {
  const { vfs, user } = world();
  const f = open(vfs, user.cred, '/dev/null', O_RDWR);
  assert.equal(read(f, 100).length, 0);
  assert.equal(f.ops.write(f, enc.encode('gone')), 4);
  assert.equal(f.ops.seek!(f, 1234, SEEK_SET), 0);
  assert.equal(f.ops.poll!(f) & 5, 5);
  f.unref();
});

test('/dev/zero and /dev/full read zeros; /dev/full refuses writes with ENOSPC', () => {
  const { vfs, user } = world();
  const z = open(vfs, user.cred, '/dev/zero', O_RDWR);
  const zeros = read(z, 100_000);
  assert.equal(zeros.length, 100_000);
  assert.ok(zeros.every((b) => b === 0));
  assert.equal(z.ops.write(z, enc.encode('x')), 1);
  assert.equal(z.ops.seek!(z, 5, SEEK_CUR), 0);
  z.unref();
  const full = open(vfs, user.cred, '/dev/full', O_RDWR);
  assert.deepEqual([...read(full, 3)], [0, 0, 0]);
  throwsErrno(() => full.ops.write(full, enc.encode('x')), Errno.ENOSPC);
  full.unref();
});

test('/dev/random and /dev/urandom give random bytes, in any amount', () => {
  const { vfs, user } = world();
  for (const name of ['random', 'urandom']) {
    const f = open(vfs, user.cred, `/dev/${name}`);
    const a = read(f, 200_000); // more than one getRandomValues slice
    assert.equal(a.length, 200_000);
    const tail = a.subarray(150_000);
    assert.ok(new Set(tail).size > 200, 'the last slice is filled too');
    const b = read(f, 32);
    assert.notDeepEqual([...b], [...a.subarray(0, 32)]);
    f.unref();
  }
  const w = open(vfs, user.cred, '/dev/urandom', O_WRONLY);
  assert.equal(w.ops.write(w, enc.encode('seed')), 4);
  w.unref();
});

test('/dev/tty without a controlling terminal, and unknown devices, are ENXIO', () => {
  const { vfs, user, init } = world();
  throwsErrno(() => open(vfs, user.cred, '/dev/tty', O_RDWR), Errno.ENXIO);
  vfs.mknod(init.cred, vfs.root(), '/dev/mystery', S_IFCHR | 0o666, makedev(250, 1));
  throwsErrno(() => open(vfs, user.cred, '/dev/mystery'), Errno.ENXIO);
});

test('the device table refuses double registration', () => {
  const t = new DeviceTable();
  registerStandardDevices(t);
  assert.ok(t.has(makedev(1, 3)));
  assert.throws(() => registerStandardDevices(t));
});

test('/dev/stdout and /dev/fd/N lead to the caller\'s own descriptors', () => {
  const { vfs, user } = world();
  const out = open(vfs, user.cred, '/tmp/out', O_CREAT | O_RDWR);
  user.fds.set(1, out);
  const via = open(vfs, user.cred, '/dev/stdout', O_WRONLY);
  assert.equal(via.inode, out.inode);
  via.ops.write(via, enc.encode('through /dev/stdout'));
  via.unref();
  const back = open(vfs, user.cred, '/dev/fd/1');
  assert.equal(dec.decode(read(back, 100)), 'through /dev/stdout');
  back.unref();
  throwsErrno(() => open(vfs, user.cred, '/dev/stdin'), Errno.ENOENT);
});

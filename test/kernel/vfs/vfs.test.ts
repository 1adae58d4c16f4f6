// Vfs behaviour the errno table cannot express: eviction timing, mounts and
// inode numbers, hooks for devices/FIFOs/magic links, paths, quotas.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  O_APPEND, O_CREAT, O_DIRECTORY, O_NONBLOCK, O_RDONLY, O_RDWR, O_TRUNC, O_WRONLY, SEEK_CUR, SEEK_END, SEEK_SET,
} from '../../../src/abi/fcntl.js';
import { S_IFCHR, S_IFIFO, S_IFLNK, S_IFMT } from '../../../src/abi/stat.js';
import type { OpenFile } from '../../../src/kernel/file.js';
import { MemFs } from '../../../src/kernel/fs/memfs.js';
import { ROOT_CRED, Vfs } from '../../../src/kernel/vfs/vfs.js';
import type { VfsOptions } from '../../../src/kernel/vfs/vfs.js';
import type { Cred, FileOps, Inode } from '../../../src/kernel/vfs/types.js';
import { WaitQueue } from '../../../src/kernel/waitqueue.js';
import { enc, dec, code } from './helpers.js';

const user: Cred = { uid: 1000, gid: 1000, groups: [], pid: 5, umask: 0o022 };

function setup(opts: VfsOptions = {}, rootFs = new MemFs()): { vfs: Vfs; root: Inode; fs: MemFs } {
  const vfs = new Vfs(rootFs, opts);
  return { vfs, root: vfs.root(), fs: rootFs };
}

function open(vfs: Vfs, path: string, flags: number, mode = 0o644, cred = ROOT_CRED, base = vfs.root()): OpenFile {
  const f = vfs.open(cred, base, path, flags, mode);
  assert.ok(!(f instanceof WaitQueue));
  return f;
}

function write(f: OpenFile, s: string, pos?: number): number {
  const n = f.ops.write(f, enc(s), pos);
  assert.ok(typeof n === 'number');
  return n;
}

function read(f: OpenFile, len = 1000, pos?: number): string {
  const b = f.ops.read(f, len, pos);
  assert.ok(b instanceof Uint8Array);
  return dec(b);
}

test('an unlinked file is evicted only at the last close', () => {
  const { vfs, fs } = setup();
  const f = open(vfs, '/f', O_RDWR | O_CREAT);
  write(f, 'hello');
  const g = f.ref(); // a dup
  vfs.unlink(ROOT_CRED, vfs.root(), '/f');
  assert.equal(fs.bytesUsed, 5);
  f.unref();
  assert.equal(fs.bytesUsed, 5, 'still referenced');
  assert.equal(vfs.openCount(f.inode), 1);
  assert.equal(read(g, 10, 0), 'hello');
  g.unref();
  assert.equal(fs.bytesUsed, 0, 'evicted');
  assert.equal(vfs.openCount(f.inode), 0);
});

test('a closed file that still has a name is not evicted', () => {
  const { vfs, fs } = setup();
  const f = open(vfs, '/f', O_WRONLY | O_CREAT);
  write(f, 'abc');
  f.unref();
  assert.equal(fs.bytesUsed, 3);
  assert.equal(dec(fs.read(vfs.resolve(ROOT_CRED, vfs.root(), '/f'), 0, 10)), 'abc');
});

test('rename over an open file evicts the old inode at its last close', () => {
  const { vfs, fs } = setup();
  write(open(vfs, '/a', O_WRONLY | O_CREAT), '1234');
  const b = open(vfs, '/b', O_RDWR | O_CREAT);
  write(b, 'xy');
  vfs.rename(ROOT_CRED, vfs.root(), '/a', vfs.root(), '/b');
  assert.equal(fs.bytesUsed, 6);
  b.unref();
  assert.equal(fs.bytesUsed, 4);
});

test('O_APPEND beats pwrite offsets; regular-file seek rules', () => {
  const { vfs } = setup();
  const f = open(vfs, '/f', O_RDWR | O_CREAT | O_APPEND);
  write(f, 'abc');
  write(f, 'Z', 0);
  assert.equal(read(f, 10, 0), 'abcZ');
  assert.equal(f.ops.seek!(f, 0, SEEK_END), 4);
  assert.equal(f.ops.seek!(f, -1, SEEK_CUR), 3);
  assert.equal(code(() => f.ops.seek!(f, -10, SEEK_CUR)), 'EINVAL');
  assert.equal(f.pos, 3, 'failed seek keeps the offset');
  assert.equal(f.ops.seek!(f, 1, 3 /* SEEK_DATA */), 1);
  assert.equal(f.ops.seek!(f, 1, 4 /* SEEK_HOLE */), 4);
  assert.equal(code(() => f.ops.seek!(f, 9, 3)), 'ENXIO');
  assert.equal(f.flags & O_CREAT, 0, 'open-only flags are dropped');
  assert.equal(f.flags & O_APPEND, O_APPEND);
});

test('EFBIG and ENOSPC come through the generic ops', () => {
  const { vfs } = setup({}, new MemFs({ maxFileSize: 4, maxBytes: 6 }));
  const f = open(vfs, '/f', O_RDWR | O_CREAT);
  assert.equal(write(f, 'abcdef'), 4);
  assert.equal(code(() => write(f, 'x')), 'EFBIG');
  assert.equal(code(() => vfs.truncate(ROOT_CRED, vfs.root(), '/f', 5)), 'EFBIG');
  const g = open(vfs, '/g', O_RDWR | O_CREAT);
  assert.equal(write(g, 'abc'), 2);
  assert.equal(code(() => write(g, 'c')), 'ENOSPC');
  assert.equal(code(() => vfs.ftruncate(ROOT_CRED, g, -1)), 'EINVAL');
});

test('readonly fs: EROFS for writes, creation and metadata; reads work', () => {
  const fs = new MemFs();
  const { vfs } = setup({}, new MemFs());
  vfs.mkdir(ROOT_CRED, vfs.root(), '/ro', 0o755);
  const f = fs.create(fs.root(), 'f', 0o100644, 0, ROOT_CRED);
  fs.write(f, 0, enc('frozen'));
  fs.readonly = true;
  vfs.mount(ROOT_CRED, '/ro', fs);
  const r = vfs.root();
  assert.equal(read(open(vfs, '/ro/f', O_RDONLY)), 'frozen');
  assert.equal(code(() => vfs.open(ROOT_CRED, r, '/ro/f', O_WRONLY)), 'EROFS');
  assert.equal(code(() => vfs.open(ROOT_CRED, r, '/ro/f', O_RDONLY | O_TRUNC)), 'EROFS');
  assert.equal(code(() => vfs.open(ROOT_CRED, r, '/ro/g', O_WRONLY | O_CREAT, 0o644)), 'EROFS');
  assert.equal(code(() => vfs.open(ROOT_CRED, r, '/ro/f', O_RDONLY | O_CREAT, 0o644)), 'ok');
  assert.equal(code(() => vfs.mkdir(ROOT_CRED, r, '/ro/d', 0o755)), 'EROFS');
  assert.equal(code(() => vfs.mkdir(ROOT_CRED, r, '/ro/f', 0o755)), 'EEXIST');
  assert.equal(code(() => vfs.unlink(ROOT_CRED, r, '/ro/f')), 'EROFS');
  assert.equal(code(() => vfs.unlink(ROOT_CRED, r, '/ro/missing')), 'EROFS');
  assert.equal(code(() => vfs.rename(ROOT_CRED, r, '/ro/f', r, '/ro/g')), 'EROFS');
  assert.equal(code(() => vfs.chmod(ROOT_CRED, r, '/ro/f', 0o600)), 'EROFS');
  assert.equal(code(() => vfs.truncate(ROOT_CRED, r, '/ro/f', 0)), 'EROFS');
  assert.equal(code(() => vfs.access(ROOT_CRED, r, '/ro/f', 2)), 'EROFS');
  assert.equal(code(() => vfs.access(ROOT_CRED, r, '/ro/f', 4)), 'ok');
  assert.equal(code(() => vfs.symlink(ROOT_CRED, r, 'x', '/ro/l')), 'EROFS');
});

test('mounts: dev numbers, "." and ".." inode numbers, pathOf, umount', () => {
  const { vfs, root } = setup();
  vfs.mkdir(ROOT_CRED, root, '/mnt', 0o755);
  const covered = vfs.resolve(ROOT_CRED, root, '/mnt');
  const inner = new MemFs({ rootMode: 0o1777 });
  vfs.mount(ROOT_CRED, '/mnt', inner);
  assert.notEqual(inner.dev, root.fs.dev);
  const st = vfs.stat(ROOT_CRED, root, '/mnt');
  assert.equal(st.dev, inner.dev);
  assert.equal(st.mode & 0o7777, 0o1777);
  vfs.mkdir(ROOT_CRED, root, '/mnt/sub', 0o755);
  assert.equal(vfs.stat(ROOT_CRED, root, '/mnt/sub/../..').ino, root.ino);
  assert.equal(vfs.stat(ROOT_CRED, root, '/mnt/..').dev, root.fs.dev);
  const d = open(vfs, '/mnt', O_RDONLY | O_DIRECTORY);
  const ents = vfs.readdirOf(d);
  assert.deepEqual(ents.map((e) => [e.name, e.ino]), [['.', inner.root().ino], ['..', root.ino], ['sub', vfs.resolve(ROOT_CRED, root, '/mnt/sub').ino]]);
  // getdents cursor: position is an entry index.
  d.pos = 0;
  assert.deepEqual(vfs.getdents(d, 2).map((e) => e.name), ['.', '..']);
  assert.deepEqual(vfs.getdents(d, 2).map((e) => e.name), ['sub']);
  assert.deepEqual(vfs.getdents(d, 2), []);
  assert.equal(d.ops.seek!(d, 0, SEEK_SET), 0);
  assert.equal(code(() => d.ops.read(d, 1)), 'EISDIR');
  assert.equal(vfs.pathOf(vfs.resolve(ROOT_CRED, root, '/mnt/sub')), '/mnt/sub');
  assert.equal(vfs.pathOf(root), '/');
  assert.deepEqual(vfs.mounts().map((m) => [m.target, m.type]), [['/', 'tmpfs'], ['/mnt', 'tmpfs']]);
  assert.equal(code(() => vfs.umount(ROOT_CRED, '/mnt')), 'EBUSY', 'a directory on it is open');
  d.unref();
  assert.equal(code(() => vfs.umount(user, '/mnt')), 'EPERM');
  assert.equal(code(() => vfs.umount(ROOT_CRED, '/')), 'EBUSY');
  vfs.umount(ROOT_CRED, '/mnt');
  assert.equal(vfs.resolve(ROOT_CRED, root, '/mnt'), covered);
  assert.equal(code(() => vfs.stat(ROOT_CRED, root, '/mnt/sub')), 'ENOENT');
});

test('umount of a mount with submounts is EBUSY; one fs mounts once; mounts stack', () => {
  const { vfs, root } = setup();
  vfs.mkdir(ROOT_CRED, root, '/a', 0o755);
  const a = new MemFs();
  vfs.mount(ROOT_CRED, '/a', a);
  vfs.mkdir(ROOT_CRED, root, '/a/b', 0o755);
  const b = new MemFs();
  vfs.mount(ROOT_CRED, '/a/b', b);
  assert.equal(vfs.pathOf(vfs.resolve(ROOT_CRED, root, '/a/b')), '/a/b');
  assert.equal(code(() => vfs.umount(ROOT_CRED, '/a')), 'EBUSY');
  assert.equal(code(() => vfs.mount(ROOT_CRED, '/', b)), 'EBUSY');
  // Mounting on a mount root stacks, as on Linux; umount peels the top one.
  const top = new MemFs();
  vfs.mount(ROOT_CRED, '/a/b', top);
  assert.equal(vfs.resolve(ROOT_CRED, root, '/a/b').fs, top);
  assert.equal(vfs.pathOf(vfs.resolve(ROOT_CRED, root, '/a/b')), '/a/b');
  vfs.umount(ROOT_CRED, '/a/b');
  assert.equal(vfs.resolve(ROOT_CRED, root, '/a/b').fs, b);
  vfs.umount(ROOT_CRED, '/a/b');
  vfs.umount(ROOT_CRED, '/a');
  assert.equal(vfs.mounts().length, 1);
});

test('realpath resolves symlinks and dots', () => {
  const { vfs, root } = setup();
  vfs.mkdir(ROOT_CRED, root, '/a', 0o755);
  vfs.mkdir(ROOT_CRED, root, '/a/b', 0o755);
  open(vfs, '/a/b/f', O_CREAT | O_WRONLY).unref();
  vfs.symlink(ROOT_CRED, root, 'a/b', '/l');
  vfs.symlink(ROOT_CRED, root, '../b/f', '/a/b/lf');
  assert.equal(vfs.realpath(ROOT_CRED, root, '/l/./lf'), '/a/b/f');
  assert.equal(vfs.realpath(ROOT_CRED, root, '/l/..'), '/a');
  assert.equal(vfs.realpath(ROOT_CRED, vfs.resolve(ROOT_CRED, root, '/a'), 'b/f'), '/a/b/f');
  assert.equal(open(vfs, '/l/lf', O_RDONLY).path, '/a/b/f', 'OpenFile.path is absolute');
});

test('character devices and FIFOs open through hooks', () => {
  const wq = new WaitQueue();
  let peer = false;
  const devOps: FileOps = { read: () => enc('dev'), write: (_f, d) => d.length };
  const seen: number[] = [];
  const { vfs, root } = setup({
    devices: { open: (inode) => (seen.push(inode.rdev), devOps) },
    openFifo: (_inode, flags) => (peer || flags & O_NONBLOCK ? devOps : wq),
  });
  vfs.mknod(ROOT_CRED, root, '/null', S_IFCHR | 0o666, 0x103);
  vfs.mknod(ROOT_CRED, root, '/p', S_IFIFO | 0o666);
  assert.equal(read(open(vfs, '/null', O_RDWR)), 'dev');
  assert.deepEqual(seen, [0x103]);
  assert.equal(vfs.open(ROOT_CRED, root, '/p', O_RDONLY), wq, 'blocks: returns the queue');
  peer = true;
  assert.ok(!(vfs.open(ROOT_CRED, root, '/p', O_RDONLY) instanceof WaitQueue));
  const bare = setup();
  bare.vfs.mknod(ROOT_CRED, bare.root, '/c', S_IFCHR | 0o666, 1);
  assert.equal(code(() => bare.vfs.open(ROOT_CRED, bare.root, '/c', O_RDONLY)), 'ENXIO');
});

test('magic links jump straight to an inode', () => {
  class MagicFs extends MemFs {
    target: Inode | null = null;
    followLink(inode: Inode): Inode | null {
      return (inode.mode & S_IFMT) === S_IFLNK && this.readlink(inode) === 'magic' ? this.target : null;
    }
  }
  const fs = new MagicFs();
  const { vfs, root } = setup({}, fs);
  const f = open(vfs, '/secret', O_RDWR | O_CREAT);
  write(f, 'found');
  fs.target = f.inode;
  vfs.symlink(ROOT_CRED, root, 'magic', '/fd');
  vfs.unlink(ROOT_CRED, root, '/secret');
  assert.equal(read(open(vfs, '/fd', O_RDONLY)), 'found', 'reaches an unlinked inode');
  assert.equal(vfs.readlink(ROOT_CRED, root, '/fd'), 'magic');
});

test('permissions: groups, access with real ids, chown rules', () => {
  const { vfs, root } = setup();
  open(vfs, '/f', O_CREAT | O_WRONLY, 0o640).unref();
  vfs.chown(ROOT_CRED, root, '/f', 0, 50);
  const member: Cred = { ...user, groups: [50] };
  assert.equal(code(() => open(vfs, '/f', O_RDONLY, 0, member).unref()), 'ok');
  assert.equal(code(() => vfs.open(user, root, '/f', O_RDONLY)), 'EACCES');
  // setuid-root process: effective root, real uid 1000: access() answers for the real user.
  const suid: Cred = { ...ROOT_CRED, ruid: 1000, rgid: 1000 };
  assert.equal(code(() => vfs.access(suid, root, '/f', 4)), 'EACCES');
  assert.equal(code(() => vfs.open(suid, root, '/f', O_RDONLY)), 'ok');
  vfs.chown(ROOT_CRED, root, '/f', 1000, 1000);
  assert.equal(code(() => vfs.chown(member, root, '/f', -1, 50)), 'ok', 'owner may chgrp to own group');
  assert.equal(vfs.stat(ROOT_CRED, root, '/f').gid, 50);
  assert.equal(code(() => vfs.chown(user, root, '/f', 0, -1)), 'EPERM');
});

test('setgid directories pass their group down', () => {
  const { vfs, root } = setup();
  vfs.mkdir(ROOT_CRED, root, '/g', 0o777);
  vfs.chown(ROOT_CRED, root, '/g', 0, 77);
  vfs.chmod(ROOT_CRED, root, '/g', 0o2777);
  vfs.mkdir(user, root, '/g/sub', 0o755);
  const st = vfs.stat(ROOT_CRED, root, '/g/sub');
  assert.equal(st.gid, 77);
  assert.equal(st.mode & 0o2000, 0o2000);
  assert.equal(st.uid, 1000);
});

test('stat reports tmpfs-like blocks and sizes; utimes sets times', () => {
  const { vfs, root } = setup();
  const f = open(vfs, '/f', O_CREAT | O_WRONLY);
  write(f, 'x'.repeat(5000));
  const st = vfs.fstat(f.inode);
  assert.equal(st.blksize, 4096);
  assert.equal(st.blocks, 16);
  vfs.utimes(ROOT_CRED, root, '/f', 1000, 2000);
  const t = vfs.stat(ROOT_CRED, root, '/f');
  assert.equal(t.atimeMs, 1000);
  assert.equal(t.mtimeMs, 2000);
  assert.ok(t.ctimeMs > 2000);
  assert.equal(vfs.statfs(ROOT_CRED, root, '/').type, 'tmpfs');
});

test('pathOf a removed directory is ENOENT; relative opens use the base', () => {
  const { vfs, root } = setup();
  vfs.mkdir(ROOT_CRED, root, '/d', 0o755);
  const d = vfs.chdir(ROOT_CRED, root, '/d');
  open(vfs, 'rel', O_CREAT | O_WRONLY, 0o644, ROOT_CRED, d).unref();
  assert.equal(vfs.stat(ROOT_CRED, root, '/d/rel').size, 0);
  vfs.unlink(ROOT_CRED, root, '/d/rel');
  vfs.rmdir(ROOT_CRED, root, '/d');
  assert.equal(code(() => vfs.pathOf(d)), 'ENOENT');
  assert.equal(code(() => vfs.open(ROOT_CRED, d, 'x', O_CREAT | O_WRONLY, 0o644)), 'ENOENT');
  assert.equal(vfs.resolve(ROOT_CRED, d, '..'), root);
});

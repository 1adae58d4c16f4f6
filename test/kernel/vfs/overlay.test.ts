// OverlayFs: copy-up, whiteouts, opaque dirs, renames of lower trees, and
// how all of it is represented in the upper MemFs (which must be enough to
// rebuild the merged view, as after a reboot with a persisted upper).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { O_APPEND, O_CREAT, O_RDONLY, O_RDWR, O_TRUNC, O_WRONLY } from '../../../src/abi/fcntl.js';
import { S_IFCHR, S_IFDIR, S_IFMT, S_IFREG } from '../../../src/abi/stat.js';
import type { OpenFile } from '../../../src/kernel/file.js';
import { MemFs } from '../../../src/kernel/fs/memfs.js';
import type { MemInode } from '../../../src/kernel/fs/memfs.js';
import { OverlayFs } from '../../../src/kernel/fs/overlayfs.js';
import { META_DIR, OPAQUE_MARKER } from '../../../src/kernel/fs/overlay/upper.js';
import { ROOT_CRED, Vfs } from '../../../src/kernel/vfs/vfs.js';
import type { Cred } from '../../../src/kernel/vfs/types.js';
import { code, dec, enc } from './helpers.js';

const root = ROOT_CRED;
const user: Cred = { uid: 1000, gid: 1000, groups: [], pid: 2, umask: 0o022 };

/** A lower MemFs populated through a Vfs by `build`, then frozen. */
function lowerWith(build: (v: Vfs) => void): MemFs {
  const fs = new MemFs();
  build(new Vfs(fs));
  fs.readonly = true;
  return fs;
}

function open(v: Vfs, path: string, flags: number, mode = 0o644, cred = root): OpenFile {
  const f = v.open(cred, v.root(), path, flags, mode);
  if (!('inode' in f)) throw new Error('open would block');
  return f;
}

function writeFile(v: Vfs, path: string, text: string, cred = root): void {
  const f = open(v, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644, cred);
  f.ops.write(f, enc(text));
  f.unref();
}

function readFile(v: Vfs, path: string): string {
  const f = open(v, path, O_RDONLY);
  const r = f.ops.read(f, 1 << 20);
  f.unref();
  return dec(r as Uint8Array);
}

const ls = (v: Vfs, path: string): string[] => {
  const f = open(v, path, O_RDONLY);
  const names = v.readdirOf(f).map((e) => e.name).filter((n) => n !== '.' && n !== '..');
  f.unref();
  return names;
};

/** What the upper MemFs holds at `path` (no overlay interpretation). */
function upperAt(upper: MemFs, path: string): MemInode | null {
  let cur: MemInode | null = upper.root();
  for (const name of path.split('/').filter(Boolean)) cur = cur && upper.lookup(cur, name);
  return cur;
}

/** The base image used by most tests. */
function image(): MemFs {
  return lowerWith((v) => {
    const r = v.root();
    v.mkdir(root, r, '/etc', 0o755);
    v.mkdir(root, r, '/usr', 0o755);
    v.mkdir(root, r, '/usr/lib', 0o750);
    v.chown(root, r, '/usr/lib', 7, 8);
    writeFile(v, '/etc/motd', 'hello');
    writeFile(v, '/usr/lib/a.so', 'AAAA');
    v.mkdir(root, r, '/usr/lib/sub', 0o755);
    writeFile(v, '/usr/lib/sub/b', 'BB');
    v.symlink(root, r, 'a.so', '/usr/lib/link');
    v.chmod(root, r, '/etc/motd', 0o640);
    v.chown(root, r, '/etc/motd', 5, 6);
    v.utimes(root, r, '/etc/motd', 1000, 2000);
    v.utimes(root, r, '/usr/lib', 3000, 4000);
  });
}

function boot(lower = image(), upper = new MemFs()): { v: Vfs; ovl: OverlayFs; lower: MemFs; upper: MemFs } {
  const ovl = new OverlayFs(lower, upper);
  return { v: new Vfs(ovl), ovl, lower, upper };
}

test('reads come from the lower until something writes', () => {
  const { v, upper } = boot();
  assert.equal(readFile(v, '/etc/motd'), 'hello');
  assert.equal(readFile(v, '/usr/lib/link'), 'AAAA');
  assert.deepEqual(ls(v, '/usr/lib').sort(), ['a.so', 'link', 'sub']);
  assert.deepEqual(ls(v, '/'), ['etc', 'usr']);
  assert.deepEqual(upper.readdir(upper.root()), [], 'nothing copied up by reading');
});

test('copy-up copies data and metadata, and the parents lazily', () => {
  const { v, lower, upper } = boot();
  const before = v.stat(root, v.root(), '/etc/motd');
  const f = open(v, '/etc/motd', O_WRONLY | O_APPEND);
  f.ops.write(f, enc(' world'));
  f.unref();
  assert.equal(readFile(v, '/etc/motd'), 'hello world');
  const st = v.stat(root, v.root(), '/etc/motd');
  assert.deepEqual([st.mode, st.uid, st.gid, st.ino, st.dev], [before.mode, before.uid, before.gid, before.ino, before.dev]);
  assert.equal(upperAt(upper, 'etc/motd')!.size, 11);
  assert.equal(dec(lower.read(upperAt(lower, 'etc/motd')!, 0, 100)), 'hello', 'lower untouched');
  // Only /etc was needed; /usr stays lower-only.
  assert.equal(upperAt(upper, 'usr'), null);
  // Parents keep their lower attributes, times included.
  v.chmod(root, v.root(), '/usr/lib/sub/b', 0o600);
  const lib = upperAt(upper, 'usr/lib')!;
  assert.deepEqual([lib.mode, lib.uid, lib.gid, lib.mtimeMs], [S_IFDIR | 0o750, 7, 8, 4000]);
  assert.equal(v.stat(root, v.root(), '/usr/lib').mtimeMs, 4000, 'copy-up is not a change of the parent');
  assert.equal(v.stat(root, v.root(), '/usr/lib/sub/b').mode & 0o7777, 0o600);
  assert.equal(readFile(v, '/usr/lib/sub/b'), 'BB');
});

test('st_ino is stable across copy-up and across a reboot over the same upper', () => {
  const { v, ovl, lower, upper } = boot();
  const ino = v.stat(root, v.root(), '/usr/lib/a.so').ino;
  const dirIno = v.stat(root, v.root(), '/usr/lib').ino;
  writeFile(v, '/usr/lib/a.so', 'Z');
  v.mkdir(root, v.root(), '/new', 0o755);
  writeFile(v, '/new/f', 'x');
  assert.equal(v.stat(root, v.root(), '/usr/lib/a.so').ino, ino);
  assert.equal(v.stat(root, v.root(), '/usr/lib').ino, dirIno);
  assert.equal(v.stat(root, v.root(), '/usr/lib/a.so').dev, ovl.dev);
  const fresh = boot(lower, upper);
  assert.equal(fresh.v.stat(root, fresh.v.root(), '/usr/lib/a.so').ino, ino, 'origin kept in the upper');
  assert.equal(fresh.v.stat(root, fresh.v.root(), '/usr/lib').ino, dirIno);
  assert.equal(readFile(fresh.v, '/usr/lib/a.so'), 'Z');
  // Upper-only and lower numbers never collide; readdir agrees with stat.
  const inos = ['/etc/motd', '/usr/lib/a.so', '/new', '/new/f', '/usr', '/etc'].map((p) => fresh.v.stat(root, fresh.v.root(), p).ino);
  assert.equal(new Set(inos).size, inos.length);
  const f = open(fresh.v, '/usr/lib', O_RDONLY);
  for (const e of fresh.v.readdirOf(f)) {
    if (e.name === '..') continue;
    assert.equal(e.ino, fresh.v.stat(root, fresh.v.root(), `/usr/lib/${e.name}`, false).ino, e.name);
  }
  f.unref();
  // The index link is not a visible link.
  assert.equal(fresh.v.stat(root, fresh.v.root(), '/usr/lib/a.so').nlink, 1);
});

test('unlink leaves a whiteout; readdir merges without it', () => {
  const { v, upper } = boot();
  v.unlink(root, v.root(), '/usr/lib/a.so');
  writeFile(v, '/usr/lib/new', 'n');
  assert.equal(code(() => v.stat(root, v.root(), '/usr/lib/a.so')), 'ENOENT');
  assert.deepEqual(ls(v, '/usr/lib'), ['new', 'sub', 'link'], 'upper entries first, then the lower ones in their order');
  const wh = upperAt(upper, 'usr/lib/a.so')!;
  assert.equal(wh.mode & S_IFMT, S_IFCHR);
  assert.equal(wh.rdev, 0);
  assert.equal(code(() => readFile(v, '/usr/lib/link')), 'ENOENT', 'dangling now');
  // A new file over the whiteout.
  writeFile(v, '/usr/lib/a.so', 'again');
  assert.equal(readFile(v, '/usr/lib/a.so'), 'again');
  assert.equal(upperAt(upper, 'usr/lib/a.so')!.mode & S_IFMT, S_IFREG);
  // Metadata names are hidden and reserved.
  assert.ok(!ls(v, '/').includes(META_DIR));
  assert.equal(code(() => v.stat(root, v.root(), `/${META_DIR}`)), 'ENOENT');
  assert.equal(code(() => writeFile(v, '/.wh..wh.mine', 'x')), 'EPERM');
  assert.equal(code(() => v.mknod(root, v.root(), '/wh', S_IFCHR | 0o644, 0)), 'EPERM');
});

test('rmdir sees lower entries; rm -r then mkdir gives an opaque, empty dir', () => {
  const { v, lower, upper } = boot();
  assert.equal(code(() => v.rmdir(root, v.root(), '/usr/lib/sub')), 'ENOTEMPTY');
  v.unlink(root, v.root(), '/usr/lib/sub/b');
  v.rmdir(root, v.root(), '/usr/lib/sub');
  assert.equal(code(() => v.stat(root, v.root(), '/usr/lib/sub')), 'ENOENT');
  v.mkdir(root, v.root(), '/usr/lib/sub', 0o700);
  assert.deepEqual(ls(v, '/usr/lib/sub'), []);
  assert.equal(v.stat(root, v.root(), '/usr/lib/sub').nlink, 2);
  assert.ok(upper.lookup(upperAt(upper, 'usr/lib/sub')!, OPAQUE_MARKER), 'opaque marker in the upper dir');
  writeFile(v, '/usr/lib/sub/c', 'c');
  const again = boot(lower, upper);
  assert.deepEqual(ls(again.v, '/usr/lib/sub'), ['c'], 'still opaque after a reboot');
  // A merged dir's link count follows its visible subdirectories.
  assert.equal(again.v.stat(root, again.v.root(), '/usr/lib').nlink, 3);
  again.v.unlink(root, again.v.root(), '/usr/lib/sub/c');
  again.v.rmdir(root, again.v.root(), '/usr/lib/sub');
  assert.equal(again.v.stat(root, again.v.root(), '/usr/lib').nlink, 2);
  assert.equal(upperAt(upper, 'usr/lib/sub')!.rdev, 0, 'a whiteout again');
});

test('renaming a lower directory moves the whole tree', () => {
  const { v, lower, upper } = boot();
  const ino = v.stat(root, v.root(), '/usr/lib/sub/b').ino;
  const dirIno = v.stat(root, v.root(), '/usr/lib/sub').ino;
  const cwd = v.chdir(root, v.root(), '/usr/lib/sub');
  v.rename(root, v.root(), '/usr/lib', v.root(), '/opt');
  assert.equal(code(() => v.stat(root, v.root(), '/usr/lib')), 'ENOENT');
  assert.deepEqual(ls(v, '/usr'), []);
  assert.deepEqual(ls(v, '/opt').sort(), ['a.so', 'link', 'sub']);
  assert.equal(readFile(v, '/opt/sub/b'), 'BB');
  assert.equal(readFile(v, '/opt/link'), 'AAAA');
  assert.equal(v.stat(root, v.root(), '/opt/sub/b').ino, ino);
  const st = v.stat(root, v.root(), '/opt');
  assert.deepEqual([st.mode & 0o7777, st.uid, st.gid], [0o750, 7, 8]);
  assert.equal(v.pathOf(cwd), '/opt/sub', 'a cwd inside moves with it');
  assert.equal(v.stat(root, v.root(), '/usr').nlink, 2);
  // Moving it back over the old name (a whiteout now) and a reboot keep it intact.
  v.rename(root, v.root(), '/opt', v.root(), '/usr/lib');
  const again = boot(lower, upper);
  assert.deepEqual(ls(again.v, '/usr/lib').sort(), ['a.so', 'link', 'sub']);
  assert.equal(readFile(again.v, '/usr/lib/sub/b'), 'BB');
  assert.equal(again.v.stat(root, again.v.root(), '/usr/lib/sub/b').ino, ino);
  assert.equal(again.v.stat(root, again.v.root(), '/usr/lib/sub').ino, dirIno, 'directory origin recorded too');
  assert.equal(code(() => again.v.stat(root, again.v.root(), '/opt')), 'ENOENT');
  assert.deepEqual(ls(again.v, '/usr/lib/sub'), ['b'], 'metadata entries hidden');
});

test('renaming a lower directory over an empty lower one hides what the target had', () => {
  const lower = lowerWith((v) => {
    v.mkdir(root, v.root(), '/a', 0o755);
    writeFile(v, '/a/x', 'x');
    v.mkdir(root, v.root(), '/b', 0o755);
    writeFile(v, '/b/gone', 'g');
  });
  const { v, upper } = boot(lower);
  v.unlink(root, v.root(), '/b/gone');
  v.rename(root, v.root(), '/a', v.root(), '/b');
  assert.deepEqual(ls(v, '/b'), ['x']);
  assert.deepEqual(ls(v, '/'), ['b']);
  assert.deepEqual(ls(boot(lower, upper).v, '/b'), ['x']);
});

test('rename and link of lower files', () => {
  const { v, lower, upper } = boot();
  const ino = v.stat(root, v.root(), '/etc/motd').ino;
  v.rename(root, v.root(), '/etc/motd', v.root(), '/etc/issue');
  assert.equal(readFile(v, '/etc/issue'), 'hello');
  assert.equal(code(() => v.stat(root, v.root(), '/etc/motd')), 'ENOENT');
  assert.equal(v.stat(root, v.root(), '/etc/issue').ino, ino);
  assert.equal(upperAt(upper, 'etc/motd')!.mode & S_IFMT, S_IFCHR, 'old name whited out');
  // Over an existing lower file: replaced in one step.
  v.rename(root, v.root(), '/etc/issue', v.root(), '/usr/lib/a.so');
  assert.equal(readFile(v, '/usr/lib/a.so'), 'hello');
  // link: the lower file is copied up first, then linked in the upper.
  v.link(root, v.root(), '/usr/lib/sub/b', v.root(), '/etc/b2');
  assert.equal(v.stat(root, v.root(), '/usr/lib/sub/b').nlink, 2);
  writeFile(v, '/etc/b2', 'XY');
  assert.equal(readFile(v, '/usr/lib/sub/b'), 'XY');
  assert.equal(v.stat(root, v.root(), '/etc/b2').ino, v.stat(root, v.root(), '/usr/lib/sub/b').ino);
  assert.equal(dec(lower.read(upperAt(lower, 'usr/lib/sub/b')!, 0, 10)), 'BB');
  const again = boot(lower, upper);
  assert.equal(again.v.stat(root, again.v.root(), '/etc/b2').nlink, 2);
  assert.equal(readFile(again.v, '/usr/lib/sub/b'), 'XY');
});

test('lower hard links: counts as the lower reports, less the names removed', () => {
  const lower = lowerWith((v) => {
    writeFile(v, '/a', 'one');
    v.link(root, v.root(), '/a', v.root(), '/b');
  });
  const { v } = boot(lower);
  assert.equal(v.stat(root, v.root(), '/a').nlink, 2);
  assert.equal(v.stat(root, v.root(), '/a').ino, v.stat(root, v.root(), '/b').ino);
  v.unlink(root, v.root(), '/b');
  assert.equal(v.stat(root, v.root(), '/a').nlink, 1);
});

test('an fd opened before copy-up reads the copy', () => {
  const { v } = boot();
  const reader = open(v, '/etc/motd', O_RDONLY);
  writeFile(v, '/etc/motd', 'HELLO');
  assert.equal(dec(reader.ops.read(reader, 100) as Uint8Array), 'HELLO');
  assert.equal(v.fstat(reader.inode).size, 5);
  reader.unref();
});

test('an unlinked open lower file stays readable, and a new file gets its own inode', () => {
  const { v } = boot();
  const f = open(v, '/usr/lib/a.so', O_RDONLY);
  const ino = v.fstat(f.inode).ino;
  v.unlink(root, v.root(), '/usr/lib/a.so');
  assert.equal(v.fstat(f.inode).nlink, 0);
  assert.equal(dec(f.ops.read(f, 100) as Uint8Array), 'AAAA');
  writeFile(v, '/usr/lib/a.so', 'new');
  assert.notEqual(v.stat(root, v.root(), '/usr/lib/a.so').ino, ino);
  // A metadata change through the fd copies it up without a name (like O_TMPFILE).
  v.fchmod(root, f.inode, 0o600);
  assert.equal(v.fstat(f.inode).mode & 0o7777, 0o600);
  assert.equal(v.fstat(f.inode).ino, ino);
  assert.equal(dec(f.ops.read(f, 100, 0) as Uint8Array), 'AAAA');
  assert.deepEqual(ls(v, '/usr/lib').sort(), ['a.so', 'link', 'sub']);
  f.unref();
  assert.equal(readFile(v, '/usr/lib/a.so'), 'new');
});

test('a copied-up file unlinked while open loses its index entry on close, or at the next boot', () => {
  const { v, lower, upper } = boot();
  writeFile(v, '/etc/motd', 'copied');
  const index = (): string[] => upper.readdir(upperAt(upper, `${META_DIR}/index`)!).map((e) => e.name);
  assert.equal(index().length, 1);
  const f = open(v, '/etc/motd', O_RDWR);
  v.unlink(root, v.root(), '/etc/motd');
  assert.equal(v.fstat(f.inode).nlink, 0);
  assert.equal(index().length, 1, 'still open');
  boot(lower, upper); // as if the upper were persisted now and booted again
  assert.deepEqual(index(), []);
  f.unref();
  const { v: v2 } = boot(lower, upper);
  writeFile(v2, '/usr/lib/a.so', 'x');
  const g = open(v2, '/usr/lib/a.so', O_RDONLY);
  v2.unlink(root, v2.root(), '/usr/lib/a.so');
  assert.equal(index().length, 1);
  g.unref();
  assert.deepEqual(index(), []);
});

test('permissions are the merged inode\'s; copy-up itself needs none', () => {
  const { v } = boot();
  assert.equal(code(() => open(v, '/etc/motd', O_WRONLY, 0, user)), 'EACCES');
  v.mkdir(root, v.root(), '/home', 0o755);
  v.chown(root, v.root(), '/home', user.uid, user.gid);
  writeFile(v, '/home/mine', 'm', user);
  assert.equal(v.stat(root, v.root(), '/home/mine').uid, user.uid);
  // A user may write a lower file it may write, under dirs it cannot write.
  const lower = lowerWith((lv) => {
    lv.mkdir(root, lv.root(), '/d', 0o755);
    writeFile(lv, '/d/f', 'x');
    lv.chmod(root, lv.root(), '/d/f', 0o666);
  });
  const b = boot(lower);
  writeFile(b.v, '/d/f', 'y', user);
  assert.equal(readFile(b.v, '/d/f'), 'y');
  assert.equal(b.v.stat(root, b.v.root(), '/d/f').uid, 0);
});

test('a failed copy-up (ENOSPC) leaves the lower file in place and nothing half-made', () => {
  const lower = lowerWith((v) => writeFile(v, '/big', 'x'.repeat(10000)));
  const upper = new MemFs({ maxBytes: 4096 });
  const { v } = boot(lower, upper);
  assert.equal(code(() => writeFile(v, '/big', 'y')), 'ENOSPC');
  assert.equal(readFile(v, '/big').length, 10000);
  assert.equal(upper.bytesUsed, 0);
  assert.deepEqual(upper.readdir(upperAt(upper, `${META_DIR}/work`)!), []);
});

test('statfs reports the upper\'s usage', () => {
  const upper = new MemFs({ maxBytes: 1 << 20 });
  const { v } = boot(image(), upper);
  const before = v.statfs(root, v.root(), '/');
  assert.equal(before.type, 'overlay');
  writeFile(v, '/usr/lib/a.so', 'z'.repeat(40960));
  const after = v.statfs(root, v.root(), '/usr/lib');
  assert.equal(before.bfree - after.bfree, 10);
  assert.equal(after.bfree, upper.statfs().bfree);
  assert.equal(v.mounts()[0].readonly, false);
});

test('getcwd and .. work in lower-only, merged and upper-only directories', () => {
  const { v } = boot();
  const deep = v.chdir(root, v.root(), '/usr/lib/sub');
  assert.equal(v.pathOf(deep), '/usr/lib/sub');
  writeFile(v, '/usr/lib/touch', 't'); // /usr/lib becomes merged
  assert.equal(v.pathOf(deep), '/usr/lib/sub');
  assert.equal(v.pathOf(v.resolve(root, deep, '..')), '/usr/lib');
  v.mkdir(root, v.root(), '/usr/lib/sub/up', 0o755);
  assert.equal(v.pathOf(v.resolve(root, v.root(), '/usr/lib/sub/up')), '/usr/lib/sub/up');
  v.rmdir(root, v.root(), '/usr/lib/sub/up');
  v.unlink(root, v.root(), '/usr/lib/sub/b');
  v.rmdir(root, v.root(), '/usr/lib/sub');
  assert.equal(code(() => v.pathOf(deep)), 'ENOENT');
  assert.equal(code(() => v.mkdir(root, deep, 'x', 0o755)), 'ENOENT');
  assert.deepEqual(deep.fs.readdir(deep, root), []);
});

test('fifos, devices and symlinks pass through and copy up by type', () => {
  const lower = lowerWith((v) => {
    v.mknod(root, v.root(), '/p', 0o010644, 0);
    v.mknod(root, v.root(), '/tty', S_IFCHR | 0o620, 0x0501);
    v.symlink(root, v.root(), '/target', '/l');
  });
  const { v, upper } = boot(lower);
  v.chown(root, v.root(), '/tty', 0, 5);
  v.chown(root, v.root(), '/l', 9, 9, false);
  v.chmod(root, v.root(), '/p', 0o600);
  assert.equal(upperAt(upper, 'tty')!.rdev, 0x0501);
  assert.equal(v.stat(root, v.root(), '/tty').gid, 5);
  assert.equal(v.readlink(root, v.root(), '/l'), '/target');
  assert.equal(v.stat(root, v.root(), '/l', false).uid, 9);
  assert.equal(v.stat(root, v.root(), '/p').mode, 0o010600);
});

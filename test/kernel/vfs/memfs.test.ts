import assert from 'node:assert/strict';
import { test } from 'node:test';
import { S_IFDIR, S_IFREG } from '../../../src/abi/stat.js';
import { MemFs } from '../../../src/kernel/fs/memfs.js';
import type { Cred } from '../../../src/kernel/vfs/types.js';
import { enc, dec, code } from './helpers.js';

const root: Cred = { uid: 0, gid: 0, groups: [], pid: 1, umask: 0o022 };

test('files grow, read returns views, gaps read as zeros', () => {
  const fs = new MemFs();
  const f = fs.create(fs.root(), 'f', S_IFREG | 0o644, 0, root);
  for (let i = 0; i < 1000; i++) fs.write(f, f.size, enc('x'));
  assert.equal(f.size, 1000);
  assert.ok(f.data!.length >= 1000 && f.data!.length < 4096, 'capacity doubles');
  const view = fs.read(f, 0, 3);
  assert.equal(view.buffer, f.data!.buffer, 'read aliases storage');
  fs.write(f, 1005, enc('y'));
  assert.deepEqual([...fs.read(f, 999, 10)], [120, 0, 0, 0, 0, 0, 121]);
  fs.truncate(f, 2);
  fs.truncate(f, 4);
  assert.equal(dec(fs.read(f, 0, 10)), 'xx\0\0', 'shrink then grow re-zeroes');
  assert.equal(fs.read(f, 10, 5).length, 0);
});

test('inode numbers are unique and dirs count subdirs in nlink', () => {
  const fs = new MemFs();
  const a = fs.create(fs.root(), 'a', S_IFDIR | 0o755, 0, root);
  const b = fs.create(fs.root(), 'b', S_IFREG | 0o644, 0, root);
  fs.create(a, 'sub', S_IFDIR | 0o755, 0, root);
  assert.notEqual(a.ino, b.ino);
  assert.equal(fs.root().nlink, 3);
  assert.equal(a.nlink, 3);
  assert.equal(fs.lookup(a, '..'), fs.root());
  assert.equal(fs.lookup(fs.root(), '..'), fs.root());
  assert.deepEqual(fs.readdir(fs.root()).map((e) => e.name), ['a', 'b']);
});

test('byte quota gives ENOSPC after a partial write; maxFileSize gives EFBIG', () => {
  const fs = new MemFs({ maxBytes: 10, maxFileSize: 8 });
  const f = fs.create(fs.root(), 'f', S_IFREG | 0o644, 0, root);
  const g = fs.create(fs.root(), 'g', S_IFREG | 0o644, 0, root);
  assert.equal(fs.write(f, 0, enc('123456789')), 8, 'clipped at maxFileSize');
  assert.equal(code(() => fs.write(f, 8, enc('x'))), 'EFBIG');
  assert.equal(code(() => fs.truncate(f, 9)), 'EFBIG');
  assert.equal(fs.write(g, 0, enc('abcd')), 2, 'clipped at the quota');
  assert.equal(code(() => fs.write(g, 2, enc('z'))), 'ENOSPC');
  assert.equal(fs.write(g, 0, enc('AB')), 2, 'overwriting needs no space');
  assert.equal(fs.bytesUsed, 10);
  fs.unlink(fs.root(), 'f');
  assert.equal(fs.bytesUsed, 10, 'unlinked data stays until evicted');
  fs.evict(f);
  assert.equal(fs.bytesUsed, 2);
  assert.equal(fs.statfs().blocks, 1);
  assert.equal(fs.statfs().namelen, 255);
});

test('readonly fs refuses every mutation', () => {
  const fs = new MemFs();
  const f = fs.create(fs.root(), 'f', S_IFREG | 0o644, 0, root);
  fs.readonly = true;
  assert.equal(code(() => fs.create(fs.root(), 'g', S_IFREG | 0o644, 0, root)), 'EROFS');
  assert.equal(code(() => fs.write(f, 0, enc('x'))), 'EROFS');
  assert.equal(code(() => fs.truncate(f, 0)), 'EROFS');
  assert.equal(code(() => fs.setattr(f, { mode: 0o600 })), 'EROFS');
  assert.equal(code(() => fs.unlink(fs.root(), 'f')), 'EROFS');
  assert.equal(code(() => fs.rename(fs.root(), 'f', fs.root(), 'g')), 'EROFS');
  assert.equal(code(() => fs.symlink(fs.root(), 'l', 'f', root)), 'EROFS');
  assert.equal(code(() => fs.link(fs.root(), 'h', f)), 'EROFS');
  assert.equal(code(() => fs.read(f, 0, 1)), 'ok');
});

test('timestamps follow Linux', () => {
  let now = 1000;
  const fs = new MemFs({ now: () => now });
  const d = fs.root();
  now = 2000;
  const f = fs.create(d, 'f', S_IFREG | 0o644, 0, root);
  assert.equal(d.mtimeMs, 2000);
  assert.equal(f.ctimeMs, 2000);
  now = 3000;
  fs.write(f, 0, enc('x'));
  assert.equal(f.mtimeMs, 3000);
  assert.equal(f.ctimeMs, 3000);
  assert.equal(d.mtimeMs, 2000, 'writing a file does not touch its dir');
  now = 4000;
  fs.setattr(f, { mode: 0o600 });
  assert.equal(f.ctimeMs, 4000);
  assert.equal(f.mtimeMs, 3000);
  now = 5000;
  fs.link(d, 'g', f);
  assert.equal(f.ctimeMs, 5000);
  assert.equal(d.mtimeMs, 5000);
  now = 6000;
  fs.rename(d, 'g', d, 'h');
  assert.equal(f.ctimeMs, 6000);
});

test('rename replaces atomically and validates first', () => {
  const fs = new MemFs();
  const r = fs.root();
  const a = fs.create(r, 'a', S_IFDIR | 0o755, 0, root);
  const b = fs.create(r, 'b', S_IFDIR | 0o755, 0, root);
  fs.create(b, 'x', S_IFREG | 0o644, 0, root);
  assert.equal(code(() => fs.rename(r, 'a', r, 'b')), 'ENOTEMPTY');
  assert.equal(fs.lookup(r, 'a'), a, 'failed rename changed nothing');
  fs.unlink(b, 'x');
  fs.rename(r, 'a', r, 'b');
  assert.equal(fs.lookup(r, 'b'), a);
  assert.equal(b.nlink, 0);
  assert.equal(r.nlink, 3);
});

// The image format and ImageFs: serialize → read back, read-only rules,
// zero-copy reads, and the real base image that `npm run build` wrote.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { readImageHeader, serializeImage } from '../../src/abi/image.js';
import { S_IFCHR, S_IFDIR, S_IFIFO, S_IFREG, isDir, isLnk, isReg, makedev } from '../../src/abi/stat.js';
import { runtimeImageBytes } from '../../src/kernel/exec.js';
import { ImageFs } from '../../src/kernel/fs/imagefs.js';
import { MemFs } from '../../src/kernel/fs/memfs.js';
import type { Cred, FileSystem, Inode } from '../../src/kernel/vfs/types.js';
import { Vfs } from '../../src/kernel/vfs/vfs.js';
import { code, dec, enc } from '../kernel/vfs/helpers.js';

const root: Cred = { uid: 0, gid: 0, groups: [], pid: 1, umask: 0 };
// This file runs as dist/test/image/image.test.js; the repo root is three levels up.
const repo = new URL('../../../', import.meta.url);

/** A MemFs with one of everything an image must keep. */
function sample(): MemFs {
  let clock = 1_700_000_000_000;
  const fs = new MemFs({ now: () => (clock += 1000.5) });
  const r = fs.root();
  const etc = fs.create(r, 'etc', S_IFDIR | 0o755, 0, root);
  const f = fs.create(etc, 'passwd', S_IFREG | 0o644, 0, root);
  fs.write(f, 0, enc('root:x:0:0::/root:/bin/sh\n'));
  const home = fs.create(r, 'home', S_IFDIR | 0o755, 0, root);
  const user = fs.create(home, 'user', S_IFDIR | 0o700, 0, { ...root, uid: 1000, gid: 1000 });
  const big = fs.create(user, 'big.bin', S_IFREG | 0o600, 0, { ...root, uid: 1000, gid: 1000 });
  fs.write(big, 0, new Uint8Array(100_000).map((_, i) => i * 7));
  fs.create(user, 'empty', S_IFREG | 0o644, 0, root);
  fs.create(r, 'tmp', S_IFDIR | 0o1777, 0, root);
  const sg = fs.create(r, 'shared', S_IFDIR | 0o2775, 0, { ...root, gid: 50 });
  fs.create(sg, 'sub', S_IFDIR | 0o755, 0, root);
  const tool = fs.create(r, 'tool', S_IFREG | 0o4755, 0, root);
  fs.write(tool, 0, enc('#!/bin/sh\n'));
  fs.link(etc, 'passwd.hard', f);
  fs.link(user, 'passwd-link', f);
  fs.symlink(r, 'bin', 'usr/bin', root);
  fs.symlink(etc, 'dangling', '/nowhere/at/all', root);
  fs.create(r, 'fifo', S_IFIFO | 0o644, 0, root);
  fs.create(r, 'null', S_IFCHR | 0o666, makedev(1, 3), root);
  const uni = fs.create(r, 'ünïcødé ✓', S_IFREG | 0o644, 0, root);
  fs.write(uni, 0, enc('é'));
  fs.setattr(f, { mtimeMs: 1234.5 });
  return fs;
}

/** Every path under the root, with its inode, depth first. */
function walk(fs: FileSystem, dir = fs.root(), path = ''): [string, Inode][] {
  const out: [string, Inode][] = [];
  for (const e of fs.readdir(dir, root)) {
    const node = fs.lookup(dir, e.name, root)!;
    out.push([`${path}/${e.name}`, node]);
    if (isDir(node.mode)) out.push(...walk(fs, node, `${path}/${e.name}`));
  }
  return out.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

function contents(fs: FileSystem, node: Inode): string | null {
  if (isReg(node.mode)) return createHash('sha256').update(fs.read(node, 0, node.size)).digest('hex');
  if (isLnk(node.mode)) return fs.readlink(node);
  return null;
}

test('serialize → ImageFs keeps files, dirs, symlinks, modes, owners, links, times', () => {
  const mem = sample();
  const img = new ImageFs(serializeImage(mem));
  const a = walk(mem);
  const b = walk(img);
  assert.deepEqual(b.map(([p]) => p), a.map(([p]) => p));
  for (const [i, [path, m]] of a.entries()) {
    const n = b[i][1];
    for (const k of ['mode', 'uid', 'gid', 'nlink', 'size', 'rdev', 'mtimeMs'] as const) {
      assert.equal(n[k], m[k], `${path}: ${k}`);
    }
    assert.equal(contents(img, n), contents(mem, m), `${path}: contents`);
  }
  const r = img.root();
  assert.equal(r.nlink, mem.root().nlink);
  assert.equal(r.mode, mem.root().mode);
  // Hard links are one inode; identity is stable per ino.
  const etc = img.lookup(r, 'etc')!;
  const user = img.lookup(img.lookup(r, 'home')!, 'user')!;
  const p1 = img.lookup(etc, 'passwd')!;
  assert.equal(img.lookup(etc, 'passwd.hard'), p1);
  assert.equal(img.lookup(user, 'passwd-link'), p1);
  assert.equal(p1.nlink, 3);
  assert.equal(p1.mtimeMs, 1234.5);
  assert.equal(img.lookup(r, 'etc'), etc);
  // Parents and names of directories.
  assert.equal(img.lookup(user, '..'), img.lookup(r, 'home'));
  assert.equal(img.lookup(r, '..'), r);
  assert.equal(img.dirName(img.lookup(r, 'home')!, user), 'user');
  assert.equal(img.lookup(r, 'missing'), null);
  assert.equal(dec(img.read(img.lookup(r, 'ünïcødé ✓')!, 0, 10)), 'é');
  // Partial reads, reads past the end.
  assert.equal(dec(img.read(p1, 6, 3)), ':0:');
  assert.equal(img.read(p1, 1000, 3).length, 0);
  assert.equal(code(() => img.read(etc, 0, 1)), 'EISDIR');
  assert.equal(code(() => img.readlink(p1)), 'EINVAL');
});

test('ImageFs reads are views of the image, not copies', () => {
  const bytes = serializeImage(sample());
  const img = new ImageFs(bytes);
  const big = img.lookup(img.lookup(img.lookup(img.root(), 'home')!, 'user')!, 'big.bin')!;
  const view = img.read(big, 10, 50_000);
  assert.equal(view.buffer, bytes.buffer);
  assert.equal(view.length, 50_000);
  assert.equal(view[0], (10 * 7) & 0xff);
  // Also for an image that is itself a view into a larger buffer.
  const padded = new Uint8Array(bytes.length + 24);
  padded.set(bytes, 24);
  const img2 = new ImageFs(padded.subarray(24));
  const p = img2.lookup(img2.lookup(img2.root(), 'etc')!, 'passwd')!;
  assert.equal(img2.read(p, 0, 4).buffer, padded.buffer);
  assert.equal(dec(img2.read(p, 0, 4)), 'root');
});

test('every mutation of an ImageFs fails with EROFS, directly and through the VFS', () => {
  const img = new ImageFs(serializeImage(sample()));
  const r = img.root();
  const etc = img.lookup(r, 'etc')!;
  const f = img.lookup(etc, 'passwd')!;
  assert.equal(img.readonly, true);
  const ops: [string, () => unknown][] = [
    ['create', () => img.create(r, 'x', S_IFREG | 0o644, 0, root)],
    ['mkdir', () => img.create(r, 'd', S_IFDIR | 0o755, 0, root)],
    ['symlink', () => img.symlink(r, 'l', 't', root)],
    ['link', () => img.link(r, 'h', f)],
    ['unlink', () => img.unlink(etc, 'passwd')],
    ['rmdir', () => img.rmdir(r, 'tmp')],
    ['rename', () => img.rename(etc, 'passwd', r, 'p')],
    ['write', () => img.write(f, 0, enc('x'))],
    ['truncate', () => img.truncate(f, 0)],
    ['setattr', () => img.setattr(f, { mode: 0o600 })],
  ];
  for (const [name, op] of ops) assert.equal(code(op), 'EROFS', name);
  const vfs = new Vfs(img);
  const vops: [string, () => unknown][] = [
    ['mkdir', () => vfs.mkdir(root, r, '/newdir', 0o755)],
    ['open O_CREAT', () => vfs.open(root, r, '/newfile', 0o101, 0o644)],
    ['open O_WRONLY', () => vfs.open(root, r, '/etc/passwd', 0o1)],
    ['unlink', () => vfs.unlink(root, r, '/etc/passwd')],
    ['chmod', () => vfs.chmod(root, r, '/etc/passwd', 0o600)],
    ['chown', () => vfs.chown(root, r, '/etc/passwd', 1, 1)],
    ['rename', () => vfs.rename(root, r, '/etc/passwd', r, '/etc/x')],
    ['symlink', () => vfs.symlink(root, r, 'x', '/sym')],
  ];
  for (const [name, op] of vops) assert.equal(code(op), 'EROFS', `vfs ${name}`);
  assert.equal(contents(img, f), contents(img, img.lookup(etc, 'passwd.hard')!), 'nothing changed');
  const st = img.statfs();
  assert.equal(st.blocks, Math.ceil(img.bytes / 4096));
  assert.equal(st.bfree, 0);
});

test('damaged images are refused', () => {
  const bytes = serializeImage(sample());
  assert.throws(() => new ImageFs(bytes.subarray(0, 100)), /corrupt|bad magic/);
  assert.throws(() => new ImageFs(new Uint8Array(64)), /bad magic/);
  const wrongVersion = bytes.slice();
  wrongVersion[8] = 99;
  assert.throws(() => new ImageFs(wrongVersion), /version/);
});

// ---------------------------------------------------------------- the built base image

interface Manifest {
  version: string;
  file: string;
  sha256: string;
  bytes: number;
  files: number;
  gz: { file: string; bytes: number };
  buildMs: number;
}

function builtImage(): { manifest: Manifest; bytes: Uint8Array } {
  const manifest = JSON.parse(readFileSync(new URL('dist/image/manifest.json', repo), 'utf8')) as Manifest;
  return { manifest, bytes: new Uint8Array(readFileSync(new URL(`dist/image/${manifest.file}`, repo))) };
}

test('the built image matches its manifest and opens in well under a millisecond', (t) => {
  const { manifest, bytes } = builtImage();
  const sha = createHash('sha256').update(bytes).digest('hex');
  assert.equal(manifest.sha256, sha);
  assert.equal(manifest.file, `agentos-base-${sha.slice(0, 16)}.img`);
  assert.equal(manifest.bytes, bytes.length);
  assert.equal(manifest.files, readImageHeader(bytes).inodeCount);
  const pkg = JSON.parse(readFileSync(new URL('package.json', repo), 'utf8')) as { version: string };
  assert.equal(manifest.version, pkg.version);

  // Opening = header check; a full walk = every inode and directory decoded.
  const median = (f: () => void, n: number): number => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      f();
      times.push(performance.now() - t0);
    }
    return times.sort((a, b) => a - b)[n >> 1];
  };
  let count = 0;
  for (let i = 0; i < 20; i++) new ImageFs(bytes); // warm the JIT
  const openMs = median(() => void new ImageFs(bytes), 200);
  const walkMs = median(() => void (count = walk(new ImageFs(bytes)).length), 50);
  t.diagnostic(`image ${bytes.length} bytes, ${manifest.files} inodes: open ${(openMs * 1000).toFixed(1)} µs, ` +
    `full index walk ${(walkMs * 1000).toFixed(1)} µs`);
  assert.equal(count + 1 >= manifest.files, true, 'walk saw every inode (hard links count once)');
  assert.ok(openMs < 1, `open took ${openMs} ms`);
  assert.ok(walkMs < 50, `walk took ${walkMs} ms`);
});

test('the gzipped copy the browser fetches is the image, byte for byte, and at most 1.5 MB', () => {
  const { manifest, bytes } = builtImage();
  assert.equal(manifest.gz.file, `${manifest.file}.gz`);
  const gz = readFileSync(new URL(`dist/image/${manifest.gz.file}`, repo));
  assert.equal(manifest.gz.bytes, gz.length);
  assert.deepEqual(new Uint8Array(gunzipSync(gz)), bytes);
  // Issue 18's budget for the image on the wire.
  assert.ok(gz.length <= 1_500_000, `image.gz is ${gz.length} bytes`);
});

test('the built image has the FHS, /etc and the runtime images with Linux modes', () => {
  const { bytes } = builtImage();
  const vfs = new Vfs(new ImageFs(bytes));
  const st = (p: string) => vfs.stat(root, vfs.root(), p, false);
  const expectDir = (p: string, mode: number, uid = 0) => {
    const s = st(p);
    assert.equal(s.mode, S_IFDIR | mode, `${p} mode ${s.mode.toString(8)}`);
    assert.equal(s.uid, uid, `${p} uid`);
    assert.equal(s.gid, uid, `${p} gid`);
  };
  for (const p of ['/bin', '/sbin', '/usr/bin', '/usr/sbin', '/usr/local/bin', '/usr/local/sbin', '/usr/libexec/agentos',
    '/etc', '/var', '/dev', '/opt/agentos', '/opt/agentos/bin']) expectDir(p, 0o755);
  expectDir('/home/user', 0o755, 1000);
  expectDir('/root', 0o700);
  expectDir('/tmp', 0o1777);
  expectDir('/var/tmp', 0o1777);
  expectDir('/proc', 0o555);

  const js = st('/usr/libexec/agentos/js');
  assert.equal(js.mode, S_IFREG | 0o755);
  const f = vfs.open(root, vfs.root(), '/usr/libexec/agentos/js', 0);
  assert.ok('ops' in f);
  assert.deepEqual([...(f.ops.read(f, 100) as Uint8Array)], [...runtimeImageBytes('js')]);
  f.unref();

  const text = (p: string) => {
    const file = vfs.open(root, vfs.root(), p, 0);
    assert.ok('ops' in file);
    try {
      return dec(file.ops.read(file, 1 << 20) as Uint8Array);
    } finally {
      file.unref();
    }
  };
  for (const p of ['/etc/passwd', '/etc/group', '/etc/hostname', '/etc/hosts', '/etc/os-release', '/etc/profile',
    '/etc/shells']) {
    const s = st(p);
    assert.equal(s.mode, S_IFREG | 0o644, `${p} mode ${s.mode.toString(8)}`);
    assert.equal(s.uid, 0, `${p} uid`);
    assert.equal(s.gid, 0, `${p} gid`);
  }
  assert.match(text('/etc/passwd'), /^root:x:0:0:/m);
  assert.match(text('/etc/passwd'), /^user:x:1000:1000:agentOS user:\/home\/user:\/bin\/sh$/m);
  assert.match(text('/etc/passwd'), /^nobody:x:65534:65534:/m);
  assert.equal(text('/etc/hostname'), 'agentos\n');
  const pkg = JSON.parse(readFileSync(new URL('package.json', repo), 'utf8')) as { version: string };
  assert.match(text('/etc/os-release'), new RegExp(`^VERSION_ID="${pkg.version.replace(/\./g, '\\.')}"$`, 'm'));
  assert.match(text('/etc/os-release'), /^ID=agentos$/m);
  assert.match(text('/etc/profile'), /^PATH=\/usr\/local\/sbin:\/usr\/local\/bin:\/opt\/agentos\/bin:\/usr\/sbin:\/usr\/bin:\/sbin:\/bin$/m);
  assert.deepEqual(text('/etc/shells').split('\n').filter((l) => l.startsWith('/')), ['/bin/sh', '/bin/bash']);
  const profile = st('/home/user/.profile');
  assert.equal(profile.uid, 1000);
  assert.equal(profile.mode, S_IFREG | 0o644);
});

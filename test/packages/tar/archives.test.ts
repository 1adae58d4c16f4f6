// Interoperability of agentOS tar, gzip and zip/unzip with the real tools
// (GNU tar, GNU gzip, Info-ZIP zip/unzip), both ways: archives made in the VM
// are unpacked on the host by the real tools and archives made by the real
// tools are unpacked in the VM, and the unpacked trees must match the
// original file by file — contents (md5), modes, mtimes, symlink targets,
// hard links (tar), empty directories, names over 100 and 255 bytes, a
// non-ASCII name, binary data and a 20 MB file. Also timed: tar -czf of the
// 20 MB tree and gzip -c of a 50 MB file, agentOS against native.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { boot, type Machine } from '../../../src/host/node/index.js';

const T = 1600000000;
const BIG = 20 * 1024 * 1024;
const HUGE = 50 * 1024 * 1024;
const ENV = { PATH: '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C', TZ: 'UTC', HOME: '/tmp' };
const L1 = 'l'.repeat(120);
const L2 = 'm'.repeat(150);

/** Semi-compressible bytes: runs of text with pseudo-random bytes mixed in (deterministic). */
function data(n: number, seed: number): Buffer {
  const b = Buffer.alloc(n);
  const words = Buffer.from('alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu\n');
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    b[i] = (s >>> 24) < 40 ? s & 0xff : words[i % words.length];
  }
  return b;
}

type Node =
  | { kind: 'dir'; path: string; mode: number }
  | { kind: 'file'; path: string; mode: number; data: Buffer }
  | { kind: 'symlink'; path: string; target: string }
  | { kind: 'hardlink'; path: string; target: string };

/** The tree every test archives (paths relative to its root). */
const TREE: Node[] = [
  { kind: 'dir', path: 'tree', mode: 0o755 },
  { kind: 'dir', path: 'tree/dir', mode: 0o755 },
  { kind: 'dir', path: 'tree/dir/sub', mode: 0o750 },
  { kind: 'dir', path: 'tree/empty', mode: 0o700 },
  { kind: 'dir', path: `tree/${L1}`, mode: 0o755 },
  { kind: 'dir', path: `tree/${L1}/${L2}`, mode: 0o755 },
  { kind: 'file', path: 'tree/dir/hello.txt', mode: 0o644, data: Buffer.from('hello\n') },
  { kind: 'file', path: 'tree/dir/run.sh', mode: 0o755, data: Buffer.from('#!/bin/sh\necho run\n') },
  { kind: 'file', path: 'tree/dir/secret', mode: 0o600, data: Buffer.from('s3cret\n') },
  { kind: 'file', path: 'tree/dir/empty-file', mode: 0o640, data: Buffer.alloc(0) },
  { kind: 'file', path: 'tree/dir/space name.txt', mode: 0o644, data: Buffer.from('spaces\n') },
  { kind: 'file', path: 'tree/dir/sub/bin', mode: 0o644, data: Buffer.concat(Array.from({ length: 64 }, (_, i) => Buffer.from([...Array(256).keys()].map((x) => (x * (i + 1)) & 0xff)))) },
  { kind: 'file', path: 'tree/dir/caf\u00e9.txt', mode: 0o644, data: Buffer.from('utf-8 name\n') },
  { kind: 'file', path: `tree/${L1}/${L2}/deep.txt`, mode: 0o644, data: Buffer.from('deep\n') },
  { kind: 'file', path: 'tree/big.dat', mode: 0o644, data: data(BIG, 1) },
  { kind: 'symlink', path: 'tree/dir/link', target: 'hello.txt' },
  { kind: 'symlink', path: 'tree/abs', target: '/etc/passwd' },
  { kind: 'symlink', path: 'tree/dangling', target: 'nowhere' },
  { kind: 'symlink', path: 'tree/longlink', target: 'z'.repeat(150) },
  { kind: 'hardlink', path: 'tree/dir/hard', target: 'tree/dir/hello.txt' },
];

/** Directories in `TREE`, deepest first (their times are set after their contents). */
const dirsDeepestFirst = TREE.filter((n) => n.kind === 'dir').reverse();

let root: string;
let m: Machine;

/** Build the tree under `base` on the host. */
function buildHost(base: string): void {
  for (const n of TREE) {
    const p = join(base, n.path);
    if (n.kind === 'dir') mkdirSync(p, { recursive: true });
    else if (n.kind === 'file') {
      writeFileSync(p, n.data);
      chmodSync(p, n.mode);
      utimesSync(p, T, T);
    } else if (n.kind === 'symlink') symlinkSync(n.target, p);
    else linkSync(join(base, n.target), p);
  }
  for (const n of dirsDeepestFirst) {
    chmodSync(join(base, n.path), n.mode);
    utimesSync(join(base, n.path), T, T);
  }
}

/** Build the same tree under `base` in the VM. */
async function buildVm(base: string): Promise<void> {
  await m.mkdirp(base);
  for (const n of TREE) {
    const p = join(base, n.path);
    if (n.kind === 'dir') await m.mkdirp(p);
    else if (n.kind === 'file') {
      await m.writeFile(p, n.data);
      await m.syscall('chmod', p, n.mode);
      await m.syscall('utimes', p, T * 1000, T * 1000);
    } else if (n.kind === 'symlink') await m.syscall('symlink', n.target, p);
    else await m.syscall('link', join(base, n.target), p);
  }
  for (const n of dirsDeepestFirst) {
    await m.syscall('chmod', join(base, n.path), n.mode);
    await m.syscall('utimes', join(base, n.path), T * 1000, T * 1000);
  }
}

/**
 * One line per entry: type, mode, mtime, size, link count (when asked), md5
 * or link target. Symlinks' own times are left out (neither side can set
 * them from the tree builder the same way).
 */
function manifestScript(dir: string, links: boolean): string {
  const h = links ? ' %h' : '';
  return `cd '${dir}' && find . | LC_ALL=C sort | while IFS= read -r f; do
  if [ -L "$f" ]; then echo "L $f -> $(readlink "$f")";
  elif [ -d "$f" ]; then echo "D $(stat -c '%a %Y' "$f") $f";
  else echo "F $(stat -c '%a %Y %s${h}' "$f") $(md5sum < "$f" | cut -c1-32) $f"; fi
done`;
}

function host(script: string, cwd = root): { stdout: string; stderr: string; status: number; ms: number } {
  const t0 = performance.now();
  const r = spawnSync('bash', ['-c', script], { cwd, env: ENV, encoding: 'latin1', maxBuffer: 256 << 20 });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status ?? -1, ms: performance.now() - t0 };
}

async function vm(script: string, cwd = root): Promise<{ stdout: string; stderr: string; status: number; ms: number }> {
  const t0 = performance.now();
  const r = await m.run(['/bin/bash', '-c', script], { cwd, env: ENV, timeoutMs: 600_000 });
  const s = (b: Uint8Array) => Buffer.from(b).toString('latin1');
  return { stdout: s(r.stdout), stderr: s(r.stderr), status: r.exitCode, ms: performance.now() - t0 };
}

function ok(r: { stdout: string; stderr: string; status: number }, what: string): string {
  assert.equal(r.status, 0, `${what} failed (${r.status}): ${r.stderr.slice(0, 2000)}`);
  return r.stdout;
}

/** Copy a file from the VM to the same path on the host, or the other way. */
async function toHost(path: string): Promise<void> {
  writeFileSync(path, await m.readFile(path));
}
async function toVm(path: string): Promise<void> {
  await m.writeFile(path, readFileSync(path));
}

let original: { links: string; noLinks: string };

before(async () => {
  for (const tool of ['tar', 'gzip', 'zip', 'unzip']) {
    assert.equal(spawnSync(tool, ['-h'], { stdio: 'ignore' }).error, undefined, `${tool} is needed on the host`);
  }
  root = realpathSync(mkdtempSync(join(tmpdir(), 'agentos-archives-')));
  m = await boot();
  buildHost(join(root, 'src'));
  await buildVm(join(root, 'src'));
  original = {
    links: ok(host(manifestScript(join(root, 'src/tree'), true)), 'host manifest'),
    noLinks: ok(host(manifestScript(join(root, 'src/tree'), false)), 'host manifest'),
  };
  // The VM's copy must be the same tree, or nothing below means anything.
  assert.equal(ok(await vm(manifestScript(join(root, 'src/tree'), true)), 'vm manifest'), original.links);
});

after(async () => {
  if (m) await m.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

let previous: string | null = null;

/**
 * A fresh directory at the same path on both sides. The previous test's is
 * removed first: together they come to over 400 MB, more than some CI disks
 * have free.
 */
async function fresh(name: string): Promise<string> {
  if (previous) {
    rmSync(previous, { recursive: true, force: true });
    ok(await vm(`rm -rf '${previous}'`), 'rm -rf');
  }
  const dir = (previous = join(root, name));
  mkdirSync(dir, { recursive: true });
  await m.mkdirp(dir);
  return dir;
}

const OWNER = '--owner=root:0 --group=root:0';

test('tar: agentOS archive (GNU format) extracted by GNU tar', async () => {
  const out = await fresh('t1');
  ok(await vm(`tar ${OWNER} -cf ${out}/vm.tar -C ${root}/src tree`), 'agentOS tar -c');
  await toHost(`${out}/vm.tar`);
  ok(host(`mkdir x && tar -xf vm.tar -C x`, out), 'GNU tar -x');
  assert.equal(ok(host(manifestScript(`${out}/x/tree`, true)), 'manifest'), original.links);
});

test('tar: agentOS -czf extracted by GNU tar -xzf, gzip -t checks it', async () => {
  const out = await fresh('t2');
  ok(await vm(`tar ${OWNER} -czf ${out}/vm.tgz -C ${root}/src tree`), 'agentOS tar -cz');
  await toHost(`${out}/vm.tgz`);
  ok(host('gzip -t vm.tgz && mkdir x && tar -xzf vm.tgz -C x', out), 'GNU gzip -t, tar -xz');
  assert.equal(ok(host(manifestScript(`${out}/x/tree`, true)), 'manifest'), original.links);
});

test('tar: GNU tar lists an agentOS archive as agentOS does', async () => {
  const out = await fresh('t3');
  ok(await vm(`tar ${OWNER} --sort=name -cf ${out}/vm.tar -C ${root}/src tree`), 'agentOS tar -c');
  await toHost(`${out}/vm.tar`);
  const mine = ok(await vm('tar -tvf vm.tar', out), 'agentOS tar -tv');
  assert.equal(ok(host('tar -tvf vm.tar', out), 'GNU tar -tv'), mine);
});

test('tar: same bytes as GNU tar for the same tree (no symlinks: their times differ)', async () => {
  const out = await fresh('t4');
  const cmd = `tar ${OWNER} --sort=name --exclude=link --exclude=abs --exclude=dangling --exclude=longlink -cf - -C ${root}/src tree | md5sum`;
  assert.equal(ok(await vm(cmd, out), 'agentOS'), ok(host(cmd, out), 'GNU'));
});

for (const format of ['gnu', 'posix', 'ustar']) {
  test(`tar: GNU tar --format=${format} extracted by agentOS tar`, async () => {
    const out = await fresh(`t5-${format}`);
    // ustar cannot hold the 121-byte directory name (no '/' to split at) or the 150-byte link target.
    const skip = format === 'ustar' ? `--exclude=tree/${L1} --exclude=tree/longlink` : '';
    ok(host(`tar ${OWNER} --format=${format} ${skip} -cf gnu.tar -C ${root}/src tree`, out), 'GNU tar -c');
    await toVm(`${out}/gnu.tar`);
    ok(await vm('mkdir x && tar -xf gnu.tar -C x', out), 'agentOS tar -x');
    const got = ok(await vm(manifestScript(`${out}/x/tree`, true)), 'manifest');
    const want = format === 'ustar'
      ? original.links.split('\n').filter((l) => !l.includes(L1) && !l.includes('./longlink ')).join('\n')
      : original.links;
    assert.equal(got, want);
  });
}

test('tar: GNU tar -czf read by agentOS tar from a pipe', async () => {
  const out = await fresh('t6');
  ok(host(`tar ${OWNER} -czf gnu.tgz -C ${root}/src tree`, out), 'GNU tar -cz');
  await toVm(`${out}/gnu.tgz`);
  ok(await vm('mkdir x && cat gnu.tgz | tar -xzf - -C x', out), 'agentOS tar -xz from stdin');
  assert.equal(ok(await vm(manifestScript(`${out}/x/tree`, true)), 'manifest'), original.links);
});

test('gzip: both ways, with the 20 MB file, names, times and several members', async () => {
  const out = await fresh('g1');
  const big = `${root}/src/tree/big.dat`;
  ok(await vm(`gzip -c ${big} > vm.gz && gzip -9 -c ${big} > vm9.gz && cat vm.gz vm9.gz > multi.gz && cp ${big} named && touch -d @${T} named && gzip named`, out), 'agentOS gzip');
  for (const f of ['vm.gz', 'vm9.gz', 'multi.gz', 'named.gz']) await toHost(`${out}/${f}`);
  const want = ok(host(`md5sum < ${big}`), 'md5');
  assert.equal(ok(host('gzip -dc vm.gz | md5sum', out), 'GNU gunzip'), want);
  assert.equal(ok(host('gzip -dc vm9.gz | md5sum', out), 'GNU gunzip -9'), want);
  assert.equal(ok(host('gzip -dc multi.gz | head -c 20971520 | md5sum; gzip -dc multi.gz | wc -c', out), 'GNU multi'), `${want}${2 * BIG}\n`);
  // GNU gzip restores the name and time agentOS gzip stored.
  ok(host('gzip -dN named.gz', out), 'GNU gunzip -N');
  assert.equal(ok(host('stat -c "%Y %s" named', out), 'stat'), `${T} ${BIG}\n`);
  ok(host(`gzip -c ${big} > gnu.gz && gzip -9c ${big} > gnu9.gz && cat gnu.gz gnu9.gz > gmulti.gz`, out), 'GNU gzip');
  for (const f of ['gnu.gz', 'gnu9.gz', 'gmulti.gz']) await toVm(`${out}/${f}`);
  assert.equal(ok(await vm('gzip -dc gnu.gz | md5sum; gunzip -c gnu9.gz | md5sum; zcat gmulti.gz | wc -c; gzip -t gmulti.gz', out), 'agentOS gunzip'), `${want}${want}${2 * BIG}\n`);
  assert.equal(ok(await vm('gzip -l gnu.gz', out), 'agentOS gzip -l'), ok(host('gzip -l gnu.gz', out), 'GNU gzip -l'));
});

test('zip: agentOS zip -r -y extracted by Info-ZIP unzip', async () => {
  const out = await fresh('z1');
  ok(await vm(`cd ${root}/src && zip -qry ${out}/vm.zip tree`), 'agentOS zip');
  await toHost(`${out}/vm.zip`);
  ok(host('unzip -tq vm.zip && mkdir x && cd x && unzip -q ../vm.zip', out), 'Info-ZIP unzip');
  assert.equal(ok(host(manifestScript(`${out}/x/tree`, false)), 'manifest'), original.noLinks);
});

test('zip: Info-ZIP zip -r -y extracted by agentOS unzip', async () => {
  const out = await fresh('z2');
  ok(host(`cd ${root}/src && zip -qry ${out}/iz.zip tree`), 'Info-ZIP zip');
  await toVm(`${out}/iz.zip`);
  ok(await vm('unzip -tq iz.zip && mkdir x && cd x && unzip -q ../iz.zip', out), 'agentOS unzip');
  assert.equal(ok(await vm(manifestScript(`${out}/x/tree`, false)), 'manifest'), original.noLinks);
  assert.equal(ok(await vm('unzip -v iz.zip', out), 'agentOS unzip -v'), ok(host('unzip -v iz.zip', out), 'Info-ZIP unzip -v'));
});

test('zip: an agentOS zip written to a pipe (data descriptors) read by Info-ZIP unzip', async () => {
  const out = await fresh('z3');
  ok(await vm(`cd ${root}/src/tree/dir && zip -q - hello.txt sub/bin run.sh | cat > ${out}/pipe.zip`), 'agentOS zip -');
  await toHost(`${out}/pipe.zip`);
  assert.equal(
    ok(host('unzip -p pipe.zip | md5sum', out), 'Info-ZIP unzip -p'),
    ok(host(`cat hello.txt sub/bin run.sh | md5sum`, `${root}/src/tree/dir`), 'md5'),
  );
});

/** Native: wall time and the command's CPU time (user + sys, from bash's `time`). */
function hostTimed(script: string, cwd: string): { ms: number; cpu: number } {
  const r = host(`TIMEFORMAT='%3U %3S'; time { ${script}; }`, cwd);
  assert.equal(r.status, 0, r.stderr);
  const [user, sys] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return { ms: r.ms, cpu: (user + sys) * 1000 };
}

/** agentOS: wall time and the CPU time of this whole Node process (kernel and process workers are its threads). */
async function vmTimed(script: string, cwd: string): Promise<{ ms: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const r = await vm(script, cwd);
  const c = process.cpuUsage(c0);
  ok(r, script);
  return { ms: r.ms, cpu: (c.user + c.system) / 1000 };
}

// Timings on a shared machine are noisy: CPU time is the steadier figure.
test('perf: tar -czf of the 20 MB tree and gzip -c of a 50 MB file, against native', async () => {
  const out = await fresh('p1');
  const huge = data(HUGE, 7);
  writeFileSync(`${out}/huge`, huge);
  await m.writeFile(`${out}/huge`, huge);
  const runs = [
    { what: 'tar -czf 20 MB tree', cmd: `tar -czf tree.tgz -C ${root}/src tree`, file: 'tree.tgz' },
    { what: 'gzip -c 50 MB file', cmd: 'gzip -c huge > huge.gz', file: 'huge.gz' },
    { what: 'gzip -dc 50 MB file', cmd: 'gzip -dc huge.gz > huge.out', file: 'huge.out' },
  ];
  for (const r of runs) {
    const n = hostTimed(r.cmd, out);
    const nativeBytes = readFileSync(`${out}/${r.file}`).length;
    if (r.file === 'huge.gz') await toVm(`${out}/huge.gz`);
    const a = await vmTimed(r.cmd, out);
    const bytes = (await m.stat(`${out}/${r.file}`)).size;
    const s = (ms: number) => (ms / 1000).toFixed(2);
    console.log(
      `perf: ${r.what}: agentOS ${s(a.cpu)} s CPU / ${s(a.ms)} s wall (${bytes} bytes), ` +
        `native ${s(n.cpu)} s CPU / ${s(n.ms)} s wall (${nativeBytes} bytes); CPU ratio ${(a.cpu / n.cpu).toFixed(1)}x`,
    );
  }
  // What agentOS wrote is real gzip.
  await toHost(`${out}/huge.gz`);
  assert.equal(ok(host('gzip -dc huge.gz | md5sum', out), 'GNU gunzip'), ok(host('md5sum < huge', out), 'md5'));
});

// Host directory mounts on the Node host: live two-way access, and
// every way out of the host directory tried and refused — symlinks (the
// host's and the guest's), `..`, a symlink swapped in under the guest's feet,
// hard links and renames across the mount, and read-only mounts.

import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';

let top: string; // holds the mounted dir and a sibling "secret" the guest must never reach
let dir: string;
let vm: AgentVM;

const run = (cmd: string) => vm.exec(cmd);
const out = async (cmd: string) => (await vm.exec(cmd)).stdout;

before(async () => {
  top = mkdtempSync(join(tmpdir(), 'agentos-mount-'));
  dir = join(top, 'project');
  mkdirSync(dir);
  writeFileSync(join(top, 'secret'), 'host secret\n');
  writeFileSync(join(dir, 'readme.txt'), 'from the host\n');
  symlinkSync(join(top, 'secret'), join(dir, 'abs-link'));
  symlinkSync('../secret', join(dir, 'rel-link'));
  vm = new AgentVM({ mounts: { '/mnt/project': dir, '/mnt/ro': { host: dir, readOnly: true } } });
  await vm.start();
});

after(async () => {
  await vm.stop();
  rmSync(top, { recursive: true, force: true });
});

test('mounts: files flow both ways at once, with no copy step', async () => {
  assert.equal(await out('cat /mnt/project/readme.txt'), 'from the host\n');
  await run('echo from the guest > /mnt/project/guest.txt && mkdir -p /mnt/project/a/b && echo x > /mnt/project/a/b/c');
  assert.equal(readFileSync(join(dir, 'guest.txt'), 'utf8'), 'from the guest\n');
  assert.equal(readFileSync(join(dir, 'a/b/c'), 'utf8'), 'x\n');
  writeFileSync(join(dir, 'later.txt'), 'written by the host after boot\n');
  assert.equal(await out('cat /mnt/project/later.txt; ls /mnt/project | sort | tr "\\n" " "'),
    'written by the host after boot\na abs-link guest.txt later.txt readme.txt rel-link ');
  await run('cd /mnt/project && mv guest.txt a/moved.txt && rm -r a/b && ln a/moved.txt hard');
  assert.ok(!existsSync(join(dir, 'guest.txt')));
  assert.equal(readFileSync(join(dir, 'hard'), 'utf8'), 'from the guest\n');
  assert.equal(lstatSync(join(dir, 'hard')).nlink, 2);
  assert.equal(await out('stat -c "%U %h %s" /mnt/project/hard'), 'user 2 15\n');
});

test('mounts: a large file keeps every byte through the mount', async () => {
  const data = randomBytes(3 * 1024 * 1024 + 17);
  writeFileSync(join(dir, 'big.bin'), data);
  const sum = createHash('sha256').update(data).digest('hex');
  assert.equal(await out('sha256sum < /mnt/project/big.bin'), `${sum}  -\n`);
  await run('cp /mnt/project/big.bin /mnt/project/copy.bin && cp /mnt/project/big.bin /tmp/inside.bin');
  assert.equal(createHash('sha256').update(readFileSync(join(dir, 'copy.bin'))).digest('hex'), sum);
  assert.equal(await out('cmp /tmp/inside.bin /mnt/project/copy.bin && echo same'), 'same\n');
});

test('mounts: host symlinks resolve inside the VM, never on the host', async () => {
  // The host's absolute link names a host path that does not exist in the VM.
  const r = await run('cat /mnt/project/abs-link');
  assert.equal(r.exitCode, 1);
  assert.match(r.stderr, /No such file or directory/);
  assert.equal(await out('readlink /mnt/project/abs-link'), `${join(top, 'secret')}\n`);
  // ../secret from the mount root is /mnt/secret in the VM.
  assert.equal((await run('cat /mnt/project/rel-link')).exitCode, 1);
  assert.equal(await out('cd /mnt/project/.. && pwd && ls /mnt/project/../'), '/mnt\nproject\nro\n');
  assert.equal((await run('cat /mnt/project/../secret')).exitCode, 1);
});

test('mounts: symlinks the guest makes stay inside the VM too', async () => {
  await run('ln -s / /mnt/project/root && ln -s ../../.. /mnt/project/up');
  assert.equal(readlinkSync(join(dir, 'root')), '/');
  assert.equal(await out('cat /mnt/project/root/etc/hostname'), await out('cat /etc/hostname'));
  await run('echo planted > /mnt/project/up/tmp/planted');
  assert.equal(await out('cat /tmp/planted'), 'planted\n', 'written in the VM');
  assert.ok(!existsSync('/tmp/planted'), 'not on the host');
});

test('mounts: a symlink swapped in on the host under the guest is refused, not followed', async () => {
  mkdirSync(join(dir, 'work'));
  writeFileSync(join(dir, 'work', 'f'), 'inside\n');
  const s = await vm.openExtraSession();
  try {
    assert.equal((await s.exec('cd /mnt/project/work && cat f')).stdout, 'inside\n');
    // Someone on the host replaces the directory with a link to the outside.
    renameSync(join(dir, 'work'), join(dir, 'work.old'));
    symlinkSync(top, join(dir, 'work'));
    const r = await s.exec('cat secret; cat ./f; ls');
    assert.doesNotMatch(r.stdout, /host secret/);
    assert.notEqual(r.exitCode, 0);
  } finally {
    await s.close();
  }
  const r = await run('cat /mnt/project/work/secret');
  assert.doesNotMatch(r.stdout, /host secret/);
});

test('mounts: hard links and renames across the mount boundary fail with EXDEV', async () => {
  const ln = await run('ln /etc/hostname /mnt/project/h');
  assert.equal(ln.exitCode, 1);
  assert.match(ln.stderr, /Invalid cross-device link/);
  const ln2 = await run('ln /mnt/project/readme.txt /tmp/r');
  assert.match(ln2.stderr, /Invalid cross-device link/);
  // mv copies instead, as across Linux filesystems.
  assert.equal((await run('echo m > /tmp/m && mv /tmp/m /mnt/project/m && cat /mnt/project/m')).stdout, 'm\n');
  assert.equal(readFileSync(join(dir, 'm'), 'utf8'), 'm\n');
});

test('mounts: a read-only mount refuses every change with EROFS and leaves the host alone', async () => {
  assert.equal(await out('cat /mnt/ro/readme.txt'), 'from the host\n');
  for (const cmd of ['echo x > /mnt/ro/new', 'echo x >> /mnt/ro/readme.txt', 'rm /mnt/ro/readme.txt', 'mkdir /mnt/ro/d',
    'mv /mnt/ro/readme.txt /mnt/ro/r2', 'chmod 777 /mnt/ro/readme.txt', 'touch /mnt/ro/readme.txt', 'ln -s x /mnt/ro/l']) {
    const r = await run(cmd);
    assert.notEqual(r.exitCode, 0, cmd);
    assert.match(r.stderr, /Read-only file system/, cmd);
  }
  assert.equal(readFileSync(join(dir, 'readme.txt'), 'utf8'), 'from the host\n');
  assert.ok(!existsSync(join(dir, 'new')));
  assert.match(await out('grep /mnt/ro /proc/mounts'), / ro/);
});

test('mounts: bad mount options are refused before boot', () => {
  assert.throws(() => new AgentVM({ mounts: { 'relative': dir } }), /absolute/);
  assert.throws(() => new AgentVM({ mounts: { '/mnt/../etc': dir } }), /'\.\.'/);
  assert.throws(() => new AgentVM({ mounts: { '/proc': dir } }), /cannot mount over/);
});

test('mounts: a missing host directory fails the boot with its path', async () => {
  const bad = new AgentVM({ mounts: { '/mnt/x': join(top, 'nope') } });
  await assert.rejects(bad.start(), /nope/);
});

// Paths out of the VM (issue 14, items 5 and 6; docs/security.md, "Paths out
// of the VM"): what the guest exports, what the host restores or forks from a
// guest's snapshot, and what the agent's file tools (the API's file calls, MCP)
// reach. Each test is an attack from the guest or the agent that must fail.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AgentVM } from '../../src/host/node/index.js';
import type { Answer, ApprovalRequest, Policy } from '../../src/host/node/index.js';
import { encodeFrame } from '../../src/kernel/persist/format.js';
import { S_IFDIR, S_IFREG } from '../../src/abi/stat.js';

const cli = fileURLToPath(new URL('../../../bin/agentos.js', import.meta.url));
const SECRET = 'TOPSECRET-5f3a9c';
const ENV_SECRET = 'ENVSECRET-77b1';
const VISIBLE = 'VISIBLE-MARK-0d2e';

const has = (bytes: Uint8Array, text: string) => Buffer.from(bytes).includes(text);
const sh = async (vm: AgentVM, cmd: string) => (await vm.exec(cmd)).stdout;
const tmp = (what: string) => mkdtempSync(join(tmpdir(), `agentos-paths-${what}-`));

/** Rules over the objects `seed` makes: a hidden directory, a hidden file in the user's own directory, a read-only one. */
const RULES: Policy = { fs: { hidden: ['/srv/secret', '/home/user/project/.env'], readOnly: ['/srv/data'] } };

/**
 * A persistent layer made before the rules apply: a secret, a hard link to it
 * under an innocent name in the user's home, a hidden file in a directory the
 * user owns, a read-only file the user owns, and a visible file.
 */
async function seed(state: string): Promise<void> {
  const vm = new AgentVM({ state });
  await vm.start();
  try {
    const m = vm.vm;
    await m.mkdirp('/srv/secret');
    await m.writeFile('/srv/secret/token', `${SECRET}\n`);
    await m.syscall('link', '/srv/secret/token', '/home/user/innocent-link');
    await m.mkdirp('/home/user/project');
    await m.syscall('chown', '/home/user/project', 1000, 1000);
    await m.writeFile('/home/user/project/.env', `${ENV_SECRET}\n`);
    await m.mkdirp('/srv/data');
    await m.writeFile('/srv/data/f', 'data\n');
    await m.syscall('chown', '/srv/data/f', 1000, 1000);
    // Not hidden, but not the user's to read: a root-only file, a readable file in a root-only directory.
    await m.writeFile('/srv/rootonly', 'ROOTONLY-8e2\n', 0o600);
    await m.mkdirp('/srv/vault', 0o700);
    await m.writeFile('/srv/vault/note', 'VAULT-4d1\n');
    // A file of the base image, changed and moved there: the overlay's index still links its copy.
    await m.writeFile('/etc/hosts', 'HOSTS-COPY-9a0\n');
    await m.syscall('rename', '/etc/hosts', '/srv/vault/hosts');
    await vm.exec(`echo ${VISIBLE} > ~/visible`);
  } finally {
    await vm.stop();
  }
}

/** The guest moves the hidden file's parent (to find it in the open after the next restore): EBUSY, as for a mount point. */
async function tryToMoveTheSecret(vm: AgentVM): Promise<void> {
  const r = await vm.exec('mv ~/project ~/moved');
  assert.notEqual(r.exitCode, 0, 'the guest cannot move a hidden path\'s parent away');
  assert.match(r.stderr, /Device or resource busy/);
  assert.equal((await vm.exec('cat ~/moved/.env ~/project/.env ~/innocent-link /srv/secret/token')).stdout, '');
}

test('export (item 5): the in-VM export under --hidden carries neither a hidden file\'s bytes nor any of its names', async () => {
  const state = tmp('export');
  await seed(state);
  const vm = new AgentVM({ state, policy: RULES });
  await vm.start();
  try {
    const r = await vm.exec('agentos snapshot create mine && agentos snapshot export mine /tmp/mine.aosnap');
    assert.equal(r.exitCode, 0, r.stderr);
    // A snapshot the host made is exported the same way when the guest asks.
    await vm.snapshot('by-host');
    assert.equal((await vm.exec('agentos snapshot export by-host /tmp/host.aosnap')).exitCode, 0);
    for (const file of ['/tmp/mine.aosnap', '/tmp/host.aosnap']) {
      const bytes = await vm.vm.readFile(file);
      assert.ok(has(bytes, VISIBLE), `${file}: the visible files are there`);
      for (const leak of [SECRET, ENV_SECRET, 'innocent-link', 'token', '.env', 'ROOTONLY-8e2', 'VAULT-4d1', 'note', 'HOSTS-COPY-9a0']) {
        assert.ok(!has(bytes, leak), `${file} contains ${leak}`);
      }
    }
    // Nor does moving the hidden file's parent first bring it out.
    await tryToMoveTheSecret(vm);
    assert.equal((await vm.exec('agentos snapshot create later && agentos snapshot export later /tmp/later.aosnap')).exitCode, 0);
    assert.ok(!has(await vm.vm.readFile('/tmp/later.aosnap'), ENV_SECRET));
    // The export is written as the guest: nowhere it could not write.
    const where = await vm.exec('agentos snapshot export mine /etc/x.aosnap; agentos snapshot export mine /srv/data/x; agentos snapshot export mine /srv/secret/x');
    assert.equal(where.stderr, [
      'agentos snapshot: export: /etc/x.aosnap: Permission denied',
      'agentos snapshot: export: /srv/data/x: Read-only file system',
      'agentos snapshot: export: /srv/secret/x: No such file or directory', ''].join('\n'));
    // It is a whole snapshot: another VM restores it, without the hidden objects.
    const file = await vm.vm.readFile('/tmp/mine.aosnap');
    const other = new AgentVM();
    await other.start();
    try {
      await other.snapshots.import('guest', file);
      await other.restore('guest');
      assert.equal(await sh(other, 'cat ~/visible; ls /srv; ls -a ~/project; ls ~/innocent-link 2>&1 | wc -l'), `${VISIBLE}\ndata\n.\n..\n1\n`);
      assert.equal(await sh(other, 'cat /srv/data/f'), 'data\n');
    } finally {
      await other.stop();
    }
  } finally {
    await vm.stop();
    rmSync(state, { recursive: true, force: true });
  }
});

test('export (item 5): files under an ask path leave only when the host says so', async () => {
  const asked: ApprovalRequest[] = [];
  const answers: Answer[] = ['deny', 'once'];
  const vm = new AgentVM({ policy: { fs: { ask: ['/home/user/review'] } }, onApproval: (r) => (asked.push(r), answers.shift() ?? 'deny') });
  await vm.start();
  try {
    await vm.vm.mkdirp('/home/user/review');
    await vm.vm.writeFile('/home/user/review/draft', 'DRAFT-31c\n');
    await vm.snapshot('s');
    const denied = await vm.exec('agentos snapshot export s /tmp/s.aosnap');
    assert.equal(denied.stderr, 'agentos snapshot: export: denied by the host (policy fs.ask:/home/user/review)\n');
    assert.equal(await sh(vm, 'agentos snapshot export s /tmp/s.aosnap'), 'exported s to /tmp/s.aosnap\n');
    assert.ok(has(await vm.vm.readFile('/tmp/s.aosnap'), 'DRAFT-31c'));
    assert.deepEqual(asked.map((r) => r.rule), ['fs.ask:/home/user/review', 'fs.ask:/home/user/review']);
    assert.match(asked[0].detail, /^export snapshot s \(pid \d+\)$/);
  } finally {
    await vm.stop();
  }
});

test('restore and import (item 5): the guest plants nothing; a guest-made snapshot restored by the host keeps every rule', async () => {
  const state = tmp('restore');
  await seed(state);
  // A file the guest crafts elsewhere: the read-only file replaced, the hidden one too.
  const crafter = new AgentVM();
  await crafter.start();
  let crafted: Uint8Array;
  try {
    await crafter.vm.mkdirp('/srv/data');
    await crafter.vm.writeFile('/srv/data/f', 'PLANTED\n');
    await crafter.vm.mkdirp('/home/user/project');
    await crafter.vm.writeFile('/home/user/project/.env', 'PLANTED\n');
    await crafter.snapshot('evil');
    crafted = await crafter.snapshots.export('evil');
  } finally {
    await crafter.stop();
  }
  const vm = new AgentVM({ state, policy: RULES });
  await vm.start();
  try {
    const clean = await vm.snapshot('clean');
    const before = await vm.snapshots.export('clean');
    await vm.writeFile('/tmp/evil.aosnap', crafted);
    await tryToMoveTheSecret(vm);
    const r = await vm.exec([
      'agentos snapshot import /tmp/evil.aosnap evil', 'agentos snapshot restore clean', 'agentos snapshot delete clean',
      'agentos snapshot create clean', 'agentos snapshot create guest-made',
    ].join('; '));
    assert.equal(r.stderr, [
      'agentos snapshot: import: snapshot import from inside the VM is not allowed under its filesystem policy (the host can do it)',
      'agentos snapshot: restore: snapshot restore from inside the VM is not allowed under its filesystem policy (the host can do it)',
      'agentos snapshot: delete: snapshot delete from inside the VM is not allowed under its filesystem policy (the host can do it)',
      "agentos snapshot: create: snapshot 'clean' exists; under the VM's filesystem policy only the host replaces it", ''].join('\n'));
    assert.deepEqual((await vm.snapshots.list()).map((s) => s.name), ['clean', 'guest-made']);
    assert.deepEqual(await vm.snapshots.export('clean'), before, 'the host\'s snapshot is untouched');
    assert.equal(clean.name, 'clean');
    // The host restores what the guest made: the rules hold in it as they did.
    await vm.restore('guest-made');
    assert.equal((await vm.exec('cat ~/project/.env ~/moved/.env ~/innocent-link /srv/secret/token')).stdout, '');
    assert.equal(await sh(vm, 'cat /srv/data/f; echo x > /srv/data/f 2>/dev/null || echo refused; cat ~/visible'), `data\nrefused\n${VISIBLE}\n`);
    // The host's own export is the whole layer: the host put the secrets there.
    assert.ok(has(await vm.snapshots.export('guest-made'), ENV_SECRET));
  } finally {
    await vm.stop();
    rmSync(state, { recursive: true, force: true });
  }
});

test('import: a crafted file is refused whole, by the host and by the guest (names, sizes)', async () => {
  const dir = (entries: [string, number][]) => ({ ino: 1, mode: S_IFDIR | 0o755, uid: 0, gid: 0, rdev: 0, atimeMs: 0, mtimeMs: 0, ctimeMs: 0, entries });
  const file = { ino: 2, mode: S_IFREG | 0o644, uid: 0, gid: 0, rdev: 0, atimeMs: 0, mtimeMs: 0, ctimeMs: 0 };
  const frame = (entries: [string, number][], size = 3) =>
    encodeFrame({ seq: 0, imageId: 'crafted', meta: [dir(entries), file], data: [{ ino: 2, size, ranges: [{ offset: 0, bytes: new Uint8Array([1, 2, 3]) }] }] });
  const vm = new AgentVM();
  await vm.start();
  try {
    await vm.snapshots.import('fine', frame([['ok', 2]]));
    for (const name of ['../../etc/passwd', 'a/b', '.', '..', '']) {
      await assert.rejects(vm.snapshots.import('bad', frame([[name, 2]])), /not an agentOS snapshot: inode 1: bad name/, name);
    }
    await assert.rejects(vm.snapshots.import('bad', frame([['ok', 2], ['ok', 2]])), /bad name 'ok'/, 'a name twice');
    // A size far beyond the file would be allocated on restore.
    await assert.rejects(vm.snapshots.import('bad', frame([['ok', 2]], 1e9)), /inode 2: bad file size or range/);
    await vm.writeFile('/tmp/bad.aosnap', frame([['a/b', 2]]));
    assert.equal((await vm.exec('agentos snapshot import /tmp/bad.aosnap bad')).stderr, "agentos snapshot: import: not an agentOS snapshot: inode 1: bad name 'a/b'\n");
    assert.deepEqual((await vm.snapshots.list()).map((s) => s.name), ['fine']);
    // An ephemeral VM's store hands out copies: the host's export (transferred) used to take the snapshot with it.
    assert.deepEqual(await vm.snapshots.export('fine'), await vm.snapshots.export('fine'));
    assert.equal((await vm.exec('agentos snapshot export fine /tmp/fine.aosnap')).exitCode, 0);
  } finally {
    await vm.stop();
  }
});

test('fork (item 5): the child runs under the parent\'s policy; hidden files stay hidden there, under every name and in its export', async () => {
  const state = tmp('fork');
  await seed(state);
  const vm = new AgentVM({ state, policy: RULES });
  await vm.start();
  let child: AgentVM | undefined;
  try {
    await tryToMoveTheSecret(vm);
    child = await vm.fork();
    await child.start();
    assert.equal((await child.exec('cat ~/project/.env ~/moved/.env ~/innocent-link /srv/secret/token; cat ~/visible')).stdout, `${VISIBLE}\n`);
    assert.match((await child.exec('echo x > /srv/data/f')).stderr, /Read-only file system/);
    assert.equal((await child.exec('agentos snapshot create c && agentos snapshot export c /tmp/c.aosnap')).exitCode, 0);
    const bytes = await child.vm.readFile('/tmp/c.aosnap');
    assert.ok(has(bytes, VISIBLE) && !has(bytes, SECRET) && !has(bytes, ENV_SECRET));
    // The fork's host has the files the parent's had.
    assert.equal(new TextDecoder().decode(await child.vm.readFile('/srv/secret/token')), `${SECRET}\n`);
  } finally {
    await child?.stop();
    await vm.stop();
    rmSync(state, { recursive: true, force: true });
  }
});

test('API file calls (item 6): readFile, writeFile and listDirectory act as the VM user, under the policy', async () => {
  const asked: ApprovalRequest[] = [];
  const vm = new AgentVM({
    policy: { fs: { hidden: ['/srv/secret', '/home/user/.token'], readOnly: ['/srv/data'], ask: ['/home/user/ask'] }, processes: { maxFileSize: 1000 } },
    onApproval: (r) => (asked.push(r), 'deny'),
  });
  await vm.start();
  try {
    const m = vm.vm;
    await m.mkdirp('/srv/secret');
    await m.writeFile('/srv/secret/token', SECRET);
    await m.mkdirp('/srv/data');
    await m.writeFile('/srv/data/f', 'data\n');
    await m.syscall('chown', '/srv/data/f', 1000, 1000);
    await m.writeFile('/etc/rootonly', 'root only\n', 0o600);
    await m.mkdirp('/home/user/ask');
    await m.writeFile('/home/user/ask/f', 'ask\n');
    // A file the host creates where a rule waited for it (the path did not exist at boot).
    await m.writeFile('/home/user/.token', SECRET);
    const passwd = await m.readText('/etc/passwd');
    const code = (c: string, re?: RegExp) => (e: Error & { code?: string }) => e.code === c && (!re || re.test(e.message));

    await assert.rejects(vm.writeFile('/etc/passwd', 'root::0:0::/:/bin/sh\n'), code('EACCES', /\/etc\/passwd/));
    assert.equal(await m.readText('/etc/passwd'), passwd);
    assert.equal((await m.stat('/etc/passwd')).uid, 0, 'still root\'s');
    await assert.rejects(vm.writeFile('/usr/bin/x', 'x'), code('EACCES', /\/usr\/bin\/x/));
    assert.notEqual((await vm.exec('ls /usr/bin/x')).exitCode, 0);
    await assert.rejects(vm.readFile('/srv/secret/token'), code('ENOENT', /\/srv\/secret\/token/));
    await assert.rejects(vm.readFile('/home/user/.token'), code('ENOENT'));
    assert.equal((await vm.exec('cat ~/.token')).stdout, '');
    await assert.rejects(vm.readFile('/etc/rootonly'), code('EACCES'));
    await assert.rejects(vm.writeFile('/srv/data/f', 'x'), code('EROFS'));
    assert.equal(new TextDecoder().decode(await vm.readFile('/srv/data/f')), 'data\n');
    await assert.rejects(vm.listDirectory('/srv/secret'), code('ENOENT'));
    assert.deepEqual((await vm.listDirectory('/srv')).map((e) => e.name), ['data']);
    await assert.rejects(vm.readFile('/home/user/ask/f'), code('EACCES', /denied by the host/));
    assert.equal(asked.length, 1);
    assert.equal(asked[0].rule, 'fs.ask:/home/user/ask');
    assert.ok(asked[0].pid > 1, 'asked for a guest pid');
    await assert.rejects(vm.writeFile('/home/user/big', new Uint8Array(2000)), code('EFBIG'));
    // Something the guest put there to hang the caller is refused at once.
    await vm.exec('mkfifo /tmp/fifo');
    await assert.rejects(vm.readFile('/tmp/fifo'), code('EINVAL', /not a regular file/));
    await assert.rejects(vm.writeFile('/tmp/fifo', 'x'), code('ENXIO'));
    // A new file is the user's, with the mode asked for; an existing one keeps its mode.
    await vm.writeFile('/home/user/new', 'n', 0o600);
    await vm.writeFile('/home/user/new', 'nn');
    assert.equal(await sh(vm, 'stat -c "%U %a %s" ~/new'), 'user 600 2\n');
    // The host's own calls are exempt: it put the secret there.
    assert.equal(new TextDecoder().decode(await m.readFile('/srv/secret/token')), SECRET);
    const denials = (await vm.audit()).filter((e) => e.type === 'policy');
    assert.ok(denials.some((e) => e.rule === 'fs.hidden' && e.pid > 1));
  } finally {
    await vm.stop();
  }
});

// ---- MCP, through a real client ---------------------------------------------------------

async function connect(args: string[]): Promise<Client> {
  const client = new Client({ name: 'agentos-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', ...args], stderr: 'pipe' }));
  return client;
}

const call = async (c: Client, name: string, args: Record<string, unknown>) => {
  const r = (await c.callTool({ name, arguments: args })) as { content: { text: string }[]; isError?: boolean };
  return { text: r.content[0]?.text ?? '', isError: r.isError === true };
};

test('mcp (item 6): the file tools act as the VM user: no /etc/passwd, no /usr/bin, no hidden or root-only file; ask paths ask', async () => {
  const state = tmp('mcp');
  const audit = join(state, 'audit.jsonl');
  const prep = new AgentVM({ state: join(state, 'vm') });
  await prep.start();
  try {
    await prep.vm.mkdirp('/srv/secret');
    await prep.vm.writeFile('/srv/secret/token', SECRET);
    await prep.vm.writeFile('/etc/rootonly', 'root only\n', 0o600);
    await prep.vm.mkdirp('/home/user/ask');
    await prep.vm.writeFile('/home/user/ask/f', 'ask\n');
    await prep.snapshot('before');
  } finally {
    await prep.stop();
  }
  const c = await connect(['--state', join(state, 'vm'), '--hidden', '/srv/secret', '--ask-path', '/home/user/ask', '--audit', audit]);
  try {
    const passwd = await call(c, 'write_file', { path: '/etc/passwd', content: 'root::0:0::/:/bin/sh\n' });
    assert.deepEqual(passwd, { text: 'write_file: /etc/passwd: Permission denied', isError: true });
    assert.equal(JSON.parse((await call(c, 'exec', { command: 'head -c 5 /etc/passwd; stat -c " %U" /etc/passwd' })).text).stdout, 'root: root\n');
    assert.deepEqual(await call(c, 'write_file', { path: '/usr/bin/x', content: 'x' }), { text: 'write_file: /usr/bin/x: Permission denied', isError: true });
    assert.notEqual(JSON.parse((await call(c, 'exec', { command: 'ls /usr/bin/x' })).text).exitCode, 0);
    assert.deepEqual(await call(c, 'read_file', { path: '/srv/secret/token' }), { text: 'read_file: /srv/secret/token: No such file or directory', isError: true });
    assert.deepEqual(await call(c, 'read_file', { path: '/etc/rootonly' }), { text: 'read_file: /etc/rootonly: Permission denied', isError: true });
    assert.deepEqual(await call(c, 'list_directory', { path: '/srv/secret' }), { text: 'list_directory: /srv/secret: No such file or directory', isError: true });
    assert.deepEqual((JSON.parse((await call(c, 'list_directory', { path: '/srv' })).text) as { name: string }[]).map((e) => e.name), []);
    assert.deepEqual(await call(c, 'read_file', { path: '/home/user/ask/f' }), { text: 'read_file: /home/user/ask/f: Permission denied', isError: true });
    // The snapshot tools keep the in-VM command's limits under filesystem rules.
    assert.equal((await call(c, 'restore', { name: 'before' })).isError, true);
    assert.equal((await call(c, 'snapshot', { name: 'before' })).isError, true);
    assert.match((await call(c, 'snapshot', { name: 'mine' })).text, /created snapshot mine/);
  } finally {
    await c.close();
  }
  try {
    const events = readFileSync(audit, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.ok(events.some((e) => e.type === 'approval' && e.rule === 'fs.ask:/home/user/ask' && e.answer === 'deny'), 'the ask path asked');
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
});

test('mcp (item 6): under --allow-cmd the file tools still work', async () => {
  const c = await connect(['--allow-cmd', '/opt/agentos/bin/ls']);
  try {
    assert.match((await call(c, 'write_file', { path: '/home/user/a.txt', content: 'allowed\n' })).text, /wrote 8 bytes/);
    assert.deepEqual(JSON.parse((await call(c, 'read_file', { path: '/home/user/a.txt' })).text), { encoding: 'utf8', content: 'allowed\n' });
    assert.ok((JSON.parse((await call(c, 'list_directory', { path: '/home/user' })).text) as { name: string }[]).some((e) => e.name === 'a.txt'));
    const cat = await call(c, 'exec', { command: 'cat ~/a.txt' });
    assert.equal(cat.isError, true, 'the allowlist holds for the guest');
  } finally {
    await c.close();
  }
});

// Bad input (issue 14, item 16): file names are bytes end to end, a NUL never
// gets into one, and the CLI never takes an option for an option's value.
//  - two names that differ only in bytes that are not UTF-8 stay two files,
//    for the shell, coreutils, xargs, globbing, node, WASI, tar and zip, in
//    the persisted layer and in snapshots, and through the host API;
//  - a NUL in a path is EINVAL at the kernel (node: ERR_INVALID_ARG_VALUE,
//    as Node says), from the guest and from the host;
//  - `agentos exec --state -- true` is a usage error (exit 2), not a
//    directory named "--"; so for every option that takes a value.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AgentVM, nameBytes, nameFromBytes } from '../../src/host/node/index.js';

const cli = fileURLToPath(new URL('../../../bin/agentos.js', import.meta.url));
const wasmDir = fileURLToPath(new URL('../../wasm/', import.meta.url));

test('names: two names that differ only in invalid UTF-8 stay two files, everywhere in the VM', { timeout: 120_000 }, async () => {
  const vm = new AgentVM({ cwd: '/tmp' });
  await vm.start();
  try {
    await vm.vm.mkdirp('/usr/local/wasm');
    for (const p of ['readdir', 'cat']) await vm.vm.writeFile(`/usr/local/wasm/${p}`, readFileSync(join(wasmDir, `${p}.wasm`)), 0o755);
    const ex = async (cmd: string) => {
      const r = await vm.exec(cmd);
      assert.equal(r.exitCode, 0, `${cmd}: ${r.stderr}`);
      return r.stdout;
    };
    // The shell, printf and xargs: bytes 0xff and 0xfe each name a file.
    await ex(`mkdir -p /tmp/n && cd /tmp/n && printf '\\xff' | xargs touch && printf '\\xfe' | xargs touch && echo one > $'\\xff' && echo two > $'\\xfe'`);
    assert.equal(await ex('ls /tmp/n | od -An -tx1 | tr -d " \\n"'), 'fe0aff0a', 'ls prints the raw bytes');
    assert.equal(await ex('cd /tmp/n && for f in *; do printf "%s=" "$f"; cat "$f"; done | od -An -tx1 | tr -d " \\n"'), Buffer.from('\xfe=two\n\xff=one\n', 'latin1').toString('hex'), 'globbing');
    assert.equal(await ex('stat -c %n /tmp/n/* | od -An -tx1 | tr -d " \\n"'), '2f746d702f6e2ffe0a2f746d702f6e2fff0a');
    // WASI: readdir(3) gives the bytes, open(2) of them reads the right file.
    assert.equal(await ex('/usr/local/wasm/readdir /tmp/n | od -An -tx1 | tr -d " \\n"'), '6620fe0a6620ff0a');
    assert.equal(await ex(`/usr/local/wasm/cat /tmp/n/$'\\xff' /tmp/n/$'\\xfe'`), 'one\ntwo\n');
    // node: Buffer paths and readdir({ encoding: 'buffer' }).
    const js = "const fs = require('fs'); fs.writeFileSync(Buffer.from([0x2f,0x74,0x6d,0x70,0x2f,0x6e,0x2f,0x61,0xff]), 'A'); fs.writeFileSync(Buffer.from('/tmp/n/a\\xfe', 'latin1'), 'B'); console.log(fs.readdirSync('/tmp/n', { encoding: 'buffer' }).map((b) => b.toString('hex')).sort().join(' '))";
    assert.equal(await ex(`node -e "${js}"`), '61fe 61ff fe ff\n');
    // rm and mv keep them apart.
    assert.equal(await ex(`cd /tmp/n && rm $'\\xff' && mv $'a\\xff' $'b\\xfe\\xff' && ls | od -An -tx1 | tr -d " \\n"`), '61fe0a62feff0afe0a');
    // tar and zip carry the bytes through an archive.
    assert.equal(await ex('cd /tmp && tar cf n.tar n && zip -qr n.zip n && rm -r n && tar xf n.tar && ls n | od -An -tx1 | tr -d " \\n" && rm -r n && unzip -q n.zip && ls n | od -An -tx1 | tr -d " \\n"'), '61fe0a62feff0afe0a'.repeat(2));
    // The host API: the names come as byte strings, and name the same files when passed back.
    const names = (await vm.listDirectory('/tmp/n')).map((e) => e.name);
    assert.deepEqual(names.map((n) => Buffer.from(nameBytes(n)).toString('hex')), ['61fe', '62feff', 'fe']);
    assert.equal(new TextDecoder().decode(await vm.readFile(`/tmp/n/${names[2]}`)), 'two\n');
    await vm.writeFile(`/tmp/n/${nameFromBytes(new Uint8Array([0x63, 0xff]))}`, 'C');
    assert.equal(await ex(`cat /tmp/n/$'c\\xff'`), 'C');
    // A string no bytes decode to (a lone surrogate outside the escapes) is kept as the bytes it encodes to.
    await vm.writeFile('/tmp/n/\ud800', 'D');
    assert.equal(await ex(`cat /tmp/n/$'\\xed\\xa0\\x80'`), 'D');
  } finally {
    await vm.stop();
  }
});

test('names: the persisted layer and snapshots keep names as bytes', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentos-names-'));
  try {
    const state = join(dir, 'vm');
    const vm = new AgentVM({ state });
    await vm.start();
    await vm.exec(`touch $'x\\xff' $'x\\xfe' && ln -s $'x\\xff' $'l\\xfd' && mkdir $'d\\xfc' && echo in > $'d\\xfc/\\xfb'`);
    const listing = 'ls -A | od -An -tx1 | tr -d " \\n"; readlink l*; cat d*/*';
    const before = (await vm.exec(listing)).stdout;
    await vm.snapshot('s');
    const file = await vm.snapshots.export('s');
    await vm.stop();
    const again = new AgentVM({ state });
    await again.start();
    try {
      assert.equal((await again.exec(listing)).stdout, before, 'after a reopen');
      await again.exec('rm -rf ./*');
      await again.restore('s');
      assert.equal((await again.exec(listing)).stdout, before, 'after a restore');
    } finally {
      await again.stop();
    }
    const other = new AgentVM();
    await other.start();
    try {
      await other.snapshots.import('t', file);
      await other.restore('t');
      assert.equal((await other.exec(listing)).stdout, before, 'in another VM, from the exported file');
    } finally {
      await other.stop();
    }
    assert.match(before, /^2e70726f66696c650a64fc0a6cfd0a78fe0a78ff0a/); // .profile, d\xfc, l\xfd, x\xfe, x\xff
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('names: a NUL in a path is refused (EINVAL), from the guest and from the host', { timeout: 60_000 }, async () => {
  const vm = new AgentVM({ cwd: '/tmp' });
  await vm.start();
  try {
    await assert.rejects(vm.writeFile('/tmp/a\0b', 'x'), /EINVAL/);
    await assert.rejects(vm.vm.syscall('mkdir', '/tmp/c\0d', 0o755), /EINVAL/);
    await assert.rejects(vm.vm.syscall('symlink', 'e\0f', '/tmp/g'), /EINVAL/);
    const node = await vm.exec(`node -e "try { require('fs').writeFileSync('/tmp/a\\0b', 'x') } catch (e) { console.log(e.code) }"`);
    assert.equal(node.stdout, 'ERR_INVALID_ARG_VALUE\n');
    const raw = await vm.exec(`cat > /tmp/nul.js <<'EOF'
#!/usr/libexec/agentos/js
for (const p of ['/tmp/a\\0b', '/tmp/a\\0']) { try { agentos.sys.open(p, 0o101, 0o644); agentos.print('opened\\n'); } catch (e) { agentos.print(e.message + '\\n'); } }
EOF
chmod +x /tmp/nul.js && /tmp/nul.js; ls /tmp`);
    assert.match(raw.stdout, /^EINVAL.*\nEINVAL.*\n/);
    assert.doesNotMatch(raw.stdout, /^a$|opened/m, 'no file was made of the name before the NUL');
  } finally {
    await vm.stop();
  }
});

test('cli: an option that takes a value refuses a missing one or one that is an option (exit 2)', { timeout: 120_000 }, async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'agentos-cli-opts-'));
  const run = (args: string[]) => new Promise<{ status: number | null; stderr: string }>((ok) => {
    const c = spawn(process.execPath, [cli, ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    c.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    c.on('exit', (status) => ok({ status, stderr }));
  });
  try {
    const cases: [string[], string][] = [
      [['exec', '--state', '--', 'true'], '--state'],
      [['exec', '--state'], '--state'],
      [['exec', '--cwd', '--json', '--', 'true'], '--cwd'],
      [['exec', '--env', '--', 'true'], '--env'],
      [['exec', '--timeout', '--', 'true'], '--timeout'],
      [['exec', '--mount', '--', 'true'], '--mount'],
      [['exec', '--read-only', '--', 'true'], '--read-only'],
      [['exec', '--max-procs'], '--max-procs'],
      [['exec', '--chromium', '--', 'true'], '--chromium'],
      [['shell', '--state', '--', 'x'], '--state'],
      [['snapshot', '--state', '--', 'list'], '--state'],
      [['mcp', '--state', '--host'], '--state'],
      [['repair', '--state', '-x'], '--state'],
    ];
    const results = await Promise.all(cases.map(([args]) => run(args)));
    cases.forEach(([args, flag], i) => {
      const r = results[i];
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`option '${flag}' requires an argument`), args.join(' '));
      assert.match(r.stderr, /Try 'agentos help'/);
    });
    assert.deepEqual(readdirSync(cwd), [], 'no directory named "--" (or anything else) was made');
    assert.equal(existsSync(join(cwd, '--')), false);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

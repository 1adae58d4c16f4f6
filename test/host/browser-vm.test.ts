// BrowserVM against the built app (dist/web) in Debian's Chromium: exec and its
// session, byte-exact files, many VMs in one browser that never see each
// other, a remote browser over wsEndpoint, persistence in a profile, and the
// errors a user meets first. One shared browser for the file (the `main` VM
// holds it), plus one browser server for the wsEndpoint test.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { BrowserVM, CHROMIUM_ARGS, DEBIAN_CHROMIUM, DEFAULT_APP_DIR, type VM } from '../../src/host/playwright/index.js';

const skip = existsSync(join(DEFAULT_APP_DIR, 'sandbox.html')) ? false : 'dist/web is not built (node scripts/build.mjs without --node-only)';
const t = (name: string, fn: () => Promise<void>) => test(name, { skip }, fn);

let main: BrowserVM;

before(async () => {
  if (skip) return;
  main = new BrowserVM({ env: { GREETING: 'hi' }, cwd: '/tmp' });
  await main.start();
});

after(async () => {
  if (skip) return;
  const browser = main.playwrightPage.context().browser()!;
  await main.stop();
  assert.equal(browser.isConnected(), false, 'the last BrowserVM to stop closes the shared browser');
});

t('exec: stdout, stderr, exit codes, options, and one session across execs', async () => {
  assert.deepEqual(await main.exec('echo out; echo err >&2; exit 3'), { stdout: 'out\n', stderr: 'err\n', exitCode: 3, timedOut: false });
  assert.equal((await main.exec('echo $GREETING; pwd')).stdout, 'hi\n/tmp\n', 'env and cwd options');
  await main.exec('cd /etc && X=42 && f() { echo "f:$1"; }');
  assert.equal((await main.exec('pwd; echo $X; f a')).stdout, '/etc\n42\nf:a\n', 'cwd, variables and functions persist');
  assert.equal((await main.exec('pwd; echo $Y', { cwd: '/home/user', env: { Y: 'per-exec' } })).stdout, '/home/user\nper-exec\n');
  const stdin = new Uint8Array([0, 1, 0xfe, 0xff, 10]);
  assert.deepEqual((await main.execBytes('cat', { stdin })).stdout, stdin, 'stdin bytes in, stdout bytes out');
  const slow = await main.exec('sleep 10', { timeoutMs: 300 });
  assert.equal(slow.timedOut, true);
  assert.equal(slow.exitCode, 124);
  const run = await main.run(['/bin/sh', '-c', 'echo ran; exit 7']);
  assert.equal(new TextDecoder().decode(run.stdout), 'ran\n');
  assert.equal(run.exitCode, 7);
});

t('readFile/writeFile are byte-exact', async () => {
  const all = new Uint8Array(256).map((_, i) => i);
  await main.writeFile('/home/user/all.bin', all);
  assert.deepEqual(await main.readFile('/home/user/all.bin'), all);
  assert.equal((await main.exec('wc -c < /home/user/all.bin; stat -c %U /home/user/all.bin')).stdout, '256\nuser\n');
  const big = new Uint8Array(randomBytes(700_000)); // more than one syscall channel (256 KiB)
  await main.writeFile('/tmp/big.bin', big);
  assert.deepEqual(await main.readFile('/tmp/big.bin'), big);
  await main.exec(`printf '\\377\\376caf\\303\\251' > /tmp/guest.bin`);
  assert.deepEqual(await main.readFile('/tmp/guest.bin'), new Uint8Array([0xff, 0xfe, 0x63, 0x61, 0x66, 0xc3, 0xa9]));
  await main.writeFile('/tmp/text.txt', 'héllo\n');
  assert.equal((await main.exec('cat /tmp/text.txt')).stdout, 'héllo\n');
  await assert.rejects(main.readFile('/nope/missing'), /ENOENT|No such file/);
  const listing = await main.listDirectory('/home/user');
  assert.deepEqual(listing.find((e) => e.name === 'all.bin'), { name: 'all.bin', type: 'file', size: 256, mode: '644' });
});

t('two BrowserVMs in parallel share the browser and never see each other\'s files', async () => {
  const a = new BrowserVM();
  const b = new BrowserVM();
  try {
    await Promise.all([a.start(), b.start()]);
    const browser = main.playwrightPage.context().browser();
    assert.equal(a.playwrightPage.context().browser(), browser, 'one browser');
    assert.equal(b.playwrightPage.context().browser(), browser);
    assert.notEqual(a.playwrightPage.context(), b.playwrightPage.context(), 'a context each');
    await Promise.all([a.writeFile('/home/user/mine', 'a'), b.writeFile('/home/user/mine', 'b'), a.exec('echo a > /tmp/only-a')]);
    const [ra, rb] = await Promise.all([a.exec('cat ~/mine; echo; ls /tmp'), b.exec('cat ~/mine; ls /tmp/only-a')]);
    assert.equal(ra.stdout.split('\n')[0], 'a');
    assert.match(ra.stdout, /only-a/);
    assert.equal(rb.stdout, 'b');
    assert.notEqual(rb.exitCode, 0, 'b cannot see a\'s /tmp/only-a');
    assert.equal(new TextDecoder().decode(await b.readFile('/home/user/mine')), 'b');
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
  assert.equal(main.playwrightPage.context().browser()!.isConnected(), true, 'the browser stays while main uses it');
  assert.equal((await main.exec('echo still')).stdout, 'still\n');
});

t('snapshots, output events, a terminal', async () => {
  await main.writeFile('/home/user/keep.txt', 'v1');
  assert.equal((await main.snapshot('s1')).name, 's1');
  await main.writeFile('/home/user/keep.txt', 'v2');
  await main.restore('s1');
  assert.equal((await main.exec('cat ~/keep.txt')).stdout, 'v1');
  const file = await main.snapshots.export('s1');
  assert.ok(file.length > 0);
  await main.snapshots.import('copy', file);
  assert.deepEqual((await main.snapshots.list()).map((s) => s.name).sort(), ['copy', 's1']);
  await main.snapshots.delete('copy');

  const chunks: string[] = [];
  const off = main.on('output', (c) => chunks.push(`${c.stream}:${c.text}`));
  await main.exec('echo streamed; echo e >&2');
  off();
  assert.deepEqual(chunks.sort(), ['stderr:e\n', 'stdout:streamed\n']);

  const term = await main.openTerminal({ cols: 100, rows: 30, argv: ['/bin/sh'] });
  let screen = '';
  term.onData((b) => (screen += new TextDecoder().decode(b)));
  term.write('echo $((6*7)); stty size\r');
  term.write('exit 9\r');
  assert.equal(await term.exited, 9);
  assert.match(screen, /42/);
  assert.match(screen, /30 100/);
});

t('jobs: start, poll by cursor (UTF-8 split across writes kept whole), kill the group, wait, list', async () => {
  const id = await main.jobs.start("printf '\\303'; sleep 0.2; printf '\\251\\n'; while :; do echo tick; sleep 0.1; done");
  let out = '';
  let cursor = 0;
  for (let i = 0; i < 200 && !out.includes('tick\ntick\n'); i++) {
    const r = await main.jobs.output(id, cursor);
    assert.equal(r.running, true);
    out += r.stdout;
    cursor = r.cursor;
    await new Promise((res) => setTimeout(res, 30));
  }
  assert.match(out, /^é\n(tick\n)+$/);
  assert.deepEqual((await main.jobs.list()).map((j) => [j.id, j.running]), [[id, true]]);
  assert.deepEqual(await main.jobs.wait(id, { timeoutMs: 50 }), { id, running: true });
  await main.jobs.kill(id);
  assert.deepEqual(await main.jobs.wait(id), { id, running: false, exitCode: 143, signal: 'SIGTERM' });
  assert.equal((await main.jobs.output(id, cursor)).running, false);
  assert.equal((await main.jobs.list()).length, 1);
  assert.deepEqual(await main.jobs.list(), [], 'a drained job is listed once more, then forgotten');
  await assert.rejects(main.jobs.output(id), /no job/);
});

t('what the browser cannot do is an absent capability (and a refused option)', async () => {
  const vm: VM = main; // one interface: what a host lacks is typed as optional, and absent
  assert.deepEqual([vm.spawn, vm.fork, vm.openExtraSession, vm.vm], [undefined, undefined, undefined, undefined]);
  assert.throws(() => new BrowserVM({ state: '/tmp/x' } as never), /the state option is not supported/);
  assert.throws(() => new BrowserVM({ mounts: { '/mnt': '/tmp' } } as never), /the mounts option is not supported/);
  await assert.rejects(new BrowserVM().exec('true'), /not started/);
});

t('clear errors: no built app, no Chromium at the path', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'agentos-noapp-'));
  try {
    await assert.rejects(new BrowserVM({ app: empty }).start(), /no built app at .*run `npm run build`/);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
  await assert.rejects(new BrowserVM({ chromium: '/nope/chromium' }).start(), /no Chromium at \/nope\/chromium/);
});

t('wsEndpoint: a VM in a remote browser server', async () => {
  const server = await chromium.launchServer({ executablePath: existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined, args: CHROMIUM_ARGS });
  try {
    const vms = [new BrowserVM({ wsEndpoint: server.wsEndpoint() }), new BrowserVM({ wsEndpoint: server.wsEndpoint() })];
    await Promise.all(vms.map((v) => v.start()));
    assert.deepEqual(await Promise.all(vms.map((v, i) => v.exec(`echo remote-${i}`).then((r) => r.stdout))), ['remote-0\n', 'remote-1\n']);
    assert.equal(vms[0].playwrightPage.context().browser(), vms[1].playwrightPage.context().browser(), 'one connection');
    await Promise.all(vms.map((v) => v.stop()));
  } finally {
    await server.close();
  }
});

t('persist with userDataDir and a fixed port: the layer outlives the BrowserVM', async () => {
  const profile = mkdtempSync(join(tmpdir(), 'agentos-profile-'));
  const port = await freePort();
  try {
    const first = new BrowserVM({ persist: 'work', userDataDir: profile, port });
    await first.start();
    await first.exec('echo durable > ~/kept');
    await first.stop();
    const again = new BrowserVM({ persist: 'work', userDataDir: profile, port });
    await again.start();
    assert.equal((await again.exec('cat ~/kept')).stdout, 'durable\n');
    await again.stop();
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
});

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    }).on('error', fail);
  });
}

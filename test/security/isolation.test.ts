// Defense in depth on the Node host (issue 14, item 12): with isolation
// 'process' the VM runs in a child Node process under Node's permission model.
// - An escape from the JavaScript confinement is simulated by running code
//   with a thread's real Node powers in a process started with exactly the
//   flags the library gives the VM's process: every way out is refused.
// - The embedding process survives a guest that exhausts its heap and a
//   crash of the VM's process, whose calls fail clearly.
// - The CLI runs isolated by default; AgentVM behaves the same either way.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { wrap } from 'comlink';
import { AgentVM, boot, isolationFlags, Machine, type Answer, type AuditEvent } from '../../src/host/node/index.js';
import { guardKernel } from '../../src/host/api/kernel-death.js';
import type { KernelService } from '../../src/host/worker/kernel-service.js';
import { newSecret, sealEndpoint } from '../../src/host/sealed-endpoint.js';
import { linkVmProcess, spawnVmProcess } from '../../src/host/node/vm-link.js';
import { execCases } from '../kernel/exec-cases.js';
import { installPrograms, PROGRAMS } from '../kernel/suite.js';

// This file runs from dist/test/security/.
const CLI = fileURLToPath(new URL('../../../bin/agentos.js', import.meta.url));
const VM_PROCESS = fileURLToPath(new URL('../../node/vm.process.js', import.meta.url));
const PROCESS_WORKER = fileURLToPath(new URL('../../node/process.worker.js', import.meta.url));
const VM_GUARD = fileURLToPath(new URL('../../node/vm-guard.cjs', import.meta.url));

/** Run a program to its end without blocking this process's event loop (its servers answer meanwhile). */
function run(file: string, args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((ok) => {
    const c = spawn(file, args, { env: {}, timeout: 30_000 });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (b: Buffer) => (stdout += b));
    c.stderr.on('data', (b: Buffer) => (stderr += b));
    c.on('close', (status) => ok({ status, stdout, stderr }));
  });
}

/** A host directory laid out as an embedder's: a secret beside the VM's state and mounts. */
function hostDirs() {
  const top = mkdtempSync(join(tmpdir(), 'agentos-iso-'));
  const d = { top, secret: join(top, 'secret.txt'), state: join(top, 'state'), rw: join(top, 'rw'), ro: join(top, 'ro') };
  for (const dir of [d.state, d.rw, d.ro]) mkdirSync(dir);
  writeFileSync(d.secret, 'host secret\n');
  writeFileSync(join(top, 'outside.cjs'), 'module.exports = 1;\n');
  writeFileSync(join(d.state, 'own.txt'), 'the layer\n');
  writeFileSync(join(d.ro, 'ro.txt'), 'read-only\n');
  const mounts = [{ vmPath: '/mnt/rw', host: d.rw }, { vmPath: '/mnt/ro', host: d.ro, readOnly: true }];
  return { ...d, mounts, cleanup: () => rmSync(top, { recursive: true, force: true }) };
}

/**
 * What an escaped guest would try, with a thread's real Node powers: each
 * attempt's outcome ('ok' or the error's code). It runs as a preload, after
 * the VM process's own guard, in the main thread and in a process worker
 * (where guest programs run) before that worker confines itself.
 */
const ESCAPE = String.raw`
// Only in the main thread and the process worker: a worker an attempt below started (its options honoured after
// all), or Node's loader-hooks thread, runs this preload too, and does nothing more there.
if (!require('node:worker_threads').isMainThread && require('node:worker_threads').workerData !== 'process') return;
const fs = require('node:fs');
const { join } = require('node:path');
const wt = require('node:worker_threads');
const d = JSON.parse(fs.readFileSync(__dirname + '/dirs.json', 'utf8'));
const out = {};
const tryIt = (name, fn) => { try { fn(); out[name] = 'ok'; } catch (e) { out[name] = e.code ?? String(e); } };
const workerTrick = (file, options, W = wt.Worker) => () => new W(file, options).terminate();
const attack = fs.readFileSync(join(d.state, 'attack.cjs'), 'utf8');
tryIt('read the host file', () => fs.readFileSync(d.secret));
tryIt('list the host directory', () => fs.readdirSync(d.top));
tryIt('list /etc', () => fs.readdirSync('/etc'));
tryIt('read through ..', () => fs.readFileSync(d.state + '/../secret.txt'));
tryIt('require a host module', () => require(join(d.top, 'outside.cjs')));
tryIt('write outside', () => fs.writeFileSync(join(d.top, 'planted'), 'x'));
tryIt('write the read-only mount', () => fs.writeFileSync(join(d.ro, 'planted'), 'x'));
tryIt('symlink out of the state directory', () => fs.symlinkSync(d.secret, join(d.state, 'link')));
tryIt('hard link out', () => fs.linkSync(d.secret, join(d.state, 'hard')));
tryIt('rename in from outside', () => fs.renameSync(d.secret, join(d.state, 'moved')));
tryIt('spawn a process', () => require('node:child_process').spawnSync(process.execPath, ['-v']));
tryIt('exec a shell', () => require('node:child_process').execSync('id'));
tryIt('open the inspector', () => require('node:inspector').open(0));
tryIt('inspector session', () => new (require('node:inspector').Session)().connect());
tryIt('WASI', () => new (require('node:wasi').WASI)({ version: 'preview1' }));
tryIt('process.binding', () => process.binding('fs'));
tryIt('signal another process', () => process.kill(d.victim, 'SIGTERM'));
tryIt("open another Node process's inspector", () => process._debugProcess(d.victim));
tryIt('a worker from source text', workerTrick(attack, { eval: true }));
tryIt('a worker that turns the model off', workerTrick(join(d.state, 'attack.cjs'), { execArgv: ['--no-experimental-permission'] }));
tryIt('a worker with NODE_OPTIONS', workerTrick(join(d.state, 'attack.cjs'), { env: { NODE_OPTIONS: '--allow-fs-write=*' } }));
tryIt('a worker from a data: URL', workerTrick(new URL('data:text/javascript,' + encodeURIComponent(attack))));
tryIt('a worker from a file the guest can write', workerTrick(join(d.state, 'attack.cjs')));
tryIt("a worker through an instance's constructor", workerTrick(attack, { eval: true, execArgv: ['--no-experimental-permission'] }, wt.Worker.prototype.constructor));
tryIt('load an addon', () => process.dlopen({ exports: {} }, join(d.state, 'own.txt')));
// Workers whose start the attempt waits for: what they plant shows beside the host's files.
const started = [];
const ran = (w) => started.push(new Promise((ok) => { w.on('error', ok); w.on('exit', ok); }));
const turnOff = ['--no-experimental-permission', '--require=' + join(d.state, 'attack.cjs')];
tryIt('a worker whose options change between reads', () => {
  // The guard reads execArgv once (undefined), Node again (the flags): a getter on the prototype answers both.
  let reads = 0;
  Object.defineProperty(Object.prototype, 'execArgv', { configurable: true, get: () => (reads++ ? turnOff : undefined) });
  try {
    ran(new wt.Worker(d.guard, { workerData: 'attack' }));
  } finally {
    delete Object.prototype.execArgv;
  }
});
tryIt('the class behind the loader-hooks thread (module.register)', () => {
  // Node publishes the hooks thread's InternalWorker, whose parent class is the unguarded Worker.
  let Real = null;
  const seen = (m) => (Real ??= Object.getPrototypeOf(m.worker.constructor));
  require('node:diagnostics_channel').subscribe('worker_threads', seen);
  try {
    require('node:module').register('data:text/javascript,');
  } finally {
    require('node:diagnostics_channel').unsubscribe('worker_threads', seen);
  }
  if (Real !== wt.Worker) ran(new Real(attack, { eval: true, execArgv: turnOff, workerData: 'attack' }));
});
tryIt('write a trace file (trace_events)', () => require('node:trace_events').createTracing({ categories: ['node.perf'] }).enable());
tryIt('renice another process', () => require('node:os').setPriority(d.victim, 19));
tryIt('set V8 flags (natives syntax)', () => require('node:v8').setFlagsFromString('--allow-natives-syntax'));
// Controls: what the VM needs still works, so the refusals above are not everything failing.
tryIt('read the state directory', () => fs.readFileSync(join(d.state, 'own.txt')));
tryIt('write the state directory', () => fs.writeFileSync(join(d.state, 'new'), 'x'));
tryIt('read the read-only mount', () => fs.readFileSync(join(d.ro, 'ro.txt')));
tryIt('write the read-write mount', () => fs.writeFileSync(join(d.rw, 'new'), 'x'));
tryIt('compile WebAssembly', () => new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])));
const tcp = new Promise((ok) => require('node:net').connect(d.tcpPort, '127.0.0.1').on('connect', function () { this.destroy(); ok('ok'); }).on('error', (e) => ok(e.code)));
globalThis.escaped = Promise.all([import(require('node:url').pathToFileURL(join(d.top, 'outside.cjs')).href).then(() => 'ok', (e) => e.code), tcp, ...started])
  .then(([imported, tcp]) => ({ ...out, 'import() a host module': imported, 'connect over TCP': tcp }));
if (!wt.isMainThread) globalThis.escaped.then((r) => wt.parentPort.postMessage({ escaped: r }));
`;

/** The main thread: report, then start a process worker as the kernel does and take its report. */
const MAIN = String.raw`
const { Worker } = require('node:worker_threads');
globalThis.escaped.then((main) => {
  const w = new Worker(process.argv.at(-1), { workerData: 'process' });
  w.on('message', (m) => {
    if (!m || !m.escaped) return;
    process.stdout.write(JSON.stringify({ main, worker: m.escaped }));
    w.terminate();
  });
});
`;

const DENIED = [
  'read the host file', 'list the host directory', 'list /etc', 'read through ..', 'require a host module', 'write outside',
  'write the read-only mount', 'symlink out of the state directory', 'hard link out', 'rename in from outside', 'spawn a process',
  'exec a shell', 'open the inspector', 'inspector session', 'WASI', 'process.binding', 'signal another process',
  "open another Node process's inspector", 'a worker from source text', 'a worker that turns the model off', 'a worker with NODE_OPTIONS',
  'a worker from a data: URL', 'a worker from a file the guest can write', "a worker through an instance's constructor", 'import() a host module',
  'a worker whose options change between reads', 'the class behind the loader-hooks thread (module.register)', 'renice another process', 'set V8 flags (natives syntax)',
];
const ALLOWED = ['read the state directory', 'write the state directory', 'read the read-only mount', 'write the read-write mount', 'compile WebAssembly', 'connect over TCP'];

test('an escape from the confinement meets the VM process\'s permissions: no host files, processes, signals, addons, inspector, V8 flags or unguarded workers', async () => {
  const h = hostDirs();
  // A Node process of the host's that the guest would signal, renice or open the inspector of.
  const victim = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  // The network is open (docs/security.md): the VM's own fetch needs it.
  const tcp = createServer((s) => s.destroy());
  await new Promise<void>((ok) => tcp.listen(0, '127.0.0.1', ok));
  try {
    const tcpPort = (tcp.address() as AddressInfo).port;
    writeFileSync(join(h.state, 'dirs.json'), JSON.stringify({ ...h, victim: victim.pid, guard: VM_GUARD, tcpPort }));
    writeFileSync(join(h.state, 'escape.cjs'), ESCAPE);
    writeFileSync(join(h.state, 'attack.cjs'), `require('node:fs').writeFileSync(${JSON.stringify(join(h.top, 'planted-by-worker'))}, 'x');\n`);
    // The library's flags for this VM, plus the escaped code (from the state directory, readable anyway).
    const flags = [...isolationFlags({ state: h.state, mounts: h.mounts, heapMb: 256 }), `--require=${join(h.state, 'escape.cjs')}`];
    const r = await run(process.execPath, [...flags, '-e', MAIN, PROCESS_WORKER]);
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout) as Record<string, Record<string, string>>
    assert.deepEqual(Object.keys(report), ['main', 'worker']);
    for (const [where, got] of Object.entries(report)) {
      const wrong = (names: string[], want: RegExp) => names.filter((n) => !want.test(got[n])).map((n) => `${where}: ${n}: ${got[n]}`);
      assert.deepEqual(wrong(DENIED, /^ERR_ACCESS_DENIED$/), [], 'refused');
      // Node 20 refuses addons under the permission model with a code of its own.
      assert.deepEqual(wrong(['load an addon'], /^ERR_(ACCESS_DENIED|DLOPEN_DISABLED)$/), [], 'no addons');
      // Workers have no tracing at all.
      assert.deepEqual(wrong(['write a trace file (trace_events)'], /^ERR_(ACCESS_DENIED|TRACE_EVENTS_UNAVAILABLE)$/), [], 'no trace file');
      assert.deepEqual(wrong(ALLOWED, /^ok$/), [], 'what the VM needs');
    }
    assert.equal(readFileSync(h.secret, 'utf8'), 'host secret\n', 'the host file is untouched');
    assert.deepEqual(readdirSync(h.top).sort(), ['outside.cjs', 'ro', 'rw', 'secret.txt', 'state'], 'nothing planted beside it');
    assert.equal(victim.exitCode ?? victim.signalCode, null, 'the other process lives');
    assert.equal(getPriority(victim.pid!), getPriority(process.pid), 'at its priority');
  } finally {
    victim.kill();
    tcp.close();
    h.cleanup();
  }
});

test('a heap blow-up in the VM process ends that process (its heap is capped), not the embedder', () => {
  const r = spawnSync(process.execPath, [...isolationFlags({ heapMb: 64 }), '-e', 'const a = []; for (;;) a.push(new Array(1e5).fill(1));'], { encoding: 'utf8', env: {}, timeout: 30_000 });
  assert.ok(r.signal === 'SIGABRT' || r.status === 134, `ended by the heap cap (status ${r.status}, signal ${r.signal})`);
  assert.match(r.stderr, /heap out of memory/);
});

test('the VM\'s process runs with exactly those flags and none of the host\'s environment', async () => {
  const h = hostDirs();
  process.env.AGENTOS_TEST_HOST_SECRET = 'do-not-leak';
  const vm = new AgentVM({ isolation: 'process', state: h.state, mounts: { '/mnt/rw': h.rw, '/mnt/ro': { host: h.ro, readOnly: true } }, heapMb: 512 });
  try {
    await vm.start();
    const { pid, isolation } = vm.vm.host!;
    assert.equal(isolation, 'process');
    assert.notEqual(pid, process.pid);
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
    assert.deepEqual(argv, [process.execPath, ...isolationFlags({ state: h.state, mounts: h.mounts, heapMb: 512 }), VM_PROCESS]);
    assert.doesNotMatch(readFileSync(`/proc/${pid}/environ`, 'utf8'), /AGENTOS_TEST_HOST_SECRET/);
    // The VM itself works through its mounts and state under those flags.
    const r = await vm.exec('cat /mnt/ro/ro.txt; echo w > /mnt/rw/w; echo kept > ~/note; ln -s w /mnt/rw/l; echo $?');
    assert.deepEqual([r.stdout, r.stderr], ['read-only\n1\n', "ln: failed to create symbolic link '/mnt/rw/l': Operation not permitted\n"]);
    assert.equal(readFileSync(join(h.rw, 'w'), 'utf8'), 'w\n');
  } finally {
    delete process.env.AGENTOS_TEST_HOST_SECRET;
    await vm.stop();
    h.cleanup();
  }
});

for (const isolation of ['process', 'none'] as const) {
  test(`isolation ${isolation}: a guest that exhausts its heap (heapMb) is killed; the VM and the embedding process go on`, async () => {
    const vm = new AgentVM({ isolation, heapMb: 64 });
    await vm.start();
    try {
      const r = await vm.exec('node -e "const a = []; for (;;) a.push(new Array(1e5).fill(1))"; echo "status $?"');
      assert.equal(r.stdout, 'status 137\n'); // out of memory: SIGKILL, as the kernel reports a worker past its heap
      assert.equal((await vm.exec('echo alive')).stdout, 'alive\n');
    } finally {
      await vm.stop();
    }
  });
}

test('a crash of the VM\'s process fails pending and later calls clearly; the embedder goes on', async () => {
  const vm = new AgentVM({ isolation: 'process' });
  await vm.start();
  const pending = vm.exec('sleep 1000');
  await vm.vm.status(); // the exec is under way
  process.kill(vm.vm.host!.pid, 'SIGKILL');
  await assert.rejects(pending, /the VM's process died \(killed by SIGKILL\)/);
  await assert.rejects(vm.exec('true'), /the VM's process died \(killed by SIGKILL\)/);
  await assert.rejects(vm.readFile('/etc/hostname'), /the VM's process died/);
  await assert.rejects(vm.stop(), /the VM's process died/);
});

test('a crash of the VM\'s process while an exec streams output to a listener leaves no rejection unhandled (it would end the embedder)', async () => {
  const unhandled: unknown[] = [];
  const note = (e: unknown) => unhandled.push(e);
  process.on('unhandledRejection', note);
  const vm = new AgentVM({ isolation: 'process' });
  try {
    await vm.start();
    const seen = new Promise<void>((ok) => vm.on('output', (c) => c.text.includes('started') && ok()));
    const pending = vm.exec('echo started; sleep 1000');
    await seen; // the exec is streaming
    process.kill(vm.vm.host!.pid, 'SIGKILL');
    await assert.rejects(pending, /the VM's process died \(killed by SIGKILL\)/);
    await assert.rejects(vm.stop(), /the VM's process died/);
    await new Promise((ok) => setTimeout(ok, 50)); // Node reports unhandled rejections after the microtasks drain
    assert.deepEqual(unhandled.map(String), []);
  } finally {
    process.off('unhandledRejection', note);
  }
});

/**
 * Escaped code in the VM process's main thread that attacks the host through
 * what the process holds open: its stderr, relayed to the host's, and its
 * control channel to the host (fd 3), which the permission model leaves open
 * (file descriptors are not checked). Bytes that are not a message go down the
 * channel once the host has written /mnt/rw/trigger.
 */
const CHANNEL_ATTACK = String.raw`
const fs = require('node:fs');
if (!require('node:worker_threads').isMainThread) return;
const d = JSON.parse(fs.readFileSync(__dirname + '/dirs.json', 'utf8'));
fs.writeSync(2, '\x1b]0;pwned\x07\x1b[2Jagentos: the host says this\nline two\r\n');
const w = fs.watch(d.rw, (_, name) => {
  if (name !== 'trigger') return;
  w.close();
  const junk = Buffer.alloc(64, 0xff);
  junk.writeUInt32LE(0, 0); // a message of no bytes (whatever the length's byte order), then bytes that are none
  fs.writeSync(3, junk);
});
`;

test('escaped code in the VM process can neither crash the host through the control channel nor write its own bytes on the host\'s stderr', async () => {
  const h = hostDirs();
  const uncaught: unknown[] = [];
  const note = (e: unknown) => uncaught.push(e);
  process.on('uncaughtException', note);
  process.on('unhandledRejection', note);
  // The host's stderr, as the library writes it.
  const heard: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => heard.push(String(chunk)) > 0) as typeof write;
  const secret = newSecret();
  let m: Machine | null = null;
  try {
    writeFileSync(join(h.state, 'dirs.json'), JSON.stringify(h));
    writeFileSync(join(h.state, 'attack.cjs'), CHANNEL_ATTACK);
    const flags = [...isolationFlags({ state: h.state, mounts: h.mounts }), `--require=${join(h.state, 'attack.cjs')}`];
    const link = await linkVmProcess(spawnVmProcess(VM_PROCESS, flags, {}), { state: h.state, mounts: h.mounts, secret });
    m = new Machine(guardKernel(wrap<KernelService>(sealEndpoint(link.endpoint, secret)), link.died), () => link.terminate(), link.host);
    // The write sets the attack off: it or the next call sees the end of the VM.
    const settled = await Promise.race([
      m.writeFile('/mnt/rw/trigger', 'now').then(() => m!.status()).then(() => 'answered', (e: Error) => e.message),
      new Promise((ok) => setTimeout(ok, 20_000, 'no answer')),
    ]);
    assert.match(String(settled), /the VM's process broke its control channel/);
    await assert.rejects(m.status(), /broke its control channel/);
    await new Promise((ok) => setTimeout(ok, 50));
    assert.deepEqual(uncaught.map(String), [], 'nothing thrown in the host');
    // Each line after a prefix, what a terminal would act on escaped.
    assert.deepEqual(heard.join('').split('\n'), [
      'agentos vm process: "\\u001b]0;pwned\\u0007\\u001b[2Jagentos: the host says this"',
      'agentos vm process: "line two\\r"',
      '',
    ]);
  } finally {
    process.stderr.write = write;
    process.off('uncaughtException', note);
    process.off('unhandledRejection', note);
    await m?.stop().catch(() => {});
    h.cleanup();
  }
});

test('the CLI runs its VM isolated by default; --isolation none keeps it in the CLI\'s process', () => {
  const status = (args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, 'status', ...args], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    return { cli: r.pid, host: (JSON.parse(r.stdout) as { host: { isolation: string; pid: number } }).host };
  };
  const iso = status([]);
  assert.equal(iso.host.isolation, 'process');
  assert.notEqual(iso.host.pid, iso.cli, 'the kernel runs in another process');
  const none = status(['--isolation', 'none']);
  assert.deepEqual(none.host, { isolation: 'none', pid: none.cli });
  const bad = spawnSync(process.execPath, [CLI, 'exec', '--isolation', 'vm', '--', 'true'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--isolation needs process or none/);
});

// ---- the same API either way ------------------------------------------------

const programs = Object.fromEntries(PROGRAMS.map((name) => [name, readFileSync(new URL(`../../programs/${name}.js`, import.meta.url), 'utf8')]));

test('isolation process: the exec protocol cases, on one isolated machine', async (t) => {
  const m = await boot({ isolation: 'process' });
  try {
    await installPrograms(m, programs);
    for (const c of execCases) await t.test(c.name, () => c.run(m));
  } finally {
    await m.stop();
  }
});

for (const isolation of ['none', 'process'] as const) {
  test(`isolation ${isolation}: output events, bytes, files, spawn and a terminal`, async () => {
    const vm = new AgentVM({ isolation });
    await vm.start();
    try {
      const chunks: string[] = [];
      const off = vm.on('output', (c) => chunks.push(`${c.stream}:${c.text}`));
      await vm.exec('echo one; echo two >&2');
      off();
      assert.deepEqual(chunks.sort(), ['stderr:two\n', 'stdout:one\n']);
      const bytes = new Uint8Array(1 << 20).map((_, i) => (i * 7919) & 0xff);
      await vm.writeFile('/home/user/blob', bytes);
      assert.deepEqual(await vm.readFile('/home/user/blob'), bytes);
      assert.equal((await vm.exec('stat -c "%s %U" blob')).stdout, `${bytes.length} user\n`);
      assert.deepEqual([...(await vm.execBytes("printf '\\000\\377'")).stdout], [0, 255]);
      const p = await vm.spawn(['/opt/agentos/bin/cat']);
      await p.write('through cat\n');
      await p.closeStdin();
      let got = '';
      for await (const b of p.stdout) got += new TextDecoder().decode(b);
      assert.deepEqual([got, await p.wait()], ['through cat\n', 0]);
      const term = await vm.openTerminal({ argv: ['sh'] });
      let screen = '';
      const seen = new Promise<void>((ok) => term.onData((b) => (screen += new TextDecoder().decode(b)).includes('term-42') && ok()));
      term.write('echo term-$((6 * 7))\rexit\r');
      await seen;
      assert.equal(await term.exited, 0);
    } finally {
      await vm.stop();
    }
  });

  test(`isolation ${isolation}: snapshots, fork, audit events, approvals, stop`, async () => {
    const asked: string[] = [];
    const audit: AuditEvent[] = [];
    const vm = new AgentVM({
      isolation,
      policy: { processes: { ask: ['/usr/bin/env'] } },
      onApproval: (req): Answer => {
        asked.push(req.rule);
        return 'once';
      },
    });
    vm.on('audit', (e) => audit.push(e));
    await vm.start();
    const m = vm.vm;
    try {
      await vm.exec('echo v1 > ~/f');
      await vm.snapshot('s1');
      await vm.exec('echo v2 > ~/f');
      const file = await vm.snapshots.export('s1');
      await vm.snapshots.import('s2', file);
      assert.deepEqual((await vm.snapshots.list()).map((s) => s.name).sort(), ['s1', 's2']);
      const child = await vm.fork();
      await child.start();
      assert.equal((await child.exec('cat ~/f')).stdout, 'v2\n');
      await child.stop();
      await vm.restore('s2');
      assert.equal((await vm.exec('cat ~/f')).stdout, 'v1\n');
      assert.equal((await vm.exec('env true && echo ran')).stdout, 'ran\n');
      assert.deepEqual(asked, ['processes.ask:/usr/bin/env']);
      assert.ok(audit.some((e) => e.type === 'approval'), 'the approval reached the audit listener');
      assert.ok((await vm.audit()).some((e) => e.type === 'approval'));
    } finally {
      await vm.stop();
    }
    await assert.rejects(m.status(), /the VM has stopped/);
    if (isolation === 'process') assert.throws(() => process.kill(m.host!.pid, 0), { code: 'ESRCH' }, 'the VM process is gone');
  });
}

// Issue 14, item 11: safe defaults. A VM made with no policy has limits sized
// for the host (kernel/policy/defaults.ts, decision 0031); a hostile guest
// that forks, allocates, writes or prints without end, or asks for timers
// past setTimeout's range, hits them — through AgentVM and the CLI — and the
// host and the VM survive. Peak memory figures are printed (t.diagnostic).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { test, type TestContext } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';
import type { AgentVMOptions } from '../../src/host/node/index.js';
import { checkPolicy } from '../../src/kernel/policy/types.js';
import { defaultLimits } from '../../src/kernel/policy/defaults.js';

// This file runs from dist/test/security/; the CLI is dist/node/cli.js.
const CLI = new URL('../../node/cli.js', import.meta.url).pathname;
const MiB = 2 ** 20;
const DEFAULTS = defaultLimits(totalmem());

/** This process's peak resident memory (the VM's kernel and process workers are its threads), in MiB. */
const peakMiB = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;

async function withVM(options: AgentVMOptions, body: (vm: AgentVM) => Promise<void>): Promise<void> {
  const vm = new AgentVM(options);
  await vm.start();
  try {
    await body(vm);
    assert.equal((await vm.exec('echo alive; /opt/agentos/bin/true && echo ran')).stdout, 'alive\nran\n', 'the VM still works');
  } finally {
    await vm.stop();
  }
}

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
  /** The CLI process's peak resident memory (VmHWM), in MiB. */
  peakMiB: number;
}

/** Run `agentos ARGS...`, sampling its VmHWM; killed (and failing the test) after `killAfterS`. */
function cli(args: string[], killAfterS = 60): Promise<CliRun> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (b: Buffer) => out.push(b));
  child.stderr.on('data', (b: Buffer) => err.push(b));
  let peak = 0;
  const sample = setInterval(() => {
    try {
      peak = Math.max(peak, Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
    } catch {
      // Gone already.
    }
  }, 100);
  const kill = setTimeout(() => child.kill('SIGKILL'), killAfterS * 1000);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearInterval(sample);
      clearTimeout(kill);
      resolve({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString(), seconds: (performance.now() - t0) / 1000, peakMiB: peak });
    });
  });
}

// ---- processes ----------------------------------------------------------------

test('fork bomb under the defaults: EAGAIN at the process limit, the exec timeout cleans up, memory stays bounded', async (t: TestContext) => {
  await withVM({}, async (vm) => {
    const limit = DEFAULTS.maxProcesses!;
    assert.equal((await vm.vm.status()).limits?.maxProcesses, limit);
    const t0 = Date.now();
    const r = await vm.exec('f(){ f|f& }; f; sleep 60', { timeoutMs: 20_000 });
    const seconds = (Date.now() - t0) / 1000;
    assert.equal(r.timedOut, true);
    assert.equal(r.exitCode, 124);
    assert.match(r.stderr, /Resource temporarily unavailable/);
    assert.ok(seconds < 20 + 5, `returned after ${seconds} s`);
    // The pool never holds more workers than processes can exist, plus its warm spares.
    const { workers } = await vm.vm.status();
    assert.ok(workers.idle + workers.running + workers.unwinding <= limit + 6, JSON.stringify(workers));
    const peak = peakMiB();
    t.diagnostic(`fork bomb: limit ${limit} processes, returned in ${seconds.toFixed(1)} s, peak RSS ${peak.toFixed(0)} MiB`);
    assert.ok(peak < 2048, `peak RSS ${peak} MiB`);
    const after = await vm.exec('ps -e -o comm= | wc -l');
    assert.ok(Number(after.stdout) < 6, after.stdout);
  });
});

/** Boot, the grace between SIGINT and SIGKILL, and stopping the VM. */
const CLI_SLACK_S = 6;

// The fork bomb gets the 15 s: by then, without a process limit, the
// kernel was too busy starting workers to end it (65 s, 5 GB of host memory).
for (const [name, seconds, script] of [
  ['a fork bomb', 15, ':(){ :|:& };:; sleep 60'],
  ['a busy loop in the shell', 3, 'while :; do :; done'],
  ['a sleeping child', 3, 'sleep 1000 & wait'],
  ['a JavaScript infinite loop', 3, "node -e 'for (;;) {}'"],
  ['a Python infinite loop', 3, "python3 -c 'while True: pass'"],
] as const) {
  test(`CLI --timeout ${seconds} holds against ${name}`, async (t: TestContext) => {
    const r = await cli(['exec', '--timeout', String(seconds), '--', script]);
    t.diagnostic(`${name}: exit ${r.code} after ${r.seconds.toFixed(1)} s, CLI peak RSS ${r.peakMiB.toFixed(0)} MiB`);
    assert.equal(r.code, 124, r.stderr.slice(-500));
    assert.ok(r.seconds < seconds + CLI_SLACK_S, `returned after ${r.seconds} s`);
    assert.ok(r.peakMiB < 2048, `peak RSS ${r.peakMiB} MiB`);
  });
}

// ---- memory per process -----------------------------------------------------------

test('a heap blow-up kills only that process: JavaScript (js and node runtimes) and Python', async () => {
  // Lower than the default so that each process reaches it in a few seconds.
  await withVM({ policy: { processes: { maxMemoryBytes: 128 * MiB } } }, async (vm) => {
    await vm.writeFile('/tmp/heap.js', '#!/usr/libexec/agentos/js\nconst a = []; for (;;) a.push(new Array(1e6));\n', 0o755);
    const js = await vm.exec('/tmp/heap.js; echo "status $?"');
    assert.equal(js.stdout, 'status 137\n');
    assert.match(js.stderr, /heap\.js: out of memory/);
    const node = await vm.exec("node -e 'const a = []; for (;;) a.push(new Array(1e6))'; echo \"status $?\"");
    assert.equal(node.stdout, 'status 137\n');
    assert.match(node.stderr, /node: out of memory/);
    const py = await vm.exec("python3 -c 'a = []\nwhile True: a.append(bytearray(10**7))'; echo \"status $?\"");
    assert.equal(py.stdout, 'status 1\n');
    assert.match(py.stderr, /MemoryError/);
  });
});

// ---- files -------------------------------------------------------------------------

test('a 2 GiB write to /tmp gets ENOSPC at the default limit; df shows it; memory stays bounded', async (t: TestContext) => {
  await withVM({}, async (vm) => {
    const limit = DEFAULTS.maxLayerBytes!;
    const df = await vm.exec("df -k /tmp | awk 'NR == 2 { print $2 }'");
    assert.equal(Number(df.stdout) * 1024, limit);
    const r = await vm.exec('head -c 2G /dev/zero > /tmp/big; echo "status $?"; wc -c < /tmp/big');
    assert.match(r.stderr, /No space left on device/);
    const [status, size] = r.stdout.split('\n');
    assert.equal(status, 'status 1');
    assert.ok(Number(size) <= limit && Number(size) > limit - MiB, `wrote ${size} of ${limit}`);
    const peak = peakMiB();
    t.diagnostic(`/tmp: ENOSPC at ${limit / MiB} MiB, peak RSS ${peak.toFixed(0)} MiB`);
    assert.ok(peak < limit / MiB + 1024, `peak RSS ${peak} MiB`);
    await vm.exec('rm /tmp/big');
  });
});

// ---- output ------------------------------------------------------------------------

test('1 GB to stdout under --json: the CLI survives, keeps the default cap and says truncated', async (t: TestContext) => {
  const r = await cli(['exec', '--json', '--', 'head -c 1000000000 /dev/zero | tr "\\0" x; echo done >&2'], 120);
  t.diagnostic(`1 GB of output: ${r.seconds.toFixed(1)} s, CLI peak RSS ${r.peakMiB.toFixed(0)} MiB`);
  assert.equal(r.code, 0, r.stderr.slice(-500));
  const out = JSON.parse(r.stdout) as { stdout: string; stderr: string; exitCode: number; truncated?: boolean };
  assert.equal(out.truncated, true);
  assert.equal(out.stdout.length, DEFAULTS.maxExecOutput);
  assert.equal(out.stderr, 'done\n');
  assert.ok(r.peakMiB < 1024, `peak RSS ${r.peakMiB} MiB`);
});

// ---- timers ------------------------------------------------------------------------

test('timers past 2^31 ms do not fire early: sleep, alarm, setTimeout, timeout, exec timeoutMs', async () => {
  await withVM({}, async (vm) => {
    // Alive to be killed: 1e10 s is far away, not "now" nor "invalid".
    assert.equal((await vm.exec('sleep 1e10 & sleep 0.2; kill $! && echo killed')).stdout, 'killed\n');
    assert.equal((await vm.exec('sleep inf & sleep 0.2; kill $! && echo killed')).stdout, 'killed\n');
    assert.equal((await vm.exec('timeout 1e300 true; echo $?; timeout 1e300 sleep 0.1; echo $?')).stdout, '0\n0\n');
    await vm.writeFile('/tmp/alarm.js', '#!/usr/libexec/agentos/js\nagentos.sys.alarm(1e300); agentos.sys.sleep(200); agentos.print("alive\\n");\n', 0o755);
    assert.equal((await vm.exec('/tmp/alarm.js; echo "status $?"')).stdout, 'alive\nstatus 0\n');
    await vm.writeFile('/tmp/timer.js', '#!/usr/libexec/agentos/js\nawait new Promise((r) => { setTimeout(() => { agentos.print("fired\\n"); r(); }, 2 ** 32); setTimeout(r, 200); });\n', 0o755);
    assert.equal((await vm.exec('/tmp/timer.js; echo "status $?"')).stdout, 'status 0\n');
    const node = await vm.exec(`node -e 'setTimeout(() => console.log("fired"), 2 ** 32); setTimeout(() => process.exit(0), 200)'; echo "status $?"`);
    assert.equal(node.stdout, 'status 0\n');
    // The host's own timeouts: a huge one never fires, NaN and negative are errors, 0 is none.
    const r = await vm.exec('sleep 0.3; echo done', { timeoutMs: 2 ** 32 });
    assert.deepEqual([r.stdout, r.timedOut], ['done\n', false]);
    assert.equal((await vm.exec('echo none', { timeoutMs: 0 })).stdout, 'none\n');
    await assert.rejects(vm.exec('true', { timeoutMs: NaN }), /timeoutMs must be a non-negative number/);
    await assert.rejects(vm.exec('true', { timeoutMs: -1 }), /timeoutMs must be a non-negative number/);
  });
});

test('an approval timeout past 2^31 ms waits for the answer', async () => {
  const options: AgentVMOptions = {
    policy: { fs: { ask: ['/home/user/private'] }, approvalTimeoutMs: 2 ** 32 },
    onApproval: () => new Promise((ok) => setTimeout(() => ok('once'), 300)),
  };
  await withVM(options, async (vm) => {
    const r = await vm.exec('echo secret > /home/user/private && echo written');
    assert.equal(r.stdout, 'written\n', r.stderr);
  });
});

test('CLI: --timeout 1e300 does not fire, a bad one is a usage error; limits take "none"', async () => {
  const long = await cli(['exec', '--timeout', '1e300', '--', 'sleep 0.2; echo done']);
  assert.deepEqual([long.code, long.stdout], [0, 'done\n']);
  for (const bad of ['NaN', '-1', 'soon']) {
    const r = await cli(['exec', '--timeout', bad, '--', 'true']);
    assert.equal(r.code, 2, bad);
    assert.match(r.stderr, /invalid --timeout/);
  }
  const none = await cli(['exec', '--max-layer-bytes', 'none', '--max-output', '100', '--json', '--', "df -k /tmp | awk 'NR == 2 { print $4 }'"]);
  assert.equal(none.code, 0, none.stderr);
  const out = JSON.parse(none.stdout) as { stdout: string; truncated?: boolean };
  assert.ok(Number(out.stdout) * 1024 > 2 ** 40, out.stdout); // no limit: tmpfs says "lots"
  assert.equal(out.truncated, false);
  const bad = await cli(['exec', '--max-procs', 'lots', '--', 'true']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--max-procs: 'lots' is not a number or 'none'/);
});

test('the defaults: sized for the host, each overridable, "none" and Infinity for no limit', async () => {
  const GiB = 2 ** 30;
  assert.deepEqual(defaultLimits(24 * GiB), { maxProcesses: 64, maxOpenFiles: 1024, maxLayerBytes: 768 * MiB, maxExecOutput: 16 * MiB, maxMemoryBytes: GiB });
  assert.deepEqual(defaultLimits(4 * GiB), { maxProcesses: 16, maxOpenFiles: 1024, maxLayerBytes: 128 * MiB, maxExecOutput: 16 * MiB, maxMemoryBytes: 256 * MiB });
  assert.throws(() => checkPolicy({ processes: { maxProcesses: NaN } }), /maxProcesses must be a non-negative number or 'none'/);
  assert.throws(() => checkPolicy({ processes: { maxExecOutput: -1 } }), /maxExecOutput must be a non-negative number or 'none'/);
  assert.throws(() => checkPolicy({ approvalTimeoutMs: NaN }), /approvalTimeoutMs must be/);
  await withVM({ policy: { processes: { maxProcesses: 'none', maxLayerBytes: Infinity, maxExecOutput: 100 } } }, async (vm) => {
    const { limits } = await vm.vm.status();
    assert.equal(limits.maxProcesses, undefined);
    assert.equal(limits.maxLayerBytes, undefined);
    assert.equal(limits.maxExecOutput, 100);
    assert.equal(limits.maxMemoryBytes, DEFAULTS.maxMemoryBytes);
    const r = await vm.exec('seq 1000');
    assert.deepEqual([r.stdout.length, r.truncated], [100, true]);
  });
});

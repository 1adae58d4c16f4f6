// The process worker pool (src/kernel/runner.ts) with stand-in workers: boots
// are throttled to a few at a time, a claim waiting for its boot takes the
// first worker to come back idle, the pool stays within its processes plus
// its spares, a grown pool shrinks after a quiet spell, and an idle VM gives
// its idle workers back (the next spawn gets a worker at once and the pool refills).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newDoorbell } from '../../src/abi/channel.js';
import type { RunMessage, WorkerMessage } from '../../src/abi/runtime.js';
import type { Process } from '../../src/kernel/process.js';
import { Runner, type WorkerPort } from '../../src/kernel/runner.js';

class FakeWorker implements WorkerPort {
  runs: RunMessage[] = [];
  dead = false;
  private listener: ((m: unknown) => void) | null = null;
  post(m: unknown): void {
    this.runs.push(m as RunMessage);
  }
  onMessage(cb: (m: unknown) => void): void {
    this.listener = cb;
  }
  onError(): void {}
  terminate(): void {
    this.dead = true;
  }
  say(m: WorkerMessage): void {
    this.listener!(m);
  }
}

function pool(warm: number, boots: number): { runner: Runner; workers: FakeWorker[] } {
  const workers: FakeWorker[] = [];
  const runner = new Runner(() => {
    const w = new FakeWorker();
    workers.push(w);
    return w;
  }, newDoorbell(), { fault: () => {} }, warm, {}, boots);
  return { runner, workers };
}

/** A process as the runner sees it: a key, a pid, an env and the channel it was given. */
function proc(pid: number): Process {
  return { pid, env: [], channel: null } as unknown as Process;
}

function claimAndStart(runner: Runner, p: Process): SharedArrayBuffer {
  const sab = runner.claim(p);
  (p as { channel: unknown }).channel = { sab };
  runner.start(p, { runtime: 'js', file: '/bin/x', argv: ['x'] });
  return sab;
}

const tick = () => new Promise<void>((r) => setTimeout(r, 0));

test('a burst of spawns boots at most `boots` workers at once; each run starts when its worker is ready', async () => {
  const { runner, workers } = pool(1, 2);
  const procs = Array.from({ length: 10 }, (_, i) => proc(100 + i));
  for (const p of procs) claimAndStart(runner, p);
  await tick();
  assert.equal(workers.length, 2, 'two workers booting');
  assert.deepEqual(workers.map((w) => w.runs.length), [1, 1], 'their run messages wait in the port until they boot');
  workers[0].say({ type: 'ready' });
  assert.equal(workers.length, 3, 'a boot finished: the next one starts');
  assert.equal(workers[2].runs.length, 1, 'and gets its process run message');
  runner.shutdown();
  assert.ok(workers.every((w) => w.dead));
});

test('a worker that comes back idle takes over the latest claim still waiting, with that claim\'s channel', async () => {
  const { runner, workers } = pool(1, 1);
  const a = proc(1);
  claimAndStart(runner, a);
  workers[0].say({ type: 'ready' });
  const b = proc(2);
  const c = proc(3);
  claimAndStart(runner, b);
  const cSab = claimAndStart(runner, c);
  await tick();
  assert.equal(workers.length, 2, 'b boots; c waits');
  runner.exited(a);
  workers[0].say({ type: 'idle' });
  assert.equal(workers[0].runs.length, 2, "a's worker runs c next");
  assert.equal(workers[0].runs[1].pid, 3);
  assert.equal(workers[0].runs[1].channel, cSab, "on c's own channel");
  assert.equal(workers.length, 2, 'c needed no worker of its own');
  assert.equal(runner.stats.running, 2);
  runner.shutdown();
});

test('the pool stays within its processes plus its spares', async () => {
  const warm = 2;
  const { runner, workers } = pool(warm, 2);
  runner.fillPool();
  const procs = Array.from({ length: 30 }, (_, i) => proc(200 + i));
  for (const p of procs) claimAndStart(runner, p);
  for (let i = 0; i < 40; i++) {
    await tick();
    for (const w of workers) if (!w.dead) w.say({ type: 'ready' });
  }
  const live = () => workers.filter((w) => !w.dead).length;
  assert.ok(live() <= 30 + 2 * warm, `${live()} workers for 30 processes`);
  for (const p of procs) runner.exited(p);
  for (const w of workers) if (!w.dead) w.say({ type: 'idle' });
  await tick();
  assert.ok(live() <= 2 * warm, `${live()} workers after every process exited`);
  runner.shutdown();
});

test('a claim that finds the idle pool empty grows it past its warm size', async () => {
  const warm = 2;
  const { runner, workers } = pool(warm, 4);
  runner.fillPool();
  for (const w of workers) w.say({ type: 'ready' });
  claimAndStart(runner, proc(1));
  await tick();
  assert.equal(runner.stats.idle, warm, 'a claim the pool could serve: topped up to its warm size');
  for (const pid of [2, 3, 4]) claimAndStart(runner, proc(pid));
  await tick();
  assert.equal(runner.stats.idle, 2 * warm - 1, 'a claim that found it empty: more spares');
  runner.shutdown();
});

test('a grown pool shrinks back to its warm size after a quiet spell; an idle one is given back later', async (t) => {
  // One timer serves both deadlines (SHRINK_MS = 5 s after the last growth, POOL_IDLE_MS = 30 s after the last claim).
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 });
  const settle = () => new Promise<void>((r) => setImmediate(r));
  const warm = 2;
  const { runner, workers } = pool(warm, 4);
  runner.fillPool();
  for (const w of workers) w.say({ type: 'ready' });
  for (const pid of [1, 2, 3, 4]) claimAndStart(runner, proc(pid));
  await settle();
  assert.equal(runner.stats.idle, 2 * warm - 1, 'grown');
  t.mock.timers.tick(4_999);
  await settle();
  assert.equal(runner.stats.idle, 2 * warm - 1, 'not yet');
  t.mock.timers.tick(1);
  await settle();
  assert.equal(runner.stats.idle, warm, 'shrunk after 5 s without growth');
  t.mock.timers.tick(24_999);
  await settle();
  assert.equal(runner.stats.idle, warm, 'still warm before 30 s without a claim');
  t.mock.timers.tick(1);
  await settle();
  assert.deepEqual([runner.stats.idle, runner.stats.running], [0, 4], 'given back; the running workers kept');
  runner.shutdown();
});

test('while the VM boots, the first claim starts no replacement worker; fillPool tops the pool up', async () => {
  const { runner, workers } = pool(2, 2);
  runner.prewarm();
  assert.equal(workers.length, 1, 'one worker while the VM boots');
  workers[0].say({ type: 'ready' });
  claimAndStart(runner, proc(1));
  await tick();
  assert.equal(workers.length, 1, 'the first program has the cores to itself');
  runner.fillPool();
  assert.equal(runner.stats.idle, 2, 'boot over: the warm pool');
  claimAndStart(runner, proc(2));
  await tick();
  assert.equal(runner.stats.idle, 2, 'after boot a claim is replaced at once');
  runner.shutdown();
});

/** Fake workers; `until(n, m)` resolves once n have been made and m of them terminated. */
function fakeWorkers() {
  let made = 0;
  let ended = 0;
  const waiting: { made: number; ended: number; ok: () => void }[] = [];
  const check = () => waiting.filter((x) => made >= x.made && ended >= x.ended).forEach((x) => x.ok());
  const factory = (): WorkerPort => {
    made++;
    queueMicrotask(check);
    let listener: ((m: unknown) => void) | null = null;
    queueMicrotask(() => listener?.({ type: 'ready' })); // booted at once
    return { post() {}, onMessage: (cb) => void (listener = cb), onError() {}, terminate: () => (ended++, check()) };
  };
  const until = (n: number, m: number) => new Promise<void>((ok) => (waiting.push({ made: n, ended: m, ok }), check()));
  return { factory, until, counts: () => ({ made, ended }) };
}

const idleProc = () => ({}) as Process;
const noFaults = { fault: () => assert.fail('no fault expected') };

test('an idle pool is given back; the running workers are kept', { timeout: 10_000 }, async () => {
  const w = fakeWorkers();
  const runner = new Runner(w.factory, newDoorbell(), noFaults, 2, {}, 2, 20);
  runner.prewarm();
  runner.fillPool();
  runner.claim(idleProc()); // a long-lived process (the exec shell) holds its worker
  await w.until(3, 2); // two pooled workers beside it, both given back
  assert.deepEqual(runner.stats, { idle: 0, running: 1, unwinding: 0, spawned: 3 });
  assert.deepEqual(w.counts(), { made: 3, ended: 2 });
  runner.shutdown();
});

test('the first spawn after idle gets a worker at once, and the pool refills', { timeout: 10_000 }, async () => {
  const w = fakeWorkers();
  // Idle after 300 ms: the refill (250 ms after the claim) comes before the next trim.
  const runner = new Runner(w.factory, newDoorbell(), noFaults, 2, {}, 2, 300);
  runner.prewarm();
  runner.fillPool();
  await w.until(2, 2);
  assert.equal(runner.stats.idle, 0);
  assert.ok(runner.claim(idleProc()) instanceof SharedArrayBuffer);
  assert.deepEqual(runner.stats, { idle: 0, running: 1, unwinding: 0, spawned: 3 });
  await w.until(5, 2); // the pool of 2 again
  assert.equal(runner.stats.idle, 2);
  runner.shutdown();
});

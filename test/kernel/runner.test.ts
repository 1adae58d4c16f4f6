// The warm pool of process workers (src/kernel/runner.ts): an idle VM gives
// its idle workers back, keeps the ones running processes, and the next
// spawn gets a worker at once and refills the pool.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newDoorbell } from '../../src/abi/channel.js';
import type { Process } from '../../src/kernel/process.js';
import { Runner, type WorkerPort } from '../../src/kernel/runner.js';

/** Fake workers; `until(n, m)` resolves once n have been made and m of them terminated. */
function fakeWorkers() {
  let made = 0;
  let ended = 0;
  const waiting: { made: number; ended: number; ok: () => void }[] = [];
  const check = () => waiting.filter((x) => made >= x.made && ended >= x.ended).forEach((x) => x.ok());
  const factory = (): WorkerPort => {
    made++;
    queueMicrotask(check);
    return { post() {}, onMessage() {}, onError() {}, terminate: () => (ended++, check()) };
  };
  const until = (n: number, m: number) => new Promise<void>((ok) => (waiting.push({ made: n, ended: m, ok }), check()));
  return { factory, until, counts: () => ({ made, ended }) };
}

const proc = () => ({}) as Process;
const noFaults = { fault: () => assert.fail('no fault expected') };

test('an idle pool is given back; the running workers are kept', { timeout: 10_000 }, async () => {
  const w = fakeWorkers();
  const runner = new Runner(w.factory, newDoorbell(), noFaults, 2, {}, 20);
  runner.prewarm();
  runner.fillPool();
  runner.claim(proc()); // a long-lived process (the exec shell) holds its worker
  await w.until(3, 2); // two pooled workers beside it, both given back
  assert.deepEqual(runner.stats, { idle: 0, running: 1, unwinding: 0, spawned: 3 });
  assert.deepEqual(w.counts(), { made: 3, ended: 2 });
  runner.shutdown();
});

test('the first spawn after idle gets a worker at once, and the pool refills', { timeout: 10_000 }, async () => {
  const w = fakeWorkers();
  // Idle after 300 ms: the refill (250 ms after the claim) comes before the next trim.
  const runner = new Runner(w.factory, newDoorbell(), noFaults, 2, {}, 300);
  runner.prewarm();
  runner.fillPool();
  await w.until(2, 2);
  assert.equal(runner.stats.idle, 0);
  assert.ok(runner.claim(proc()) instanceof SharedArrayBuffer);
  assert.deepEqual(runner.stats, { idle: 0, running: 1, unwinding: 0, spawned: 3 });
  await w.until(5, 2); // the pool of 2 again
  assert.equal(runner.stats.idle, 2);
  runner.shutdown();
});

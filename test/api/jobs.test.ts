// vm.jobs (src/host/worker/jobs.ts, job-log.ts) through AgentVM on Node: a
// ticking job polled by cursor, a kill that reaches grandchildren, exit codes,
// a log that overflows, many jobs up to the process limit, and UTF-8 split
// across writes.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';

let vm: AgentVM;

before(async () => {
  vm = new AgentVM();
  await vm.start();
});

after(() => vm.stop());

/** Poll until `ok` holds of the job's new output (collected across polls), or fail after ~10 s. */
async function pollUntil(on: AgentVM, id: number, ok: (all: string) => boolean, cursor = 0): Promise<{ all: string; cursor: number }> {
  let all = '';
  for (let i = 0; i < 400; i++) {
    const r = await on.jobs.output(id, cursor);
    assert.ok(r.cursor >= cursor, 'the cursor never goes back');
    all += r.stdout;
    cursor = r.cursor;
    if (ok(all)) return { all, cursor };
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`job ${id}: no match in ${JSON.stringify(all)}`);
}

test('jobs: a ticking job polled by cursor returns only what is new; kill ends it with SIGTERM', async () => {
  const id = await vm.jobs.start('while :; do echo tick; sleep 0.1; done');
  const first = await pollUntil(vm, id, (s) => s.includes('tick\ntick\n'));
  assert.match(first.all, /^(tick\n)+$/);
  const next = await pollUntil(vm, id, (s) => s.length > 0, first.cursor);
  assert.match(next.all, /^(tick\n)+$/, 'a later poll starts where the last one ended');
  const whole = await vm.jobs.output(id);
  assert.ok(whole.stdout.startsWith(first.all + next.all), 'cursor 0 gives everything kept, in order');
  assert.equal(whole.running, true);
  assert.equal(whole.dropped, 0);

  const listed = (await vm.jobs.list()).find((j) => j.id === id);
  assert.equal(listed?.command, 'while :; do echo tick; sleep 0.1; done');
  assert.equal(listed?.running, true);

  await vm.jobs.kill(id);
  const st = await vm.jobs.wait(id);
  assert.deepEqual(st, { id, running: false, exitCode: 143, signal: 'SIGTERM' });
  const end = await vm.jobs.output(id, whole.cursor);
  assert.equal(end.running, false);
  assert.equal(end.exitCode, 143);
});

test('jobs: exit code, stderr apart from stdout, wait with a timeout, cwd and env', async () => {
  const id = await vm.jobs.start('pwd; echo "$GREETING"; echo oops >&2; exit 3', { cwd: '/tmp', env: { GREETING: 'hi' } });
  assert.deepEqual(await vm.jobs.wait(id), { id, running: false, exitCode: 3 });
  const r = await vm.jobs.output(id);
  assert.equal(r.stdout, '/tmp\nhi\n');
  assert.equal(r.stderr, 'oops\n');
  assert.equal(r.cursor, '/tmp\nhi\noops\n'.length);
  const again = await vm.jobs.output(id, r.cursor);
  assert.deepEqual([again.stdout, again.stderr, again.cursor], ['', '', r.cursor], 'nothing new past the end');

  const slow = await vm.jobs.start('sleep 30');
  assert.deepEqual(await vm.jobs.wait(slow, { timeoutMs: 100 }), { id: slow, running: true }, 'a wait that times out says running');
  await vm.jobs.kill(slow, 'KILL');
  assert.deepEqual(await vm.jobs.wait(slow), { id: slow, running: false, exitCode: 137, signal: 'SIGKILL' });
  assert.equal((await vm.exec('whoami')).stdout, 'user\n');
  const who = await vm.jobs.start('whoami');
  await vm.jobs.wait(who);
  assert.match((await vm.jobs.output(who)).stdout, /^user\n/, 'a job runs as the VM user');
});

test('jobs: kill reaches the whole group, grandchildren and a process group made inside the job included', async () => {
  // timeout runs its command in a process group of its own; SIGKILL leaves timeout no chance to pass it on.
  const id = await vm.jobs.start('sleep 300 & (sleep 301 & wait) & timeout 400 sleep 302 & echo started; wait');
  await pollUntil(vm, id, (s) => s.includes('started'));
  const ps = async () => (await vm.exec("ps -eo comm,args | grep '^sleep' || true")).stdout;
  const all = (s: string) => [300, 301, 302].every((n) => s.includes(`sleep ${n}`));
  for (let i = 0; i < 100 && !all(await ps()); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(all(await ps()), 'all three sleeps run');
  await vm.jobs.kill(id, 'KILL');
  assert.equal((await vm.jobs.wait(id, { timeoutMs: 10_000 })).running, false, 'the job ends: nothing holds its output open');
  for (let i = 0; i < 100 && (await ps()) !== ''; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(await ps(), '', 'no sleep survives the kill');
});

test('jobs: a job that overflows its log keeps the newest bytes and says how many were dropped', async () => {
  const id = await vm.jobs.start('for i in $(seq 1 2000); do printf "%07d\\n" $i; done; echo done >&2', { logBytes: 4096 });
  await vm.jobs.wait(id);
  const r = await vm.jobs.output(id);
  const total = 2000 * 8 + 'done\n'.length;
  assert.equal(r.cursor, total);
  assert.ok(r.dropped > 0 && r.dropped <= total - 4096 + 8, `dropped ${r.dropped}`);
  assert.equal(r.stdout.length + r.stderr.length, total - r.dropped);
  assert.ok(r.stdout.endsWith('0002000\n'));
  assert.equal(r.stderr, 'done\n');
  const mid = await vm.jobs.output(id, total - 13);
  assert.deepEqual([mid.stdout, mid.stderr, mid.dropped], ['0002000\n', 'done\n', 0], 'a cursor inside what is kept');
  await assert.rejects(vm.jobs.start('true', { logBytes: 10 }), /logBytes/);
});

test('jobs: UTF-8 split across writes arrives whole', async () => {
  // é is c3 a9, 😀 is f0 9f 98 80: each written a byte at a time, with pauses so the reads see the halves apart.
  const id = await vm.jobs.start("printf '\\303'; sleep 0.2; printf '\\251 \\360\\237'; sleep 0.2; printf '\\230\\200\\n'; printf 'x\\377y\\n'");
  const seen: string[] = [];
  let cursor = 0;
  for (let r = await vm.jobs.output(id); ; r = await vm.jobs.output(id, cursor)) {
    seen.push(r.stdout);
    cursor = r.cursor;
    if (!r.running) break;
    await new Promise((res) => setTimeout(res, 30));
  }
  assert.equal(seen.join(''), 'é 😀\nx\uFFFDy\n');
  assert.ok(!seen.some((s) => s.includes('\uFFFD') && !s.includes('x')), 'no half character became U+FFFD');
});

test('jobs: many at once up to the process limit, then EAGAIN; list forgets drained jobs', async () => {
  const small = new AgentVM({ policy: { processes: { maxProcesses: 8 } } });
  await small.start();
  try {
    const ids: number[] = [];
    let refused: Error | null = null;
    for (let i = 0; i < 20 && !refused; i++) {
      try {
        ids.push(await small.jobs.start(`echo job${i}; exec sleep 60`));
      } catch (e) {
        refused = e as Error;
      }
    }
    assert.match(String(refused), /EAGAIN|process limit/);
    assert.ok(ids.length >= 4 && ids.length < 8, `${ids.length} jobs started`);
    for (const id of ids) assert.match((await pollUntil(small, id, (s) => s.includes('\n'))).all, /^job\d+\n$/);
    for (const id of ids) await small.jobs.kill(id);
    for (const id of ids) assert.equal((await small.jobs.wait(id)).running, false);
    for (const id of ids) assert.equal((await small.jobs.output(id)).running, false);
    assert.equal((await small.jobs.list()).length, ids.length, 'drained jobs are listed once more');
    assert.deepEqual(await small.jobs.list(), [], 'then forgotten');
    await assert.rejects(small.jobs.output(ids[0]), /ESRCH|no job/);
    await assert.rejects(small.jobs.kill(999), /ESRCH|no job/);
    await assert.rejects(small.jobs.start('true').then((id) => small.jobs.kill(id, 'NOPE')), /EINVAL|unknown signal/);
  } finally {
    await small.stop();
  }
});

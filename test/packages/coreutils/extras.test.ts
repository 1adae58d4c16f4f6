// Behaviour tests for what the differential suite cannot compare case by case:
// tail -f following a file that another process appends to (and GNU tail doing
// the same on the host), shuf's properties without a fixed random source, and
// chown as an ordinary user.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { boot } from '../../../src/host/node/index.js';
import type { Machine } from '../../../src/host/node/index.js';

const ENV = { PATH: '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C', TZ: 'UTC' };
const text = (b: Uint8Array): string => Buffer.from(b).toString('latin1');
const SIGTERM = 15;
const SIGINT = 2;
const termsig = (status: number) => status & 0x7f;

let m: Machine;
let host: string;

before(async () => {
  m = await boot();
  host = mkdtempSync(join(tmpdir(), 'agentos-extras-'));
});

after(async () => {
  if (m) await m.stop();
  rmSync(host, { recursive: true, force: true });
});

async function vm(script: string, uid?: number): Promise<{ out: string; err: string; code: number }> {
  const r = await m.run(['/bin/bash', '-c', script], { cwd: '/tmp', env: ENV, timeoutMs: 20_000, uid });
  return { out: text(r.stdout), err: text(r.stderr), code: r.exitCode };
}

/** Poll a VM file until `pred` holds (or give up after `ms`). */
async function until(path: string, pred: (s: string) => boolean, ms = 8000): Promise<string> {
  const end = Date.now() + ms;
  let s = '';
  while (Date.now() < end) {
    try {
      s = await m.readText(path);
    } catch {
      s = '';
    }
    if (pred(s)) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  return s;
}

test('tail -f: lines appended by another process appear; truncation is reported; SIGTERM ends it', async () => {
  await vm('mkdir -p /tmp/tf && seq 3 > /tmp/tf/log');
  const pid = await m.spawn(['/bin/bash', '-c', 'exec tail -f -s 0.1 /tmp/tf/log >/tmp/tf/out 2>/tmp/tf/err'], { cwd: '/tmp', env: ENV });
  assert.equal(await until('/tmp/tf/out', (s) => s === '1\n2\n3\n'), '1\n2\n3\n');
  // A separate process appends, in two writes.
  await vm('echo four >> /tmp/tf/log; printf "fi" >> /tmp/tf/log; printf "ve\\n" >> /tmp/tf/log');
  assert.equal(await until('/tmp/tf/out', (s) => s.endsWith('five\n')), '1\n2\n3\nfour\nfive\n');
  await vm(': > /tmp/tf/log; echo fresh >> /tmp/tf/log');
  assert.equal(await until('/tmp/tf/out', (s) => s.endsWith('fresh\n')), '1\n2\n3\nfour\nfive\nfresh\n');
  assert.equal(await m.readText('/tmp/tf/err'), 'tail: /tmp/tf/log: file truncated\n');
  await m.kill(pid, SIGTERM);
  assert.equal(termsig(await m.wait(pid)), SIGTERM);
});

test('tail -f: the same session as GNU tail on the host gives the same output', async () => {
  // Appends, a truncation and a second file, with pauses longer than either tail's reaction
  // (GNU's inotify sees two appends in the order made; polling sees them in file order).
  const script = `cd "$1" && seq 3 > a && seq 2 > b && { tail -f -s 0.1 a b > out 2> err & t=$!; } &&
    sleep 0.6; echo A1 >> a; sleep 0.6; echo B1 >> b; sleep 0.6; echo B2 >> b; sleep 0.6; echo A2 >> a; sleep 0.6;
    : > a; sleep 0.6; echo A3 >> a; sleep 0.6; kill $t; wait $t; cat out; echo ---; cat err`;
  const gnu = spawnSync('bash', ['-c', script, 'bash', host], { env: ENV, encoding: 'latin1' });
  const ours = await vm(`set -- /tmp/tf2; mkdir -p /tmp/tf2; ${script.replace('cd "$1"', 'cd /tmp/tf2')}`);
  assert.equal(ours.out, gnu.stdout);
  assert.match(ours.out, /==> a <==\nA1\n\n==> b <==\nB1\nB2\n\n==> a <==\nA2\nA3\n---\ntail: a: file truncated\n$/);
});

test('tail -f --pid: ends once the writer is gone, after a last read', async () => {
  const t0 = Date.now();
  const r = await vm('seq 2 > /tmp/pl; (sleep 0.5; echo late >> /tmp/pl) & w=$!; tail -f -s 0.1 --pid=$w /tmp/pl; echo "status $?"');
  assert.equal(r.out, '1\n2\nlate\nstatus 0\n');
  assert.ok(Date.now() - t0 < 8000, 'ended soon after the writer');
});

test('tail -F: a file that appears later, disappears and comes back', async () => {
  await vm('rm -rf /tmp/tF; mkdir /tmp/tF');
  const pid = await m.spawn(['/bin/bash', '-c', 'exec tail -F -s 0.1 /tmp/tF/log >/tmp/tF/out 2>/tmp/tF/err'], { cwd: '/tmp', env: ENV });
  await until('/tmp/tF/err', (s) => s.includes('cannot open'));
  await vm('echo one > /tmp/tF/log');
  assert.equal(await until('/tmp/tF/out', (s) => s === 'one\n'), 'one\n');
  await vm('rm /tmp/tF/log');
  await until('/tmp/tF/err', (s) => s.includes('inaccessible'));
  await vm('echo two > /tmp/tF/log');
  assert.equal(await until('/tmp/tF/out', (s) => s === 'one\ntwo\n'), 'one\ntwo\n');
  await m.kill(pid, SIGINT);
  assert.equal(termsig(await m.wait(pid)), SIGINT);
  assert.equal(
    await m.readText('/tmp/tF/err'),
    "tail: cannot open '/tmp/tF/log' for reading: No such file or directory\n" +
      "tail: '/tmp/tF/log' has appeared;  following new file\n" +
      "tail: '/tmp/tF/log' has become inaccessible: No such file or directory\n" +
      "tail: '/tmp/tF/log' has appeared;  following new file\n",
  );
});

const lines = (s: string) => s.split('\n').filter((l) => l !== '');

test('shuf: a permutation of its input, different from run to run', async () => {
  const a = await vm('seq 100 | shuf');
  const b = await vm('seq 100 > /tmp/s100; shuf /tmp/s100');
  const want = Array.from({ length: 100 }, (_, i) => String(i + 1));
  for (const r of [a, b]) {
    assert.equal(r.code, 0);
    assert.deepEqual([...lines(r.out)].sort((x, y) => Number(x) - Number(y)), want);
  }
  // 100! orders: equal outputs (or the identity) would mean no randomness.
  assert.notEqual(a.out, b.out);
  assert.notEqual(a.out, `${want.join('\n')}\n`);
});

test('shuf: -n, -e, -i, -r and -o keep to their promises', async () => {
  const n = lines((await vm('seq 1000 | shuf -n 7')).out);
  assert.equal(n.length, 7);
  assert.equal(new Set(n).size, 7);
  assert.ok(n.every((x) => Number(x) >= 1 && Number(x) <= 1000));
  const e = lines((await vm('shuf -e red green blue')).out).sort();
  assert.deepEqual(e, ['blue', 'green', 'red']);
  const i = lines((await vm('shuf -i 5-9')).out).map(Number).sort();
  assert.deepEqual(i, [5, 6, 7, 8, 9]);
  const r = lines((await vm('shuf -r -n 200 -e x y')).out);
  assert.equal(r.length, 200);
  assert.ok(r.every((x) => x === 'x' || x === 'y'));
  assert.ok(r.includes('x') && r.includes('y'), 'both values drawn in 200 tries');
  const o = await vm('seq 20 > /tmp/so; shuf -o /tmp/so /tmp/so; sort -n /tmp/so | tr "\\n" " "');
  assert.equal(o.out, `${Array.from({ length: 20 }, (_, k) => k + 1).join(' ')} `);
  // Uniform enough: each of 3 values is drawn about a third of the time (bounds over 4 sigma away).
  const draws = lines((await vm('shuf -r -n 900 -e a b c')).out);
  for (const v of ['a', 'b', 'c']) {
    const count = draws.filter((x) => x === v).length;
    assert.ok(count > 240 && count < 360, `${v} drawn ${count} times of 900`);
  }
});

test('chown as an ordinary user: giving files away is refused, no-op changes are allowed', async () => {
  const uid = 1000;
  const r = await vm('cd /tmp && rm -f cu && touch cu && chown 0 cu; echo "status $?"; chown -v user cu; chown -c :user cu; echo "status $?"; stat -c "%u:%g" cu', uid);
  assert.equal(r.out, "status 1\nownership of 'cu' retained as user\nstatus 0\n1000:1000\n");
  assert.equal(r.err, "chown: changing ownership of 'cu': Operation not permitted\n");
  const f = await vm('cd /tmp && chown -f 0 cu; echo "status $?"; chown -R 0 /tmp/cu 2>&1; echo "status $?"', uid);
  assert.equal(f.out, "status 1\nchown: changing ownership of '/tmp/cu': Operation not permitted\nstatus 1\n");
});

// Behaviour tests of agentOS procps (ps, kill, pgrep, pkill, pidof, uptime,
// free, top) in one booted VM. The process tables differ from the host's, so
// outputs are compared by shape: header lines and fixed texts (kill -l, kill
// -L, free's header, top's column header) byte for byte against the host's
// procps-ng when it is installed, values by pattern.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { boot } from '../../../src/host/node/index.js';
import type { Machine } from '../../../src/host/node/index.js';

interface Out {
  out: string;
  err: string;
  code: number;
}

const ENV = { PATH: '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C', TERM: 'dumb', HOME: '/tmp' };
/** bash has a kill builtin; procps' kill is the file. */
const KILL = '/opt/agentos/bin/kill';
const text = (b: Uint8Array): string => Buffer.from(b).toString('utf8');

let m: Machine | null = null;
/** Two long sleeps started in the background (detached from the run's output). */
let s1 = 0;
let s2 = 0;

async function vm(cmd: string): Promise<Out> {
  const r = await m!.run(['/bin/bash', '-c', cmd], { cwd: '/tmp', env: ENV, stdin: '', timeoutMs: 20_000 });
  return { out: text(r.stdout), err: text(r.stderr), code: r.exitCode };
}

/** The host's output, or null when the tool is missing (then only shapes are checked). */
function host(cmd: string): Out | null {
  const r = spawnSync('bash', ['-c', cmd], { env: ENV, encoding: 'utf8' });
  if (r.status === 127 || /not found/.test(r.stderr ?? '')) return null;
  return { out: r.stdout ?? '', err: r.stderr ?? '', code: r.status ?? -1 };
}

const first = (s: string): string => s.split('\n')[0];
const lines = (s: string): string[] => s.split('\n').filter(Boolean);
/** Diagnostics with the program name (as invoked) normalised. */
const diag = (s: string): string => s.replace(/^(?:\S*\/)?(kill|pgrep|pkill|ps): /gm, '$1: ');

before(async () => {
  m = await boot();
  const r = await vm('sleep 300 >/dev/null 2>&1 & echo $!; sleep 301 >/dev/null 2>&1 & echo $!');
  [s1, s2] = lines(r.out).map(Number);
  assert.ok(s1 > 0 && s2 > 0, `background sleeps started: ${JSON.stringify(r)}`);
});

after(async () => {
  if (m) await m.stop();
});

test('ps: headers match procps-ng', async () => {
  for (const args of ['', '-ef', 'aux', '-o pid,ppid,pgid,sid,comm,args,stat,user', 'ax', '-o pid,etime,time,start,stime,tty,tname,s,ni,vsz,rss,c,uid,group']) {
    const got = await vm(`ps ${args}`);
    assert.equal(got.code, 0, `ps ${args}: ${got.err}`);
    const h = host(`ps ${args} | head -1`);
    if (h) assert.equal(first(got.out), first(h.out), `header of ps ${args}`);
  }
});

test('ps -ef and ps aux rows', async () => {
  const ef = lines((await vm('ps -ef')).out);
  const row = ef.find((l) => l.split(/\s+/)[1] === String(s1));
  assert.ok(row, 'ps -ef lists the sleep');
  const f = row.split(/\s+/);
  assert.equal(f[0], 'root');
  assert.match(f[4], /^\d\d:\d\d$/, 'STIME');
  assert.equal(f[5], '?');
  assert.equal(f[6], '00:00:00');
  assert.match(f.slice(7).join(' '), /sleep 300$/);
  assert.equal(row.indexOf(String(s1)) + String(s1).length, 14, 'PID right-aligned under its header');
  const aux = lines((await vm('ps aux')).out);
  const arow = aux.find((l) => l.split(/\s+/)[1] === String(s2));
  assert.ok(arow, 'ps aux lists the sleep');
  const a = arow.split(/\s+/);
  assert.deepEqual(a.slice(2, 7), ['0.0', '0.0', '0', '0', '?'], '%CPU %MEM VSZ RSS TTY');
  assert.match(a[7], /^[RSTZ]/, 'STAT');
  assert.equal(a[9], '0:00', 'TIME');
  assert.ok(aux.some((l) => l.split(/\s+/)[1] === '1'), 'ps aux shows init');
});

test('ps -o, -p and --no-headers', async () => {
  assert.equal((await vm(`ps -o pid=,comm= -p ${s1}`)).out, `${String(s1).padStart(5)} sleep\n`);
  const renamed = await vm(`ps -o pid=ID,comm=NAME -p ${s1}`);
  assert.equal(renamed.out, `   ID NAME\n${String(s1).padStart(5)} sleep\n`);
  const noHead = await vm(`ps --no-headers -o pid,ppid -p ${s1},${s2}`);
  assert.equal(lines(noHead.out).length, 2);
  assert.match(noHead.out, new RegExp(`^ *${s1} +1?\\d*\\n`));
  const gone = await vm('ps -p 99999');
  assert.equal(gone.code, 1, 'no process selected: status 1');
  assert.equal(gone.out, '  PID TTY          TIME CMD\n');
  const cols = await vm(`ps -o pid,ppid,pgid,sid,comm,args,stat,user -p ${s1}`);
  const row = lines(cols.out)[1];
  assert.equal(row.slice(24, 40), 'sleep           ', 'comm is 15 wide');
  assert.match(row, /^ *\d+ +\d+ +\d+ +\d+ sleep +\S.{26} [RSTZ]\S* +root$/);
  const bad = await vm('ps -o nosuch');
  assert.notEqual(bad.code, 0);
});

test('pgrep selection and statuses', async () => {
  const all = await vm('pgrep -x sleep');
  assert.equal(all.code, 0);
  assert.deepEqual(lines(all.out).map(Number), [s1, s2]);
  assert.equal((await vm('pgrep -f "sleep 30[1]"')).out, `${s2}\n`);
  assert.equal((await vm('pgrep -l -x sleep')).out, `${s1} sleep\n${s2} sleep\n`);
  assert.match((await vm('pgrep -a -f "sleep 30[0]"')).out, new RegExp(`^${s1} \\S*sleep 300\\n$`));
  assert.equal((await vm('pgrep -n -x sleep')).out, `${s2}\n`);
  assert.equal((await vm('pgrep -o -x sleep')).out, `${s1}\n`);
  assert.equal((await vm('pgrep -c -x sleep')).out, '2\n');
  assert.equal((await vm('pgrep -d, -x sleep')).out, `${s1},${s2}\n`);
  assert.equal((await vm('pgrep -x slee')).code, 1, '-x needs the whole name');
  assert.equal((await vm('pgrep -u root -x sleep')).code, 0);
  const none = await vm('pgrep nomatchatall');
  assert.deepEqual([none.code, none.out], [1, '']);
  const noCrit = await vm('pgrep');
  const h = host('pgrep');
  assert.equal(noCrit.code, 2);
  if (h) assert.equal(diag(noCrit.err), diag(h.err));
  assert.equal((await vm('pgrep "ba("')).code, 2, 'bad regex: status 2');
});

test('pidof', async () => {
  const r = await vm('pidof sleep');
  assert.equal(r.out, `${s2} ${s1}\n`, 'newest first');
  assert.equal((await vm('pidof -s sleep')).out, `${s2}\n`);
  assert.equal((await vm('pidof nosuchprog')).code, 1);
});

test('kill: lists and messages match procps-ng', async () => {
  for (const args of ['-l', '-L', '-l 9', '-l KILL', '-l sigterm']) {
    const got = await vm(`${KILL} ${args}`);
    const h = host(`/bin/kill ${args}`);
    if (h) assert.equal(got.out, h.out, `kill ${args}`);
    assert.equal(got.code, 0);
  }
  assert.equal((await vm(`${KILL} -l 9`)).out, 'KILL\n');
  for (const args of ['99999', 'abc', '']) {
    const got = await vm(`${KILL} ${args}`);
    assert.equal(got.code, 1, `kill ${args}`);
    const h = host(`/bin/kill ${args}`);
    if (h) assert.equal(diag(got.err), diag(h.err), `kill ${args} stderr`);
  }
  assert.equal((await vm(`${KILL} -0 $$`)).code, 0, 'signal 0 probes');
  assert.equal((await vm(`${KILL} -s NOSUCH 1`)).code, 1);
});

test('pkill and kill end processes', async () => {
  const none = await vm('pkill -x nomatchatall');
  assert.equal(none.code, 1);
  const r = await vm('sleep 200 >/dev/null 2>&1 & p=$!; pkill -9 -e -n -x sleep; echo "status $?"; wait $p; echo "wait $?"');
  assert.match(r.out, /^sleep killed \(pid \d+\)\nstatus 0\nwait 137\n$/);
  const k = await vm(`sleep 201 >/dev/null 2>&1 & p=$!; ${KILL} -s TERM $p; echo "status $?"; wait $p; echo "wait $?"`);
  assert.equal(k.out, 'status 0\nwait 143\n');
  const k2 = await vm(`sleep 202 >/dev/null 2>&1 & p=$!; ${KILL} -HUP $p; wait $p; echo "wait $?"`);
  assert.equal(k2.out, 'wait 129\n');
});

test('free: procps layout', async () => {
  const r = await vm('free');
  const h = host('free');
  const [head, mem, swap] = lines(r.out);
  if (h) assert.equal(head, first(h.out));
  assert.match(mem, /^Mem: +(\d+ +){5}\d+$/);
  assert.match(swap, /^Swap: +0 +0 +0$/);
  assert.equal(mem.length, 80);
  const total = Number(mem.split(/\s+/)[1]);
  assert.equal(Number(lines((await vm('free -b')).out)[1].split(/\s+/)[1]), total * 1024);
  assert.equal(Number(lines((await vm('free -m')).out)[1].split(/\s+/)[1]), Math.floor(total / 1024));
  assert.match(lines((await vm('free -h')).out)[1], /^Mem: +(\d+(\.\d)?[KMGT]i|\d+B)( +(\d+(\.\d)?[KMGT]i|\d+B)){5}$/);
  assert.match((await vm('free -t')).out, /\nTotal: +\d+ +\d+ +\d+\n$/);
  const w = await vm('free -w');
  const hw = host('free -w');
  if (hw) assert.equal(first(w.out), first(hw.out));
});

test('uptime: procps format', async () => {
  const shape = /^ \d\d:\d\d:\d\d up +(\d+ days?, +)?(\d+ min|\d+:\d\d), +\d+ users?, +load average: \d+\.\d\d, \d+\.\d\d, \d+\.\d\d\n$/;
  const h = host('uptime');
  if (h) assert.match(h.out, shape, 'the pattern fits the host');
  assert.match((await vm('uptime')).out, shape);
  assert.match((await vm('uptime -p')).out, /^up \d+ (minute|hour|day|week)s?(, \d+ \w+)*\n$/);
  assert.match((await vm('uptime -s')).out, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\n$/);
});

test('top -b -n 1', async () => {
  const r = await vm('top -b -n 1');
  assert.equal(r.code, 0);
  const l = r.out.split('\n');
  assert.match(l[0], /^top - \d\d:\d\d:\d\d up .* load average: /);
  assert.match(l[1], /^Tasks: +\d+ total, +\d+ running, +\d+ sleeping, +0 stopped, +\d+ zombie$/);
  assert.match(l[2], /^%Cpu\(s\):/);
  assert.match(l[3], /^MiB Mem : +\d+\.\d total,/);
  assert.match(l[4], /^MiB Swap:/);
  assert.equal(l[5], '');
  const h = host('top -b -n 1 | sed -n 7p');
  if (h) assert.equal(l[6], first(h.out));
  assert.ok(l.some((x) => new RegExp(`^ *${s1} root +20 +0 .* sleep$`).test(x)), 'lists the sleep');
  const inter = await vm('top');
  assert.equal(inter.code, 1, 'interactive top needs a terminal');
});

test('--help and --version', async () => {
  for (const tool of ['ps', 'pgrep', 'pkill', 'pidof', 'uptime', 'free', KILL]) {
    const r = await vm(`${tool} --help`);
    assert.equal(r.code, 0, `${tool} --help`);
    assert.match(r.out, /Usage:/);
  }
  assert.match((await vm('ps --help')).out, /not\ntracked|are not/);
});

test('procps under LANG=C.UTF-8: a process with a non-ASCII name reads the same as in procps-ng', async () => {
  const env = { PATH: ENV.PATH, LANG: 'C.UTF-8', TERM: 'dumb', HOME: '/tmp' };
  const script = `d=$(mktemp -d); printf '#!/bin/bash\\nsleep 5\\n' > "$d/café"; chmod +x "$d/café"; "$d/café" & p=$!
sleep 0.5
ps -o comm= -p $p; ps -o args= -p $p | sed "s|$d|D|"; pgrep -l café | sed "s/^[0-9]*/N/"; pgrep -c 'caf.$'; pgrep -f '/café$' >/dev/null && echo found
ps -o pid,comm -p $p | head -1
kill $p; wait $p 2>/dev/null; rm -r "$d"; echo done`;
  const r = await m!.run(['/bin/bash', '-c', script], { cwd: '/tmp', env, stdin: '', timeoutMs: 20_000 });
  const got = text(r.stdout);
  assert.equal(got, 'café\n/bin/bash D/café\nN café\n1\nfound\n  PID COMMAND\ndone\n', text(r.stderr));
  const want = spawnSync('bash', ['-c', script], { env, encoding: 'utf8' });
  if (want.status !== 127 && !/not found/.test(want.stderr ?? '')) assert.equal(got, want.stdout);
});

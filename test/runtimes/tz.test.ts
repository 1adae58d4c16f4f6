// Differential: local time in python3 and node follows the process's TZ as the
// host's CPython and Node.js follow it (IANA zones north and south of the
// equator across DST, a half-hour offset, UTC, a name no zone has, unset),
// through AgentVM.exec as an agent meets it. Each zone runs one python3 and one
// node script; both print what a program reads of local time.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';

/** November and July 2023 (either side of DST), then wall-clock times that are ambiguous or skipped in New York. */
const PYTHON = String.raw`
import time, datetime, os
for t in (1700000000, 1690000000):
    lt = time.localtime(t)
    print(time.strftime('%F %T %Z %z', lt), lt.tm_isdst, lt.tm_gmtoff, time.ctime(t), datetime.datetime.fromtimestamp(t), datetime.datetime.fromtimestamp(t).astimezone().strftime('%Z %z'))
print(time.tzname, time.timezone, time.altzone, time.daylight)
print(time.mktime((2023, 11, 5, 1, 30, 0, 0, 0, -1)), time.mktime((2023, 3, 12, 2, 30, 0, 0, 0, -1)), time.mktime((2023, 7, 1, 12, 0, 0, 0, 0, 0)))
print(datetime.datetime(2023, 7, 1, 12).timestamp(), datetime.datetime(2023, 7, 1, 12).astimezone().isoformat())
os.environ['TZ'] = 'Asia/Tokyo'; time.tzset()
print(time.tzname, time.timezone, time.strftime('%H:%M %Z', time.localtime(1700000000)))
`;

const NODE = String.raw`
const out = [];
for (const t of [1700000000000, 1690000000000]) {
  const d = new Date(t);
  out.push(d.toString(), d.getTimezoneOffset(), d.toLocaleString(), d.toLocaleTimeString('en-US', { timeZoneName: 'short' }), [d.getFullYear(), d.getMonth(), d.getDate(), d.getDay(), d.getHours(), d.getMinutes()].join(' '), d.toDateString(), d.toTimeString(), new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'long' }).format(d));
}
out.push(String(Intl.DateTimeFormat().resolvedOptions().timeZone));
out.push(new Date(2023, 10, 5, 1, 30).toString(), new Date(2023, 2, 12, 2, 30).toString(), new Date(99, 0).toString());
out.push(Date.parse('2023-07-01'), Date.parse('July 1, 2023 12:00'), Date.parse('2023-07-01T12:00:00Z'), Date.parse('2023-07-01T12:00'), new Date('2023-11-05 01:30').getTime());
const d = new Date(1690000000000);
d.setHours(25); out.push(d.getTime()); d.setMonth(0); out.push(d.getTime(), d.getDay());
d.setFullYear(2024, 1, 29); out.push(d.toString(), d.constructor === Date, d instanceof Date, String(new Date(NaN)));
class D extends Date {}
out.push(new D(2023, 6, 1).getTime(), new D(2023, 6, 1) instanceof Date);
console.log(out.join('\n'));
`;

/** Unset TZ is the machine's zone: UTC here (/etc/localtime), as in the VM. */
const ZONES = ['America/New_York', 'Asia/Kolkata', 'Europe/London', 'Australia/Sydney', 'UTC', 'Foo/Bar', undefined];

const hostOk = spawnSync('python3', ['-c', 'pass']).status === 0 && /UTC$/.test(spawnSync('readlink', ['/etc/localtime'], { encoding: 'utf8' }).stdout.trim());
let vm: AgentVM;

before(async () => {
  if (!hostOk) return;
  vm = new AgentVM();
  await vm.start();
  await vm.writeFile('/tmp/tz.py', PYTHON);
  await vm.writeFile('/tmp/tz.js', NODE);
});

after(async () => {
  await vm?.stop();
});

function host(cmd: string, file: string, code: string, tz: string | undefined): string {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' };
  if (tz !== undefined) env.TZ = tz;
  const r = spawnSync(cmd, file.endsWith('.py') ? ['-c', code] : ['-e', code], { encoding: 'utf8', env });
  assert.equal(r.stderr, '', `host ${cmd}`);
  return r.stdout;
}

for (const tz of ZONES) {
  const env = tz === undefined ? '' : `TZ='${tz}' `;
  test(`python3 and node: local time with ${tz === undefined ? 'TZ unset' : `TZ=${tz}`} as on the host`, { skip: !hostOk && 'needs host python3 and a UTC host zone' }, async () => {
    // The VM's own TZ does not leak in: unset it first, as the host runs without one.
    const py = await vm.exec(`unset TZ; ${env}python3 /tmp/tz.py`);
    assert.deepEqual([py.stdout, py.stderr, py.exitCode], [host('python3', 'tz.py', PYTHON, tz), '', 0], 'python3');
    const js = await vm.exec(`unset TZ; ${env}node /tmp/tz.js`);
    let want = host('node', 'tz.js', NODE, tz);
    // Known divergence: for a zone ICU does not know, Intl's own name for it is "GMT+0" and
    // resolvedOptions().timeZone undefined; agentOS's Intl gets that zone's fixed offset (UTC here).
    if (tz === 'Foo/Bar') want = want.replace(/GMT\+0$/gm, 'UTC').replace(/^undefined$/m, 'UTC');
    assert.deepEqual([js.stdout, js.stderr, js.exitCode], [want, '', 0], 'node');
  });
}

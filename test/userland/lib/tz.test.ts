// Differential tests of time zones (TZ) against the host's GNU date, ls and
// gawk: IANA names with their DST rules (from the host's Intl data in the VM,
// from tzdata on the host), POSIX TZ strings, and what an unknown or empty TZ
// means. Every case runs under LC_ALL=C and again under LANG=C.UTF-8.

import { after, before, test } from 'node:test';
import { checkCaseList, requireOracle, runCases, setupFixtures, summarize, teardownFixtures, type Fixture } from '../../packages/oracle.js';

let fx: Fixture | null = null;

before(async () => {
  fx = await setupFixtures('agentos-tz-', { 'f.txt': 'x\n' });
});

after(async () => {
  await teardownFixtures(fx);
});

/** Zones with DST north and south, half-hour offsets, POSIX strings with and without rules, and bad names. */
const ZONES = [
  'America/New_York', 'Europe/Berlin', 'Europe/London', 'Asia/Kolkata', 'Asia/Tokyo', 'Australia/Sydney',
  ':America/Los_Angeles', 'EST5EDT', 'UTC0', 'JST-9', '<+0330>-3:30', 'EST5EDT,M3.2.0,M11.1.0',
  'AAA3BBB,J60/1,300', 'CET', 'Foo/Bar', '',
];
/** November (northern winter) and July (northern summer). */
const TIMES = [1700000000, 1690000000];
/** A file time within the last six months, so ls shows its hour and minute (whole hours: the clocks may not agree on seconds). */
const RECENT = (Math.floor(Date.now() / 3600e3) - 30) * 3600;

const cases: { cmd: string }[] = [];
for (const locale of ['LC_ALL=C', 'LC_ALL= LANG=C.UTF-8']) {
  for (const zone of ZONES) {
    const env = `${locale} TZ='${zone}'`;
    const dates = TIMES.map((t) => `date -d @${t} '+%F %T %Z %z %:z %::z %:::z %s|%c|%a %b %e %H:%M:%S %Y'`);
    const strftimes = TIMES.map((t) => `print strftime("%F %T %Z %z", ${t}); print strftime("%T %Z", ${t}, 1);`);
    // One command line per tool and zone (each case is one VM exec; the suite stays quick).
    cases.push({ cmd: `export ${env}; ${dates.join('; ')}; date -d @1700000000; date -d '2023-07-01 12:00' +%s; date -d '2023-01-15 08:30:05' '+%s %Z'; date -d '2023-07-01 12:00 +02:00' '+%F %T %Z'` });
    cases.push({ cmd: `${env} awk 'BEGIN { ${strftimes.join(' ')} print mktime("2023 07 01 12 00 00"), mktime("2023 01 01 12 00 00"), mktime("2023 01 01 12 00 00 1"), mktime("2023 07 01 12 00 00 0"), mktime("2023 07 01 12 00 00", 1) }'` });
    cases.push({ cmd: `export ${env}; touch -d @${RECENT} f.txt && ls -l f.txt | awk '{ print $6, $7, $8, $9 }' && ls -l --full-time f.txt | awk '{ print $6, $7, $8 }'; touch -d '2023-07-01 12:00' f.txt && date -r f.txt '+%s %Z' && TZ=UTC0 ls -l f.txt | awk '{ print $6, $7, $8 }'` });
  }
  // Non-ASCII text around the directives is copied unchanged.
  cases.push({ cmd: `${locale} TZ=Europe/Berlin date -d @1690000000 '+%Y年%m月%d日 %H時 %Z — été'` });
  // Ambiguous (clocks back: the first, DST) and skipped (clocks forward) wall-clock times.
  cases.push({ cmd: `${locale} TZ=America/New_York date -d '2023-11-05 01:30' '+%s %Z'` });
  cases.push({ cmd: `${locale} TZ=America/New_York awk 'BEGIN { print mktime("2023 11 05 01 30 00"), mktime("2023 11 05 01 30 00 0"), mktime("2023 03 12 02 30 00") }'` });
  cases.push({ cmd: `${locale} TZ=Australia/Sydney date -d '2023-04-02 02:30' '+%s %Z'` });
  cases.push({ cmd: `${locale} TZ=America/New_York date -u -d @1700000000` });
}

/** Known differences, each with its reason. */
const divergences: Record<string, string> = {};

test('tz: the case list is well formed', () => {
  checkCaseList(cases, divergences, { min: 100 });
});

test('tz: differential against GNU date, ls and gawk', async () => {
  requireOracle('date', /GNU coreutils/, 'the oracle must be GNU date');
  requireOracle('awk', /GNU Awk/, 'the oracle must be GNU awk (apt-get install gawk)');
  const results = await runCases(fx!, cases, () => ({ sorted: false, stderrOk: (want, got) => want === got }));
  summarize('tz', results, divergences);
});

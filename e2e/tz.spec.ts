// Time zones in Chromium: the same tools read TZ with the browser's Intl data,
// and give what GNU date and gawk give on the host (tzdata).

import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';

const SCRIPT = [
  'TZ=America/New_York date -d @1700000000',
  "TZ=Europe/Berlin date -d @1690000000 '+%F %T %Z %z'",
  "TZ=Australia/Sydney date -d '2023-07-01 12:00' +%s",
  'TZ=EST5EDT,M3.2.0,M11.1.0 awk \'BEGIN { print strftime("%H:%M %Z", 1690000000), mktime("2023 01 01 12 00 00") }\'',
].join('; ');

test('TZ: date and awk in the browser agree with GNU date and gawk on the host', async ({ page }) => {
  const want = spawnSync('bash', ['-c', SCRIPT], { encoding: 'utf8', env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' } }).stdout;
  expect(want).toContain('EST 2023');
  await page.goto('/?vm=');
  await page.waitForFunction(() => window.agentos !== undefined, null, { timeout: 20_000 });
  await page.evaluate(() => window.agentos.ready);
  const r = await page.evaluate((s) => window.agentos.exec(s), SCRIPT);
  expect([r.stdout, r.stderr, r.exitCode]).toEqual([want, '', 0]);
});

test.describe('with the browser in another zone', () => {
  // The page's own zone must not leak into the guest's local time.
  test.use({ timezoneId: 'Asia/Tokyo' });

  test('TZ: node and python3 in the browser follow TZ as the host node and python3 do', async ({ page }) => {
    const script = [
      "TZ=America/New_York node -e 'const d = new Date(1700000000000); console.log(d.toString(), d.getTimezoneOffset(), d.toLocaleString(), new Date(2023, 6, 1, 12).getTime())'",
      'TZ=Asia/Kolkata python3 -c \'import time; print(time.strftime("%F %T %Z %z", time.localtime(1690000000)), time.tzname, time.mktime((2023, 7, 1, 12, 0, 0, 0, 0, -1)))\'',
      "node -e 'console.log(new Date(1690000000000).toString())'",
    ].join('; ');
    const want = spawnSync('bash', ['-c', script], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', TZ: 'UTC' } }).stdout;
    expect(want).toContain('Eastern Standard Time');
    await page.goto('/?vm=');
    await page.waitForFunction(() => window.agentos !== undefined, null, { timeout: 20_000 });
    await page.evaluate(() => window.agentos.ready);
    const r = await page.evaluate((s) => window.agentos.exec(`unset TZ; ${s}`), script);
    expect([r.stdout, r.stderr, r.exitCode]).toEqual([want, '', 0]);
  });
});

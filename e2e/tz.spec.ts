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

// Bytes 0x80–0x9f through the tools that read text one char per byte. A browser's
// TextDecoder('latin1') is windows-1252 (0x80 is '€'), so these tools wrote other bytes
// than they read in Chromium while Node (real latin1) was right. The host's tools are the oracle.

import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';

const SCRIPT = [
  "printf 'a\\x80\\x9f\\xe9 b\\x85\\n' | xargs printf '%s|' | od -An -tx1",
  "printf 'c\\x81\\x8d\\000d\\x9e' | xargs -0 printf '[%s]' | od -An -tx1",
  // A hexdump -f format file with a byte of 0x80–0x9f in its literal text.
  "printf '\"\\x80\\x9a\" 1/1 \"%%02x\\\\n\"\\n' > \"$T/fmt\"; printf Z | hexdump -f \"$T/fmt\" | od -An -tx1",
].join('; ');

test('bytes 0x80-0x9f pass through xargs and hexdump -f in Chromium as in the host tools', async ({ page }) => {
  const dir = spawnSync('mktemp', ['-d'], { encoding: 'utf8' }).stdout.trim();
  const want = spawnSync('bash', ['-c', SCRIPT], { encoding: 'utf8', env: { PATH: '/usr/bin:/bin', LC_ALL: 'C', T: dir } }).stdout;
  spawnSync('rm', ['-rf', dir]);
  expect(want).toContain(' 80 9f e9');
  await page.goto('/?vm=');
  await page.waitForFunction(() => window.agentos !== undefined, null, { timeout: 20_000 });
  await page.evaluate(() => window.agentos.ready);
  const r = await page.evaluate((s) => window.agentos.exec(`T=/tmp; ${s}`), SCRIPT);
  expect([r.stdout, r.stderr, r.exitCode]).toEqual([want, '', 0]);
});

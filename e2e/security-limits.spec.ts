// Issue 14, item 11, in Chromium: a VM made with no policy has limits sized
// for the host (navigator.deviceMemory; decision 0031). A fork bomb ends in
// EAGAIN, a huge write to /tmp in ENOSPC at the limit `df` shows, a flood of
// output is cut at the default cap, and timers past 2^31 ms do not fire early.
// Run: npm run build && AGENTOS_E2E_PORT=4206 npx playwright test e2e/security-limits.spec.ts

import { expect, test, type Page } from '@playwright/test';

async function harness(page: Page): Promise<void> {
  await page.goto('/e2e/harness/');
  await page.waitForFunction(() => window.__agentos !== undefined);
}

type Cmd = string | { cmd: string; timeoutMs: number };

async function run(page: Page, files: Record<string, string>, cmds: Cmd[]) {
  return (await page.evaluate(([f, c]) => window.__agentos.policyRun({}, f, c), [files, cmds] as const)).results;
}

test('limits (browser): a fork bomb under the defaults ends in EAGAIN and the VM stays usable', async ({ page }) => {
  test.setTimeout(90_000);
  await harness(page);
  const [bomb, after] = await run(page, {}, [{ cmd: 'f(){ f|f& }; f; sleep 60', timeoutMs: 15_000 }, 'sleep 0.2; ps -e -o comm= | wc -l; echo alive']);
  expect(bomb.timedOut).toBe(true);
  expect(bomb.stderr).toMatch(/Resource temporarily unavailable/);
  const [count, alive] = after.stdout.trim().split('\n');
  expect(Number(count)).toBeLessThan(6);
  expect(alive).toBe('alive');
});

test('limits (browser): a 2 GiB write to /tmp gets ENOSPC at the default size that df shows', async ({ page }) => {
  await harness(page);
  const [r] = await run(page, {}, ["head -c 2G /dev/zero > /tmp/big; echo $?; wc -c < /tmp/big; df -k /tmp | awk 'NR == 2 { print $2 }'"]);
  expect(r.stderr).toMatch(/No space left on device/);
  const [status, size, kib] = r.stdout.trim().split('\n').map(Number);
  expect(status).toBe(1);
  expect(kib * 1024).toBeLessThanOrEqual(1 << 30);
  expect(size).toBeLessThanOrEqual(kib * 1024);
  expect(size).toBeGreaterThan(kib * 1024 - (1 << 20));
});

test('limits (browser): exec output is cut at the default cap and reported as truncated', async ({ page }) => {
  await harness(page);
  const [r, small] = await run(page, {}, ['head -c 100000000 /dev/zero | tr "\\0" x; echo done >&2', 'echo hi']);
  expect(r.truncated).toBe(true);
  expect(r.stdout.length).toBe(16 << 20);
  expect(r.stderr).toBe('done\n');
  expect(small.truncated).toBeUndefined();
});

test('limits (browser): timers past 2^31 ms do not fire early', async ({ page }) => {
  await harness(page);
  const files = {
    '/tmp/timer.js': '#!/usr/libexec/agentos/js\nawait new Promise((r) => { setTimeout(() => { agentos.print("fired\\n"); r(); }, 2 ** 32); setTimeout(r, 200); });\nagentos.print("waited\\n");\n',
    '/tmp/alarm.js': '#!/usr/libexec/agentos/js\nagentos.sys.alarm(1e300); agentos.sys.sleep(200); agentos.print("alive\\n");\n',
  };
  const r = await run(page, files, [
    'sleep 1e10 & sleep 0.2; kill $! && echo killed',
    '/tmp/timer.js; echo "status $?"',
    '/tmp/alarm.js; echo "status $?"',
    { cmd: 'sleep 0.3; echo done', timeoutMs: 2 ** 32 },
  ]);
  expect(r.map((x) => x.stdout)).toEqual(['killed\n', 'waited\nstatus 0\n', 'alive\nstatus 0\n', 'done\n']);
  expect(r[3].timedOut).toBe(false);
});

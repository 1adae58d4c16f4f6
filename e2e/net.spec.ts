// curl in Chromium: the kernel worker's fetch reaches the preview server
// (same origin) when the VM's policy allows it; the default policy denies
// it, naming the policy; a failed fetch (refused, or a cross-origin server
// without CORS: the browser does not say which) is curl's exit 7.

import { expect, test, type Page } from '@playwright/test';

async function harness(page: Page): Promise<string> {
  await page.goto('/e2e/harness/');
  await page.waitForFunction(() => window.__agentos !== undefined);
  return page.evaluate(() => location.origin);
}

test('net (browser): curl fetches from the same origin under an allowlist', async ({ page }) => {
  const origin = await harness(page);
  const [get, head, meta, wget] = await page.evaluate(
    ([o]) => window.__agentos.netRun({ allow: [o] }, [
      `curl -sS ${o}/image/manifest.json`,
      `curl -sI ${o}/image/manifest.json`,
      `curl -s -o /dev/null -w '%{http_code} %{content_type}' ${o}/image/manifest.json`,
      `wget -q -O - ${o}/image/manifest.json | wc -c`,
    ]),
    [origin],
  );
  expect(get.stderr).toBe('');
  expect(get.exitCode).toBe(0);
  expect(JSON.parse(get.stdout).sha256).toMatch(/^[0-9a-f]{64}$/);
  expect(head.exitCode).toBe(0);
  expect(head.stdout).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  expect(head.stdout.toLowerCase()).toContain('content-type: application/json');
  expect(meta.stdout).toMatch(/^200 application\/json/);
  expect(Number(wget.stdout.trim())).toBe(get.stdout.length);
});

test('net (browser): the default policy denies, naming it; a failed fetch is exit 7', async ({ page }) => {
  // (The page's origin is on 127.0.0.1: unnamed, that is the VM's own loopback, e2e/loopback-http.spec.ts.)
  await harness(page);
  const [denied] = await page.evaluate(() => window.__agentos.netRun('none', ['curl -sS http://example.com/']));
  expect(denied.exitCode).toBe(7);
  expect(denied.stderr).toBe("curl: (7) network access to http://example.com denied by the VM's network policy (network: none)\n");
  // fetch() rejecting (refused here; a cross-origin server without CORS looks the same) is curl's exit 7.
  // (The loopback must be named: network 'all' never reaches it, e2e/security-network.spec.ts.)
  const [refused] = await page.evaluate(() => window.__agentos.netRun({ allow: ['127.0.0.1:1'] }, ['curl -sS http://127.0.0.1:1/']));
  expect(refused.exitCode).toBe(7);
  expect(refused.stderr).toMatch(/^curl: \(7\) Failed to connect to 127\.0\.0\.1 port 1 after \d+ ms: Couldn't connect to server\n$/);
});

// Smoke test: the playground page is served cross-origin isolated, so the
// kernel can use SharedArrayBuffer + Atomics.
import { expect, test } from '@playwright/test';

test('index page is cross-origin isolated and has SharedArrayBuffer', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.ok()).toBe(true);
  expect(response?.headers()['cross-origin-opener-policy']).toBe('same-origin');
  expect(response?.headers()['cross-origin-embedder-policy']).toBe('require-corp');
  const env = await page.evaluate(() => ({
    isolated: crossOriginIsolated,
    sab: typeof SharedArrayBuffer,
  }));
  expect(env.isolated).toBe(true);
  expect(env.sab).toBe('function');
});

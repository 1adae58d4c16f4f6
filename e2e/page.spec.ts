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

test('the page boots a real kernel, shows its processes and runs a program in it', async ({ page }) => {
  await page.goto('/?vm=');
  await page.getByRole('tab', { name: 'Kernel' }).click();
  await expect(page.locator('#boot')).toContainText('Kernel booted in');
  await expect(page.locator('#status table').first()).toContainText('init');
  await page.locator('#run').click();
  await expect(page.locator('#output')).toContainText('written by a process');
  await expect(page.locator('#output')).toContainText('[exit status 0]');
  await expect(page.locator('#output')).toContainText(/pid \d+, cwd \/home\/user/);
});

// One case of a shared suite (kernel, wasm) run in a fresh harness page: the
// case must pass and the page must raise no errors.

import { expect, type Page } from '@playwright/test';

export async function runCaseInPage(page: Page, name: string): Promise<void> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('/e2e/harness/');
  await page.waitForFunction(() => window.__agentos !== undefined);
  const r = await page.evaluate((n) => window.__agentos.runCase(n), name);
  expect(r.error ?? '', 'case error').toBe('');
  expect(r.ok).toBe(true);
  expect(errors, 'page errors').toEqual([]);
}

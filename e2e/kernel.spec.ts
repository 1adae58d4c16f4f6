// The kernel suite in a real browser: each case boots a kernel in a Web Worker
// of Debian's Chromium, with process workers nested in it.

import { expect, test } from '@playwright/test';
import { cases } from '../test/kernel/suite.js';

test.describe.configure({ mode: 'parallel' });

for (const c of cases) {
  test(`kernel (browser): ${c.name}`, async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto('/e2e/harness/');
    await page.waitForFunction(() => window.__agentos !== undefined);
    const r = await page.evaluate((name) => window.__agentos.runCase(name), c.name);
    expect(r.error ?? '', 'case error').toBe('');
    expect(r.ok).toBe(true);
    expect(errors, 'page errors').toEqual([]);
  });
}

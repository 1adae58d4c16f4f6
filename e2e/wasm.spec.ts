// The WebAssembly runtime's cases in a real browser (Debian's Chromium): each
// boots a kernel in a Web Worker with the WASI programs installed.

import { expect, test } from '@playwright/test';
import { wasmCases } from '../test/runtimes/wasm/cases.js';

test.describe.configure({ mode: 'parallel' });

for (const c of wasmCases) {
  test(`${c.name} (browser)`, async ({ page }) => {
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

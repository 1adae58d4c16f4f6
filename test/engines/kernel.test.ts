// The kernel suite (test/kernel/suite.ts) in each engine: one harness page
// (dist/web/e2e/harness) runs every case, each on a fresh kernel in a Web
// Worker with process workers nested in it.

import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { cases } from '../kernel/suite.js';
import { openApp, skip, t, waitFor } from './engine.js';
import type { EnginePage } from '../../src/host/playwright/index.js';

let app: Awaited<ReturnType<typeof openApp>> | null = null;
let page: EnginePage;

before(async () => {
  if (skip) return;
  app = await openApp('e2e/harness/');
  page = app.page;
  assert.ok(await waitFor(page, 'globalThis.__agentos'), 'the harness page loaded');
});

after(async () => {
  await app?.release();
});

for (const c of cases) {
  t(`kernel: ${c.name}`, async () => {
    const r = await page.evaluate<{ ok: boolean; error?: string }>('(n) => globalThis.__agentos.runCase(n)', c.name);
    assert.equal(r.error ?? '', '', 'case error');
    assert.equal(r.ok, true);
  });
}

// The kernel suite (test/kernel/suite.ts) in each engine: one harness page
// (dist/web/e2e/harness) runs every case, each on a fresh kernel in a Web
// Worker with process workers nested in it. A case that gives no result in
// CASE_LIMIT_MS fails as a hang and the page is reloaded for the next one.
// Firefox runs the page without a WebDriver session (firefox-direct.ts).

import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { cases } from '../kernel/suite.js';
import { ENGINE, openApp, skip, t, waitFor } from './engine.js';
import { runWithoutDriver } from './firefox-direct.js';
import { serveApp, within, type EnginePage } from '../../src/host/playwright/index.js';

let app: Awaited<ReturnType<typeof openApp>> | null = null;
let page: EnginePage;
let direct: (ReturnType<typeof runWithoutDriver> & { release(): Promise<void> }) | null = null;
const CASE_LIMIT_MS = 60_000;

async function load(): Promise<void> {
  assert.ok(await waitFor(page, 'globalThis.__agentos'), 'the harness page loaded');
}

before(async () => {
  if (skip) return;
  if (ENGINE === 'firefox') {
    const served = await serveApp();
    const run = runWithoutDriver(new URL('e2e/harness/#report', served.value).href);
    direct = { ...run, release: async () => { run.close(); await served.release(); } };
    return;
  }
  app = await openApp('e2e/harness/');
  page = app.page;
  await load();
});

after(async () => {
  await direct?.release();
  await app?.release();
});

/** A case's result from the driven page; a hang reloads it for the next case. */
async function inPage(name: string): Promise<{ ok: boolean; error?: string }> {
  try {
    return await within(page.evaluate('(n) => globalThis.__agentos.runCase(n)', name), CASE_LIMIT_MS, `${ENGINE}: kernel case hung`);
  } catch (e) {
    await page.goto(app!.url);
    await load();
    throw e;
  }
}

for (const c of cases) {
  t(`kernel: ${c.name}`, async () => {
    // The page bounds each case itself; this bounds a browser that never loads it.
    const r = direct ? await within(direct.result(c.name), 2 * CASE_LIMIT_MS, `${ENGINE}: no result for the case`) : await inPage(c.name);
    assert.equal(r.error ?? '', '', 'case error');
    assert.equal(r.ok, true);
  });
}

// The kernel suite (test/kernel/suite.ts) in each engine: one harness page
// (dist/web/e2e/harness) runs every case, each on a fresh kernel in a Web
// Worker with process workers nested in it. A case that gives no result in
// CASE_LIMIT_MS fails as a hang and the page is reloaded for the next one.

import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { cases } from '../kernel/suite.js';
import { ENGINE, openApp, skip, t, waitFor } from './engine.js';
import { within, type EnginePage } from '../../src/host/playwright/index.js';

let app: Awaited<ReturnType<typeof openApp>> | null = null;
let page: EnginePage;
const CASE_LIMIT_MS = 60_000;

const WASM = 'WebKitGTK: a WebAssembly program exits 1 ("undefined is not an object (evaluating \'e.postMessage.bind\')": the process worker\'s confinement runs again where postMessage is already gone)';

/**
 * Firefox 153 ESR under WebDriver BiDi: the kernel's worker now and then blocks
 * for good in a native wait while it creates or ends process workers; 1 to 3 of
 * the 53 cases hung per run here, different ones each time. The same cases never
 * hang in a Firefox that no WebDriver session drives (decision 0058). Until this
 * stage runs its page without one, the suite runs there as todo: each result
 * reported, none failing the run.
 */
const FIREFOX_WAKEUPS = 'Firefox under WebDriver BiDi: the kernel worker intermittently blocks while creating or ending workers (decision 0058)';

const KNOWN: Partial<Record<string, Record<string, string>>> = {
  webkit: {
    'exec dispatch is by header: ENOENT, EACCES, ENOEXEC, interpreter errors, ELOOP': WASM,
    'dispatch: headers pick the runtime — ELF, Mach-O, PE and text are ENOEXEC (the /bin/sh of execvp refuses the binaries, 126, and runs the text), \\0asm runs as WebAssembly': WASM,
  },
};

async function load(): Promise<void> {
  assert.ok(await waitFor(page, 'globalThis.__agentos'), 'the harness page loaded');
}

before(async () => {
  if (skip) return;
  app = await openApp('e2e/harness/');
  page = app.page;
  await load();
});

after(async () => {
  await app?.release();
});

for (const c of cases) {
  t(`kernel: ${c.name}`, { todo: KNOWN[ENGINE]?.[c.name] ?? (ENGINE === 'firefox' ? FIREFOX_WAKEUPS : undefined) }, async () => {
    let r: { ok: boolean; error?: string };
    try {
      r = await within(page.evaluate('(n) => globalThis.__agentos.runCase(n)', c.name), CASE_LIMIT_MS, `${ENGINE}: kernel case hung`);
    } catch (e) {
      await page.goto(app!.url);
      await load();
      throw e;
    }
    assert.equal(r.error ?? '', '', 'case error');
    assert.equal(r.ok, true);
  });
}

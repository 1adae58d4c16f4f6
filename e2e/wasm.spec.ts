// The WebAssembly runtime's cases in a real browser (Debian's Chromium): each
// boots a kernel in a Web Worker with the WASI programs installed. The ruby
// and cc cases install their package (30 and 105 MB, served from dist/) first.

import { test } from '@playwright/test';
import { runCaseInPage } from './run-case.js';
import { wasmCases } from '../test/runtimes/wasm/cases.js';
import { clangCases } from '../test/runtimes/wasm/clang-cases.js';
import { rubyCases } from '../test/runtimes/wasm/ruby-cases.js';

test.describe.configure({ mode: 'parallel' });

for (const c of wasmCases) {
  test(`${c.name} (browser)`, ({ page }) => runCaseInPage(page, c.name));
}

// Each installs its package into a fresh VM: the first, the script and the confinement cases are enough here.
for (const c of [rubyCases[0], rubyCases[2], rubyCases[6]]) {
  test(`${c.name} (browser)`, ({ page }) => runCaseInPage(page, c.name));
}

for (const c of clangCases) {
  test(`${c.name} (browser)`, async ({ page }) => {
    test.setTimeout(300_000);
    await runCaseInPage(page, c.name);
  });
}

// The WebAssembly runtime's cases in a real browser (Debian's Chromium): each
// boots a kernel in a Web Worker with the WASI programs installed.

import { test } from '@playwright/test';
import { runCaseInPage } from './run-case.js';
import { wasmCases } from '../test/runtimes/wasm/cases.js';

test.describe.configure({ mode: 'parallel' });

for (const c of wasmCases) {
  test(`${c.name} (browser)`, ({ page }) => runCaseInPage(page, c.name));
}

// The Python runtime's cases in a real browser (Debian's Chromium): each boots
// a kernel in a Web Worker; python3 loads Pyodide from the page's origin
// (dist/web/pyodide/) and sees the shell's files.

import { test } from '@playwright/test';
import { runCaseInPage } from './run-case.js';
import { pythonCases } from '../test/runtimes/python/cases.js';

// Each case starts several python3 processes, and a worker's first one loads Pyodide (1-3 s).
test.describe.configure({ mode: 'parallel', timeout: 180_000 });

for (const c of pythonCases) {
  test(`${c.name} (browser)`, ({ page }) => runCaseInPage(page, c.name));
}

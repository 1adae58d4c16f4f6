// The kernel suite in a real browser: each case boots a kernel in a Web Worker
// of Debian's Chromium, with process workers nested in it.

import { test } from '@playwright/test';
import { runCaseInPage } from './run-case.js';
import { cases } from '../test/kernel/suite.js';

test.describe.configure({ mode: 'parallel' });

for (const c of cases) {
  test(`kernel (browser): ${c.name}`, ({ page }) => runCaseInPage(page, c.name));
}

// The node runtime's cases in a real browser (Debian's Chromium): node scripts,
// modules, fs, pipes and child processes in a kernel running in Web Workers.

import { test } from '@playwright/test';
import { runCaseInPage } from './run-case.js';
import { nodeCases } from '../test/runtimes/node/cases.js';

test.describe.configure({ mode: 'parallel' });

for (const c of nodeCases) {
  test(`${c.name} (browser)`, ({ page }) => runCaseInPage(page, c.name));
}

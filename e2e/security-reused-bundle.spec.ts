// The reused-bundle attacks in Chromium (decision 0088): the js runtime keeps
// the coreutils bundle's main per worker there too; the same cases as
// test/security/reused-bundle.test.ts.
// Run: npm run build && AGENTOS_E2E_PORT=4306 npx playwright test e2e/security-reused-bundle.spec.ts

import { expect, test } from '@playwright/test';
import { CASES, FILES } from '../test/security/reused-bundle-cases.js';

test('reused bundle (browser): echo and /etc/passwd state, and a guest reuse() of its own, reach no later process', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/e2e/harness/');
  await page.waitForFunction(() => window.__agentos !== undefined);
  const cmds = [CASES.echo.cmd, CASES.passwd.cmd, CASES.evil.cmd, CASES.own.cmd];
  const { results: r } = await page.evaluate(([f, c]) => window.__agentos.policyRun({}, f, c), [FILES, cmds] as const);
  expect([r[0].stdout, r[0].stderr]).toEqual([CASES.echo.stdout, '']);
  expect([r[1].stdout, r[1].stderr]).toEqual([CASES.passwd.stdout, '']);
  expect([r[2].stdout, r[2].stderr]).toEqual([CASES.evil.stdout, '']);
  expect(r[3].stdout).toMatch(CASES.own.stdout);
});

// Guest output in Chromium (issue 14, items 2 and 16): every output route of
// test/security/console-routes.ts reaches the process's own fds, and the
// page's console — where a process worker's console, uncaught errors and
// unhandled rejections would land — hears nothing a guest wrote. Stack traces
// a guest reads name no URL of the app's own scripts.
// Run: npm run build && AGENTOS_E2E_PORT=4202 npx playwright test e2e/security-console.spec.ts

import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';
import { parseReport, routes, routesScript } from '../test/security/console-routes.js';

async function harness(page: Page): Promise<string[]> {
  const heard: string[] = [];
  const hear = (m: ConsoleMessage) => heard.push(m.text());
  page.on('console', hear);
  // Workers' own consoles too, in case a message is not forwarded to the page's.
  page.on('worker', (w) => w.on('console', hear));
  page.on('pageerror', (e) => heard.push(`pageerror: ${e.message}`));
  await page.goto('/e2e/harness/');
  await page.waitForFunction(() => window.__agentos !== undefined);
  return heard;
}

test('guest output (browser): every route reaches the process\'s fds, none the page\'s console', async ({ page }) => {
  test.setTimeout(120_000);
  const heard = await harness(page);
  const r = await page.evaluate((script) => window.__agentos.policyRun({}, {}, [script]), routesScript());
  const report = parseReport(r.results[0].stdout.trim());
  // What the runtime logs after the programs ran, too: a moment for stray reports to arrive.
  await page.waitForTimeout(300);
  for (const route of routes) {
    const marker = `LEAK-${route.name}`;
    expect(heard.filter((t) => t.includes(marker)), `${route.name}: the page's console`).toEqual([]);
    const got = report[route.name];
    expect(got, route.name).toBeDefined();
    expect(got.stdout.includes(marker), `${route.name}: stdout ${got.stdout}`).toBe(route.to === 'stdout');
    expect(got.stderr.includes(marker), `${route.name}: stderr ${got.stderr}`).toBe(route.to === 'stderr');
  }
  expect(heard.filter((t) => t.includes('LEAK-')), 'nothing a guest wrote').toEqual([]);
});

test('host paths (browser): stack traces name runtime frames agentos:…, no URL of the app', async ({ page }) => {
  await harness(page);
  const origin = new URL(page.url()).origin;
  const files = {
    '/tmp/throw.js': "#!/usr/libexec/agentos/js\nthrow new Error('boom');\n",
    '/tmp/stack.js': '#!/usr/libexec/agentos/js\nagentos.print(new Error().stack);\n',
    '/tmp/sites.js': `#!/usr/libexec/agentos/js
Error.prepareStackTrace = (e, s) => s.map((c) => c.getFileName() + ' ' + c).join('\\n');
agentos.print(new Error().stack);
Error.prepareStackTrace = undefined;
`,
    '/tmp/node.js': "#!/usr/bin/node\nconsole.log(new Error().stack); require('fs').readFileSync('/nope');\n",
  };
  const cmds = Object.keys(files).map((f) => `${f} 2>&1`);
  const r = await page.evaluate(([f, c]) => window.__agentos.policyRun({}, f, c), [files, cmds] as const);
  for (const [i, res] of r.results.entries()) {
    const seen = res.stdout + res.stderr;
    expect(seen, cmds[i]).not.toContain(origin);
    expect(seen, cmds[i]).not.toMatch(/https?:\/\//);
  }
  // The runtime's frames are still there, renamed.
  expect(r.results[1].stdout).toMatch(/agentos:[\w.-]+\.js:\d+:\d+/);
  expect(r.results[2].stdout).toMatch(/^agentos:[\w.-]+\.js /m);
});

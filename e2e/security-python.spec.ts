// Issue 14, items 1 and 3, in Chromium (decision 0026): the hostile Python
// program of test/security/python.test.ts in a browser process worker. Its
// routes to JavaScript are closed as on Node; the one open by design reaches
// the confined worker scope, where fetch beyond the app's assets, WebSocket,
// IndexedDB, Cache Storage, importScripts, nested workers and posting to the
// kernel all fail; Python's sockets fail with EACCES and a listener on the
// test's host sees nothing, under network none and all.
// Run: npm run build && AGENTOS_E2E_PORT=4201 npx playwright test e2e/security-python.spec.ts

import { expect, test, type Page } from '@playwright/test';
import { createServer, type AddressInfo } from 'node:net';
import { parseRoutes, parseSockets, REALM_PRIZE, ROUTES, ROUTES_PY, SOCKET_WAYS } from '../test/security/python-routes.js';

test.describe.configure({ timeout: 180_000 });

async function harness(page: Page): Promise<void> {
  await page.goto('/e2e/harness/');
  await page.waitForFunction(() => window.__agentos !== undefined);
}

test('python (browser): no route to JavaScript, no way out of the worker, no socket to the host', async ({ page }) => {
  const reached: string[] = [];
  const server = createServer((s) => {
    reached.push('(connected)');
    s.once('data', (d) => reached.push(d.toString('latin1').slice(0, 60)));
    s.on('error', () => {});
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  try {
    await harness(page);
    for (const network of ['none', 'all'] as const) {
      const cmds = [`python3 /tmp/routes.py ${network === 'none' ? 'all' : 'sockets'} /nonexistent ${port}`, 'echo still here'];
      const r = await page.evaluate(([f, c, n]) => window.__agentos.policyRun({ network: n }, f, c), [{ '/tmp/routes.py': ROUTES_PY }, cmds, network] as const);
      const [probe, after] = r.results;
      expect(probe.exitCode, probe.stderr).toBe(0);
      expect(after.stdout).toBe('still here\n');
      if (network === 'none') {
        const routes = parseRoutes(probe.stdout);
        for (const [route, closed] of ROUTES) {
          const got = routes.get(route);
          expect(got, `${route}\n${probe.stdout}`).toBeDefined();
          if (closed) expect(got!.open, `${route}: ${got!.got}`).toBe(false);
          expect(got!.got, route).not.toMatch(REALM_PRIZE);
        }
        expect(routes.get('_imp.create_builtin')!.open, 'the test reached the realm').toBe(true);
      }
      const sockets = parseSockets(probe.stdout);
      for (const way of SOCKET_WAYS) {
        // urllib.request goes through the kernel's http syscall (decision 0042): the policy refuses it, in its own words.
        if (way === 'urllib.request') {
          expect(sockets.get(way), `${way} (network ${network})`).toMatch(/^PermissionError: network access to \S+ denied by the VM's network policy \((network: none|private address: loopback;)/);
        } else expect(sockets.get(way), `${way} (network ${network})`).toBe('PermissionError: Permission denied');
      }
    }
    // What the routes started asynchronously (fetch, sockets) would land within moments.
    await expect.poll(() => reached.length, { timeout: 500 }).toBeGreaterThan(0).catch(() => {});
    expect(reached).toEqual([]);
  } finally {
    server.close();
  }
});

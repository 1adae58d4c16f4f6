// Issue 14, items 1 and 3, in Chromium (decision 0026): the hostile Python
// program of test/security/python.test.ts in a browser process worker. Its
// routes to JavaScript are closed as on Node; the one open by design reaches
// the confined worker scope, where fetch beyond the app's assets, WebSocket,
// IndexedDB, Cache Storage, importScripts, nested workers and posting to the
// kernel all fail; Python's sockets are the kernel's, whose 127.0.0.1 is the
// VM's own, so a listener on the test's host sees nothing, under network none
// and all.
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
        const got = sockets.get(way);
        // urllib.request goes through the kernel's http syscall (decision 0042): 127.0.0.1 is the VM's own loopback (decision 0070), where nothing listens.
        if (way === 'urllib.request') expect(got, `${way} (network ${network})`).toMatch(/^ConnectionRefusedError: .*nothing listens on 127\.0\.0\.1 port \d+ in the VM/);
        // Emscripten's socket type (WebSockets from the worker) is refused outright.
        else if (way === 'emscripten._socket') expect(got, `${way} (network ${network})`).toBe('PermissionError: Permission denied');
        // Python's sockets are the kernel's (decision 0071): the VM's 127.0.0.1 is its own, where nothing listens on that port.
        else expect(got, `${way} (network ${network})`).toBe('ConnectionRefusedError: Connection refused');
      }
    }
    // What the routes started asynchronously (fetch, sockets) would land within moments.
    await expect.poll(() => reached.length, { timeout: 500 }).toBeGreaterThan(0).catch(() => {});
    expect(reached).toEqual([]);
  } finally {
    server.close();
  }
});

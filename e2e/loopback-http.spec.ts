// curl in Chromium reaching a server in the same VM (decision 0070): the
// kernel serves a loopback URL from the VM's own sockets, under the default
// policy (network: none), with no fetch() by the kernel worker. A server on
// the page's machine on the same port (CORS open, so fetch() would reach it)
// counts connections: it never sees one, under any policy, whether or not the
// VM listens.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';

let host: Server;
let port = 0;
let connections = 0;

test.beforeAll(async () => {
  host = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin' });
    res.end('the host\n');
  });
  host.on('connection', () => connections++);
  await new Promise<void>((ok) => host.listen(0, '127.0.0.1', ok));
  port = (host.address() as AddressInfo).port;
});

test.afterAll(async () => {
  await new Promise<void>((ok) => (host.closeAllConnections(), host.close(() => ok())));
});

async function harness(page: Page): Promise<void> {
  await page.goto('/e2e/harness/');
  await page.waitForFunction(() => window.__agentos !== undefined);
}

/** Shell: nc answering one canned response on `p`, and a wait until it listens (/proc/net/tcp, state 0A). */
const ncServer = (p: number, body: string) =>
  `printf 'HTTP/1.1 200 OK\\r\\nContent-Length: ${body.length + 1}\\r\\nX-Served-By: vm\\r\\n\\r\\n${body}\\n' | nc -N -l ${p} > /tmp/req & ` +
  `until grep -q ':${p.toString(16).toUpperCase().padStart(4, '0')} 00000000:0000 0A' /proc/net/tcp; do :; done; `;

test('loopback-http (browser): curl reaches an nc server in the same VM under network: none', async ({ page }) => {
  await harness(page);
  const [r] = await page.evaluate(
    ([cmd]) => window.__agentos.netRun('none', [cmd]),
    [`${ncServer(8080, 'hello from the VM')} curl -sS -i http://localhost:8080/path?q=1; wait; cat /tmp/req; curl -sS http://127.0.0.1:8080/; echo "rc=$?"`],
  );
  expect(r.stdout).toBe(
    'HTTP/1.1 200 OK\r\nContent-Length: 18\r\nX-Served-By: vm\r\n\r\nhello from the VM\n' +
      'GET /path?q=1 HTTP/1.1\r\nHost: localhost:8080\r\nUser-Agent: curl/0.1.0 (agentOS)\r\nAccept: */*\r\nConnection: close\r\n\r\n' +
      'rc=7\n',
  );
  expect(r.stderr).toMatch(/^curl: \(7\) Failed to connect to 127\.0\.0\.1 port 8080 after \d+ ms: Couldn't connect to server\n$/);
});

test('loopback-http (browser): a loopback URL never reaches a server of the host on the same port', async ({ page }) => {
  await harness(page);
  const before = connections;
  for (const network of ['all', 'none'] as const) {
    const [r] = await page.evaluate(
      ([net, cmd]) => window.__agentos.netRun(net as 'all' | 'none', [cmd]),
      [network, `${ncServer(port, 'vm')} curl -sS http://127.0.0.1:${port}/; wait; for h in localhost 127.0.0.1 '[::1]' '[::ffff:7f00:1]' 0x7f.1; do curl -s -m 5 http://$h:${port}/; echo "rc=$?"; done`],
    );
    expect(r.stdout, network).toBe(`vm\n${'rc=7\n'.repeat(5)}`);
  }
  expect(connections, 'the host server saw no connection').toBe(before);
});

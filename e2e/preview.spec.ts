// Browser previews: a server listening in a page's VM, reached through the
// service-worker URL `<dist/web>/preview/<vm>/<port>/…` in a new tab and in an
// iframe; <agentos-terminal> announces the port (`port-open`). And what a
// preview cannot reach: another VM, a port not exposed, a port nothing listens
// on, the site's own origin.

import { expect, test, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import type { AgentosTerminalElement } from '../src/ui/component/agentos-terminal.js';
import type { AgentVM } from '../src/host/browser/index.js';
import { serveStatic, type StaticServer } from '../src/host/playwright/static-server.js';

const DIST = fileURLToPath(new URL('../dist/web/', import.meta.url));
/** Inside the directory of dist/web's coi-sw.js: its scope. */
const PAGE = '/vendor/agentos/preview-host.html';
/** A page of the site in the worker's scope: opened after the worker is registered, it is controlled, so its fetches reach previews. */
const BLANK = '/vendor/agentos/preview-blank.html';

/** A small HTTP server in the VM (JavaScript on the kernel's sockets): files of DIR by path; POST answers the body's length and digest. */
const SERVER = `#!/usr/libexec/agentos/js
const s = agentos.sys;
const [, port, dir] = agentos.argv;
const enc = new TextEncoder(), dec = new TextDecoder();
const fd = s.socket(2, 1);
s.bind(fd, { family: 2, address: '0.0.0.0', port: Number(port) });
s.listen(fd, 16);
const answer = (c, status, type, body) => {
  const b = typeof body === 'string' ? enc.encode(body) : body;
  s.writeAll(c, enc.encode('HTTP/1.1 ' + status + '\\r\\nContent-Type: ' + type + '\\r\\nContent-Length: ' + b.byteLength + '\\r\\nConnection: close\\r\\n\\r\\n'));
  s.writeAll(c, b);
};
for (;;) {
  const [c] = s.accept(fd);
  let buf = new Uint8Array(0);
  const more = () => { const b = s.read(c, 65536); const n = new Uint8Array(buf.byteLength + b.byteLength); n.set(buf); n.set(b, buf.byteLength); buf = n; return b.byteLength; };
  let end;
  while ((end = dec.decode(buf).indexOf('\\r\\n\\r\\n')) < 0 && more());
  const head = dec.decode(buf.subarray(0, end));
  const [method, path] = head.split(' ');
  const len = Number((/\\r\\ncontent-length: *(\\d+)/i.exec(head) || [])[1] || 0);
  while (buf.byteLength < end + 4 + len && more());
  if (method === 'POST') {
    let sum = 0;
    for (const x of buf.subarray(end + 4, end + 4 + len)) sum = (sum * 31 + x) >>> 0;
    const n = Number(path.split('?n=')[1] || 0);
    answer(c, '200 OK', 'text/plain', len + ' ' + sum + ' ' + 'y'.repeat(n));
  } else {
    const file = dir + (path.split('?')[0].endsWith('/') ? path.split('?')[0] + 'index.html' : path.split('?')[0]);
    let body = null;
    try { const f = s.open(file, 0); body = new Uint8Array(0); for (let b = s.read(f, 65536); b.byteLength; b = s.read(f, 65536)) { const n = new Uint8Array(body.byteLength + b.byteLength); n.set(body); n.set(b, body.byteLength); body = n; } s.close(f); } catch {}
    if (body === null) answer(c, '404 Not Found', 'text/plain', 'no ' + path);
    else answer(c, '200 OK', file.endsWith('.js') ? 'text/javascript' : 'text/html', body);
  }
  s.close(c);
}
`;

/** The guest's page: its script notes where it runs and tries to reach the site (its embedder, its storage). */
const INDEX = `<!doctype html><html><head><meta charset="utf-8"><title>from the VM</title></head>
<body><p id="p">served by the VM</p><script>
const p = document.getElementById('p');
p.dataset.app = 'ran';
p.dataset.origin = self.origin;
try { p.dataset.parent = parent === self ? 'none' : 'reached ' + parent.document.title; } catch { p.dataset.parent = 'blocked'; }
try { p.dataset.storage = 'reached ' + localStorage.length; } catch { p.dataset.storage = 'blocked'; }
</script></body></html>`;

function hostPage(): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>host</title></head><body>
<script>
  window.__ports = [];
  document.addEventListener('port-open', (e) => window.__ports.push({ type: 'open', id: e.target.id, port: e.detail.port, url: e.detail.url }));
  document.addEventListener('port-close', (e) => window.__ports.push({ type: 'close', id: e.target.id, port: e.detail.port }));
</script>
<agentos-terminal id="a" autostart></agentos-terminal>
<agentos-terminal id="b" autostart></agentos-terminal>
<script type="module" src="/vendor/agentos/agentos-terminal.js"></script>
</body></html>`;
}

declare global {
  interface Window {
    __ports: { type: string; id: string; port: number; url?: string | null }[];
  }
}

let server: StaticServer | null = null;
test.afterEach(async () => {
  await server?.close();
  server = null;
});

/** Start the VM server of element `id` on `port` serving /tmp/www; resolves with the port-open event's URL. */
async function startServer(page: Page, id: string, port: number): Promise<string> {
  await page.waitForFunction((i) => !!document.querySelector<AgentosTerminalElement>(`#${i}`)?.vm, id);
  await page.evaluate(async ({ id, port, server, index }) => {
    const el = document.querySelector<AgentosTerminalElement>(`#${id}`)!;
    await el.vm.ready;
    const vm = el.vm.vm as AgentVM;
    await vm.writeFile('/tmp/srv.js', server, 0o755);
    await vm.exec('mkdir -p /tmp/www');
    await vm.writeFile('/tmp/www/index.html', index);
    await vm.jobs.start(`/tmp/srv.js ${port} /tmp/www`);
  }, { id, port, server: SERVER, index: INDEX });
  const handle = await page.waitForFunction(({ id, port }) => window.__ports.find((e) => e.type === 'open' && e.id === id && e.port === port)?.url, { id, port }, { timeout: 20_000 });
  return (await handle.jsonValue()) as string;
}

test('a preview URL opens the VM server\'s page in a new tab, its script running in an opaque origin; port-open told the URL', async ({ page, context }) => {
  server = await serveStatic({ root: DIST, prefix: '/vendor/agentos/', isolate: true, pages: { [PAGE]: hostPage(), [BLANK]: '<!doctype html><title>blank</title>' } });
  await page.goto(`${server.url}${PAGE}`);
  const url = await startServer(page, 'a', 8080);
  expect(url).toMatch(new RegExp(`^${server.url}/vendor/agentos/preview/[0-9a-f-]{36}/8080/$`));
  const tab = await context.newPage();
  const res = await tab.goto(url);
  expect(res?.status()).toBe(200);
  await expect(tab).toHaveTitle('from the VM');
  await expect(tab.locator('#p')).toHaveAttribute('data-app', 'ran');
  // The guest's page runs sandboxed: an opaque origin, not the site's, so none of the site's storage.
  await expect(tab.locator('#p')).toHaveAttribute('data-origin', 'null');
  await expect(tab.locator('#p')).toHaveAttribute('data-storage', 'blocked');
  await tab.close();
});

test('a preview in an iframe panel of the page cannot reach the page; a large POST streams both ways', async ({ page }) => {
  server = await serveStatic({ root: DIST, prefix: '/vendor/agentos/', isolate: true, pages: { [PAGE]: hostPage(), [BLANK]: '<!doctype html><title>blank</title>' } });
  await page.goto(`${server.url}${PAGE}`);
  const url = await startServer(page, 'a', 8080);
  await page.evaluate((u) => {
    const f = document.createElement('iframe');
    f.src = u;
    f.id = 'preview';
    document.body.append(f);
  }, url);
  const frame = page.frameLocator('#preview');
  await expect(frame.locator('#p')).toHaveAttribute('data-app', 'ran');
  // Framed by the page that runs the VM, it still cannot touch that page (the AgentVM object is the host's authority).
  await expect(frame.locator('#p')).toHaveAttribute('data-parent', 'blocked');
  await expect(frame.locator('#p')).toHaveAttribute('data-storage', 'blocked');
  // A POST through the service worker, from a page it controls: 1 MiB up, 1 MiB down.
  const r = await page.evaluate(async ({ u, blank }) => {
    const f = document.createElement('iframe');
    f.src = blank;
    document.body.append(f);
    await new Promise((ok) => f.addEventListener('load', ok));
    const up = new Uint8Array(1 << 20).map((_, i) => (i * 7) & 0xff);
    let sum = 0;
    for (const x of up) sum = (sum * 31 + x) >>> 0;
    const res = await f.contentWindow!.fetch(`${u}upload?n=${1 << 20}`, { method: 'POST', body: up });
    const text = await res.text();
    return { status: res.status, head: text.slice(0, 40), len: text.length, sum };
  }, { u: url, blank: BLANK });
  expect(r.status).toBe(200);
  expect(r.head.startsWith(`${1 << 20} ${r.sum} y`)).toBe(true);
  expect(r.len).toBe(`${1 << 20} ${r.sum} `.length + (1 << 20));
});

test('a preview URL reaches only its VM\'s exposed, listening ports: not another VM\'s, not a port not exposed, not a closed one', async ({ page, context }) => {
  server = await serveStatic({ root: DIST, prefix: '/vendor/agentos/', isolate: true, pages: { [PAGE]: hostPage(), [BLANK]: '<!doctype html><title>blank</title>' } });
  await page.goto(`${server.url}${PAGE}`);
  const a = await startServer(page, 'a', 8080);
  const b = await startServer(page, 'b', 8090);
  const idA = a.split('/').at(-3)!, idB = b.split('/').at(-3)!;
  expect(idA).not.toBe(idB);
  const tab = await context.newPage();
  const get = async (u: string) => {
    const res = await tab.goto(u);
    return { status: res!.status(), text: await tab.locator('body').innerText() };
  };
  expect((await get(b)).status).toBe(200);
  // VM a's id with VM b's port: a does not listen there, nor has it exposed it.
  const notExposed = await get(a.replace('/8080/', '/8090/'));
  expect(notExposed.status).toBe(404);
  expect(notExposed.text).toContain('agentOS: port 8090 of this VM is not exposed (vm.expose)');
  // An id no page runs.
  const other = `${crypto.randomUUID()}`;
  expect((await get(a.replace(idA, other))).text).toContain(`no page of this site runs VM ${other}`);
  // Exposed, but nothing listens.
  const idle = await page.evaluate(async () => (await (document.querySelector<AgentosTerminalElement>('#a')!.vm.vm as AgentVM).expose(8099)).url);
  const refused = await get(idle);
  expect(refused.status).toBe(502);
  expect(refused.text).toContain('agentOS: nothing listens on port 8099 in the VM');
  // Once the server stops, the port closes (port-close) and its preview is gone.
  await page.evaluate(async () => {
    const vm = document.querySelector<AgentosTerminalElement>('#b')!.vm.vm as AgentVM;
    for (const j of await vm.jobs.list()) await vm.jobs.kill(j.id, 'KILL');
  });
  await page.waitForFunction(() => window.__ports.some((e) => e.type === 'close' && e.id === 'b' && e.port === 8090));
  expect((await get(b)).status).toBe(404);
  await tab.close();
});

test('the playground\'s Ports panel lists a listening port and shows its preview in a frame', async ({ page }) => {
  await page.goto('/?vm=');
  await page.waitForFunction(() => (window as unknown as { agentos?: unknown }).agentos !== undefined, null, { timeout: 20_000 });
  await page.evaluate(async ({ server, index }) => {
    const api = (window as unknown as { agentos: { ready: Promise<void>; vm: AgentVM } }).agentos;
    await api.ready;
    await api.vm.writeFile('/tmp/srv.js', server, 0o755);
    await api.vm.exec('mkdir -p /tmp/www');
    await api.vm.writeFile('/tmp/www/index.html', index);
    await api.vm.jobs.start('/tmp/srv.js 8000 /tmp/www');
  }, { server: SERVER, index: INDEX });
  await page.getByRole('tab', { name: 'Ports' }).click();
  const item = page.locator('#ports li[data-port="8000"]');
  await expect(item).toBeVisible({ timeout: 20_000 });
  await expect(item.getByRole('link', { name: 'Open in a new tab' })).toHaveAttribute('href', /\/preview\/[0-9a-f-]{36}\/8000\/$/);
  await item.getByRole('button', { name: 'Show here' }).click();
  await expect(page.frameLocator('#ports iframe.preview').locator('#p')).toHaveAttribute('data-app', 'ran');
});

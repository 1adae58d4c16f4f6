// <agentos-terminal> on pages that are not cross-origin isolated (issue 21):
// each page is served without COOP/COEP (or with COOP only, or framed by
// another origin, or where service workers are missing), and the element
// either isolates itself (its coi-sw service worker, or a sandbox frame sent
// Document-Isolation-Policy) or says why it cannot, in words, in the element,
// in its `isolation` property and event — never a hang or a blank box. The
// checks are page-level (the element's property, a page script's record of
// events), so other engines' drivers can run the same pages.

import { expect, test, type Frame, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import type { AgentosTerminalElement } from '../src/ui/component/agentos-terminal.js';
import { serveStatic, type StaticServer } from '../src/host/playwright/static-server.js';

const DIST = fileURLToPath(new URL('../dist/web/', import.meta.url));
const PAGE = '/vendor/agentos/embed.html'; // inside the directory of dist/web's coi-sw.js: its scope

/** A host page with one element; it records the element's events in window.__isoEvents. */
function hostPage(attrs: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>host</title></head><body>
<script>
  window.__isoEvents = [];
  for (const type of ['ready', 'error', 'isolation'])
    document.addEventListener(type, (e) => window.__isoEvents.push({ type, state: e.detail?.state, message: e.detail?.error?.message }));
</script>
<agentos-terminal id="t" ${attrs}></agentos-terminal>
<script type="module" src="/vendor/agentos/agentos-terminal.js"></script>
</body></html>`;
}

declare global {
  interface Window {
    __isoEvents: { type: string; state?: string; message?: string }[];
  }
}

const servers: StaticServer[] = [];
async function serve(attrs: string, headers: Record<string, string> = {}): Promise<StaticServer> {
  const s = await serveStatic({ root: DIST, prefix: '/vendor/agentos/', headers, pages: { [PAGE]: hostPage(attrs) } });
  servers.push(s);
  return s;
}
test.afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** The element's isolation once settled (the property), and its notice's text. */
async function settled(where: Page | Frame): Promise<{ state: string; via?: string; reason?: string; notice: string }> {
  await where.waitForFunction(() => document.querySelector<AgentosTerminalElement>('#t')?.isolation?.state === 'isolated' || document.querySelector<AgentosTerminalElement>('#t')?.isolation?.state === 'unavailable', null, { timeout: 20_000 });
  return where.evaluate(() => {
    const t = document.querySelector<AgentosTerminalElement>('#t')!;
    return { ...t.isolation!, notice: t.shadowRoot!.querySelector('.notice')!.textContent! } as never;
  });
}

/** Starting a VM that cannot be isolated fails at once, with the reason (no hang). */
const startError = (where: Page | Frame) =>
  where.evaluate(() => document.querySelector<AgentosTerminalElement>('#t')!.vm.ready.then(() => 'started', (e: Error) => e.message));

test('no headers, no service worker named: unavailable, said in the element, the property and the events', async ({ page }) => {
  const s = await serve('autostart');
  await page.goto(`${s.url}${PAGE}`);
  const iso = await settled(page);
  expect(iso.state).toBe('unavailable');
  expect(iso.reason).toMatch(/served without those headers/);
  expect(iso.notice).toContain('Cross-Origin-Embedder-Policy: require-corp');
  expect(await startError(page)).toContain('cross-origin isolated');
  const events = await page.evaluate(() => window.__isoEvents);
  expect(events.filter((e) => e.type === 'isolation').map((e) => e.state)).toEqual(['unavailable']);
  expect(events.some((e) => e.type === 'error' && /cross-origin isolated/.test(e.message ?? ''))).toBe(true);
});

for (const [name, headers] of [['no headers', {}], ['COOP only', { 'Cross-Origin-Opener-Policy': 'same-origin' }]] as const) {
  test(`${name}, coi-sw: the element registers the worker, the page reloads once, isolated, the VM runs`, async ({ page }) => {
    const s = await serve('autostart coi-sw="./coi-sw.js"', headers);
    let loads = 0;
    page.on('load', () => loads++);
    await page.goto(`${s.url}${PAGE}`);
    const iso = await settled(page);
    expect(iso).toMatchObject({ state: 'isolated', via: 'service-worker' });
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    expect(loads).toBe(2);
    await page.waitForFunction(() => window.__isoEvents.some((e) => e.type === 'ready'), null, { timeout: 30_000 });
    expect((await page.evaluate(() => document.querySelector<AgentosTerminalElement>('#t')!.vm.exec('echo isolated'))).stdout).toBe('isolated\n');
  });
}

test('COOP only, no service worker named: unavailable with the headers to send', async ({ page }) => {
  const s = await serve('', { 'Cross-Origin-Opener-Policy': 'same-origin' });
  await page.goto(`${s.url}${PAGE}`);
  const iso = await settled(page);
  expect(iso.state).toBe('unavailable');
  expect(iso.notice).toContain('Cross-Origin-Embedder-Policy: require-corp');
  expect(await startError(page)).toContain('cross-origin isolated');
});

test('in a cross-origin frame of a page without headers: unavailable at once, no worker, no reload', async ({ page }) => {
  const inner = await serve('autostart coi-sw="./coi-sw.js"');
  // The top page on another port: another origin.
  const framedUrl = `${inner.url}${PAGE}`;
  const outer = await serveStatic({ root: DIST, pages: { '/': `<!doctype html><iframe src="${framedUrl}" style="width:600px;height:400px"></iframe>` } });
  servers.push(outer);
  let navigations = 0;
  page.on('framenavigated', (f) => void (f !== page.mainFrame() && navigations++));
  await page.goto(`${outer.url}/`);
  await page.waitForFunction(() => document.querySelector('iframe')?.contentWindow !== null);
  const frame = page.frames().find((f) => f.url() === framedUrl)!;
  const iso = await settled(frame);
  expect(iso.state).toBe('unavailable');
  expect(iso.reason).toMatch(/in a frame of a page that is not cross-origin isolated/);
  expect(iso.notice).toContain('allow="cross-origin-isolated"');
  expect(await frame.evaluate(() => navigator.serviceWorker.getRegistrations().then((r) => r.length))).toBe(0);
  expect(await startError(frame)).toContain('cross-origin isolated');
  expect(navigations).toBe(1);
});

test('service workers unavailable (navigator.serviceWorker missing): unavailable with that reason', async ({ browser }) => {
  const s = await serve('autostart coi-sw="./coi-sw.js"');
  const context = await browser.newContext();
  try {
    await context.addInitScript(() => delete (Navigator.prototype as { serviceWorker?: unknown }).serviceWorker);
    const page = await context.newPage();
    await page.goto(`${s.url}${PAGE}`);
    const iso = await settled(page);
    expect(iso.state).toBe('unavailable');
    expect(iso.reason).toMatch(/no service workers/);
    expect(await startError(page)).toContain('cross-origin isolated');
  } finally {
    await context.close();
  }
});

test('service workers blocked (a private-mode-like context): unavailable, not a hang', async ({ browser }) => {
  const s = await serve('autostart coi-sw="./coi-sw.js"');
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    await page.goto(`${s.url}${PAGE}`);
    const iso = await settled(page);
    expect(iso.state).toBe('unavailable');
    expect(await startError(page)).toContain('cross-origin isolated');
  } finally {
    await context.close();
  }
});

test('sandbox-origin on a page without headers: a frame sent Document-Isolation-Policy is isolated and runs the VM', async ({ page }) => {
  const sandbox = await serveStatic({ root: DIST, prefix: '/vendor/agentos/', headers: { 'Document-Isolation-Policy': 'isolate-and-require-corp' } });
  servers.push(sandbox);
  const s = await serve(`autostart sandbox-origin="${sandbox.url}/vendor/agentos/"`);
  await page.goto(`${s.url}${PAGE}`);
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
  await page.waitForFunction(() => window.__isoEvents.some((e) => e.type === 'ready' || e.type === 'error'), null, { timeout: 30_000 });
  expect(await page.evaluate(() => window.__isoEvents.filter((e) => e.type === 'error'))).toEqual([]);
  expect(await settled(page)).toMatchObject({ state: 'isolated', via: 'sandbox-origin' });
  expect((await page.evaluate(() => document.querySelector<AgentosTerminalElement>('#t')!.vm.exec('echo framed'))).stdout).toBe('framed\n');
});

test('sandbox-origin without any isolation headers: unavailable, the frame says which headers', async ({ page }) => {
  const sandbox = await serveStatic({ root: DIST, prefix: '/vendor/agentos/' });
  servers.push(sandbox);
  const s = await serve(`autostart sandbox-origin="${sandbox.url}/vendor/agentos/"`);
  await page.goto(`${s.url}${PAGE}`);
  const iso = await settled(page);
  expect(iso.state).toBe('unavailable');
  expect(iso.reason).toContain('Document-Isolation-Policy: isolate-and-require-corp');
  expect(iso.notice).toContain('not cross-origin isolated');
});

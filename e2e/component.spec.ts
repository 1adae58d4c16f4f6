// <agentos-terminal> embedded as a site would: dist/web mounted under a
// sub-directory of a static server (so every worker, chunk and image URL must
// resolve relative to the module, not the page), on host pages of the test's
// own making.

import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AgentosTerminalElement } from '../src/ui/component/agentos-terminal.js';
import { serveStatic, type StaticServer } from '../src/host/playwright/static-server.js';
import { component, runLine, screenText, waitForPrompt, waitForScreen } from './xterm.js';

const DIST = fileURLToPath(new URL('../dist/web/', import.meta.url));
const unique = (what: string) => `${what}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/** A host page at /site/page.html whose body is `body`; the component is /vendor/agentos/agentos-terminal.js. */
function hostPage(body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>host</title></head><body>
<script>
  window.__events = [];
  for (const type of ['ready', 'exit', 'output', 'error'])
    document.addEventListener(type, (e) => window.__events.push({ type, id: e.target.id, code: e.detail?.code, text: e.detail?.text }));
</script>
${body}
<script type="module" src="/vendor/agentos/agentos-terminal.js"></script>
</body></html>`;
}

async function serve(body: string, isolate = true): Promise<StaticServer> {
  return serveStatic({ root: DIST, prefix: '/vendor/agentos/', isolate, pages: { '/site/page.html': hostPage(body) } });
}

const ready = (page: Page, id: string) =>
  page.waitForFunction((i) => window.__events.some((e) => e.type === 'ready' && e.id === i), id, { timeout: 20_000 });

declare global {
  interface Window {
    __events: { type: string; id: string; code?: number; text?: string }[];
  }
}

let server: StaticServer | null = null;
test.afterEach(async () => {
  await server?.close();
  server = null;
});

test('two instances on one page are separate VMs, and the attributes are honoured', async ({ page }) => {
  server = await serve(`
    <agentos-terminal id="a" autostart cwd="/tmp" env='GREETING="hello there" N=1' theme="light" rows="10" cols="60"></agentos-terminal>
    <agentos-terminal id="b" autostart env='{"N": "2"}' theme="dark" style="height: 300px"></agentos-terminal>`);
  await page.goto(`${server.url}/site/page.html`);
  await Promise.all([ready(page, 'a'), ready(page, 'b')]);
  const r = await page.evaluate(async () => {
    const a = document.querySelector<AgentosTerminalElement>('#a')!;
    const b = document.querySelector<AgentosTerminalElement>('#b')!;
    await a.vm.writeFile('/tmp/mine', 'only in a\n');
    return {
      aEnv: (await a.vm.exec('pwd; echo "$GREETING/$N"')).stdout,
      bEnv: (await b.vm.exec('pwd; echo "$N"')).stdout,
      bSees: (await b.vm.exec('cat /tmp/mine')).exitCode,
      aSees: (await a.vm.exec('cat /tmp/mine')).stdout,
      aSize: [a.xterm!.cols, a.xterm!.rows],
      themes: [a.xterm!.options.theme?.background, b.xterm!.options.theme?.background],
    };
  });
  expect(r.aEnv).toBe('/tmp\nhello there/1\n');
  expect(r.bEnv).toBe('/home/user\n2\n');
  expect(r.aSees).toBe('only in a\n');
  expect(r.bSees).not.toBe(0);
  expect(r.aSize).toEqual([60, 10]);
  expect(r.themes).toEqual(['#fbfbf8', '#16181d']);
  // b fits its 300px box: more than zero rows, fewer than a 24-row default would need.
  const bRows = await page.evaluate(() => document.querySelector<AgentosTerminalElement>('#b')!.xterm!.rows);
  expect(bRows).toBeGreaterThan(5);
  expect(bRows).toBeLessThan(24);
  // Each has its own shell on its own terminal.
  await waitForPrompt(page, component('#a'));
  await page.locator('#a').click();
  await runLine(page, component('#a'), 'pwd');
  await waitForScreen(page, component('#a'), /pwd\n\/tmp\n/);
});

test('without autostart it waits for a click; events ready, output and exit fire', async ({ page }) => {
  server = await serve('<agentos-terminal id="t"></agentos-terminal>');
  await page.goto(`${server.url}/site/page.html`);
  const start = page.locator('#t').getByRole('button', { name: 'Start agentOS' });
  await expect(start).toBeVisible();
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => window.__events.filter((e) => e.type === 'ready').length)).toBe(0);
  await start.click();
  await ready(page, 't');
  const T = component('#t');
  await waitForPrompt(page, T);
  await page.locator('#t').click();
  await runLine(page, T, 'echo out-$((6*7))');
  await expect.poll(() => page.evaluate(() => window.__events.filter((e) => e.type === 'output').map((e) => e.text).join(''))).toMatch(/out-42/);
  await page.keyboard.type('exit 3');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.evaluate(() => window.__events.find((e) => e.type === 'exit')?.code)).toBe(3);
});

test('readonly: keys do not reach the VM, the page still drives it', async ({ page }) => {
  server = await serve('<agentos-terminal id="r" autostart readonly></agentos-terminal>');
  await page.goto(`${server.url}/site/page.html`);
  await ready(page, 'r');
  const T = component('#r');
  await waitForPrompt(page, T);
  await page.locator('#r').click();
  await page.keyboard.type('echo typed-by-hand');
  await page.keyboard.press('Enter');
  await page.waitForTimeout(500);
  expect(await screenText(page, T)).not.toMatch(/typed-by-hand/);
  const r = await page.evaluate(() => document.querySelector<AgentosTerminalElement>('#r')!.vm.exec('echo driven', { inTerminal: true }));
  expect(r).toMatchObject({ stdout: 'driven\n', exitCode: 0 });
  await waitForScreen(page, T, /\ndriven\n/);
});

test('persist keeps files across a reload; without it the VM is ephemeral', async ({ page }) => {
  const name = unique('comp');
  server = await serve(`<agentos-terminal id="p" autostart persist="${name}"></agentos-terminal><agentos-terminal id="e" autostart></agentos-terminal>`);
  await page.goto(`${server.url}/site/page.html`);
  await Promise.all([ready(page, 'p'), ready(page, 'e')]);
  await page.evaluate(async () => {
    await document.querySelector<AgentosTerminalElement>('#p')!.vm.exec('echo kept > f');
    await document.querySelector<AgentosTerminalElement>('#e')!.vm.exec('echo lost > f');
  });
  await page.reload();
  await Promise.all([ready(page, 'p'), ready(page, 'e')]);
  const r = await page.evaluate(async () => [
    (await document.querySelector<AgentosTerminalElement>('#p')!.vm.exec('cat f')).stdout,
    (await document.querySelector<AgentosTerminalElement>('#e')!.vm.exec('cat f')).exitCode,
  ]);
  expect(r[0]).toBe('kept\n');
  expect(r[1]).not.toBe(0);
});

test('on a page without COOP/COEP it explains which headers are missing', async ({ page }) => {
  server = await serve('<agentos-terminal id="n" autostart></agentos-terminal>', false);
  await page.goto(`${server.url}/site/page.html`);
  await expect(page.locator('#n')).toContainText('Cross-Origin-Embedder-Policy: require-corp');
});

test('a host page without headers can use the service-worker fallback the module exports', async ({ page }) => {
  // The page sits in the worker's directory (its scope), as a copy of coi-sw.js at a site's root would cover the site.
  const body = `<agentos-terminal id="s" autostart></agentos-terminal>
    <script type="module">
      import { ensureIsolation } from './agentos-terminal.js';
      window.__iso = await ensureIsolation(new URL('./coi-sw.js', location.href));
    </script>`;
  server = await serveStatic({ root: DIST, prefix: '/vendor/agentos/', pages: { '/vendor/agentos/embed.html': hostPage(body) } });
  await page.goto(`${server.url}/vendor/agentos/embed.html`);
  await page.waitForFunction(() => (window as unknown as { __iso?: { state: string } }).__iso?.state === 'isolated', null, { timeout: 20_000 });
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  await ready(page, 's');
  expect((await page.evaluate(() => document.querySelector<AgentosTerminalElement>('#s')!.vm.exec('echo ok'))).stdout).toBe('ok\n');
});

test("the README's example works as written", async ({ page }) => {
  const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
  const example = readme.split('## Embedding')[1].match(/```html\n([\s\S]*?)```/)![1];
  server = await serveStatic({ root: DIST, prefix: '/agentos/', isolate: true, pages: { '/': `<!doctype html><meta charset="utf-8"><body>${example}</body>` } });
  const logs: string[] = [];
  page.on('console', (m) => logs.push(m.text()));
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}/`);
  await expect.poll(() => logs.join('\n'), { timeout: 20_000 }).toContain('hello there from Linux\n 0');
  await waitForScreen(page, component('agentos-terminal'), /ls -l/);
  expect(errors).toEqual([]);
});

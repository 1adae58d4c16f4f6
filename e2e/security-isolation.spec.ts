// <agentos-terminal sandbox-origin> (issue 14, item 12: defense in depth in the
// browser): the component runs its VM in a frame of another origin, so guest
// code never runs in the embedding site's origin. 127.0.0.1:PORT and
// localhost:PORT are different origins (and sites) on one server; a second
// server's port is a third origin, the intruder.

import { expect, test, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import type { AgentosTerminalElement } from '../src/ui/component/agentos-terminal.js';
import { serveStatic, type StaticServer } from '../src/host/playwright/static-server.js';
import { component, runLine, waitForPrompt, waitForScreen } from './xterm.js';

const DIST = fileURLToPath(new URL('../dist/web/', import.meta.url));
/** What a sandbox origin sends besides COOP/COEP: it is framed by another site. */
const CORP = { 'Cross-Origin-Resource-Policy': 'cross-origin' };

declare global {
  interface Window {
    __siteEvents: { type: string; id: string; text?: string; message?: string }[];
    __workers: string[];
    __intruder?: { got: unknown[]; posted: number; reachable: number };
  }
}

/** The embedding site's page: it records its events and every Worker created in its own realm. */
function sitePage(body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>site</title></head><body>
<script>
  window.__siteEvents = [];
  for (const type of ['ready', 'output', 'error'])
    document.addEventListener(type, (e) => window.__siteEvents.push({ type, id: e.target.id, text: e.detail?.text, message: e.detail?.error?.message }));
  window.__workers = [];
  const W = window.Worker;
  window.Worker = class extends W { constructor(url, o) { window.__workers.push(String(url)); super(url, o); } };
</script>
${body}
<script type="module" src="/vendor/agentos/agentos-terminal.js"></script>
</body></html>`;
}

const servers: StaticServer[] = [];
test.afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** The site at 127.0.0.1, the sandbox (the same dist/web) at localhost, on one server. */
async function serve(body: (sandbox: string) => string): Promise<{ site: string; sandbox: string }> {
  const pages: Record<string, string> = {};
  const server = await serveStatic({ root: DIST, prefix: '/vendor/agentos/', isolate: true, headers: CORP, pages });
  servers.push(server);
  const sandbox = `${server.url.replace('127.0.0.1', 'localhost')}/vendor/agentos/`;
  pages['/site/page.html'] = sitePage(body(sandbox)); // the page names the port, known only now
  return { site: server.url, sandbox };
}

const ready = (page: Page, id: string) =>
  page.waitForFunction((i) => window.__siteEvents.some((e) => e.type === 'ready' && e.id === i), id, { timeout: 30_000 });

test('the component works from a sandbox frame of another origin, and its VM runs there, not in the site', async ({ page }) => {
  const { site, sandbox } = await serve((sb) => `
    <agentos-terminal id="t" autostart rows="10" cols="80" env="GREETING=framed" sandbox-origin="${sb}"
      policy='{"processes": {"ask": ["/usr/bin/env"]}}'></agentos-terminal>
    <agentos-terminal id="same" autostart rows="4" cols="40" sandbox-origin="/vendor/agentos/"></agentos-terminal>`);
  await page.goto(`${site}/site/page.html`);
  await ready(page, 't');
  const sandboxOrigin = new URL(sandbox).origin;
  expect(sandboxOrigin).not.toBe(new URL(site).origin);

  const r = await page.evaluate(async () => {
    const t = document.querySelector<AgentosTerminalElement>('#t')!;
    const asked: string[] = [];
    t.onApproval = (req) => {
      asked.push(req.rule);
      return 'once';
    };
    await t.vm.writeFile('/tmp/where', '#!/usr/libexec/agentos/js\nagentos.print(`${self.origin} ${crossOriginIsolated}\\n`);\n', 0o755);
    const bytes = new Uint8Array([0, 1, 2, 255]);
    await t.vm.writeFile('/home/user/bytes', bytes);
    await t.vm.snapshot('s1');
    await t.vm.exec('rm /home/user/bytes');
    await t.vm.restore('s1');
    return {
      env: (await t.vm.exec('echo $GREETING; echo err >&2; exit 3')),
      where: (await t.vm.exec('/tmp/where')).stdout,
      bytes: [...await t.vm.readFile('/home/user/bytes')],
      inTerminal: await t.vm.exec('echo driven', { inTerminal: true }),
      scratchLeft: (await t.vm.exec('ls -A /tmp/.agentos-term')).stdout,
      approved: (await t.vm.exec('env true && echo ran')).stdout,
      asked,
    };
  });
  expect(r.env).toMatchObject({ stdout: 'framed\n', stderr: 'err\n', exitCode: 3 });
  // Guest code runs in the sandbox's origin, cross-origin isolated.
  expect(r.where).toBe(`${sandboxOrigin} true\n`);
  expect(r.bytes).toEqual([0, 1, 2, 255]);
  expect(r.inTerminal).toMatchObject({ stdout: 'driven\n', exitCode: 0 });
  expect(r.scratchLeft).toBe('');
  // The policy's ask reaches the site's onApproval across the frame, and its answer comes back.
  expect([r.approved, r.asked]).toEqual(['ran\n', ['processes.ask:/usr/bin/env']]);
  // A person types into the terminal on the site; the shell answers from the frame.
  const T = component('#t');
  await waitForPrompt(page, T);
  await page.locator('#t').click();
  await runLine(page, T, 'echo out-$((6*7))');
  await waitForScreen(page, T, /\nout-42\n/);
  await expect.poll(() => page.evaluate(() => window.__siteEvents.filter((e) => e.type === 'output').map((e) => e.text).join(''))).toMatch(/out-42/);
  // The site's realm made no worker: the kernel and the processes are the frame's.
  expect(await page.evaluate(() => window.__workers)).toEqual([]);
  expect(page.frames().some((f) => f.url().startsWith(`${sandboxOrigin}/vendor/agentos/sandbox.html?`))).toBe(true);
  // A "sandbox" on the site's own origin is no sandbox: refused.
  await expect.poll(() => page.evaluate(() => window.__siteEvents.find((e) => e.type === 'error' && e.id === 'same')?.message)).toMatch(/this page's own origin/);
});

test('the sandbox frame takes calls from its embedder only: another origin that frames it, claiming the site, gets nothing', async ({ page }) => {
  // The intruder: a third origin, framed by the site, that frames the sandbox page itself with the site's origin as its embedder.
  const intruder = await serveStatic({
    root: DIST, isolate: true, headers: CORP, pages: {
      '/intruder.html': `<!doctype html><meta charset="utf-8"><body><script>
        const q = new URLSearchParams(location.search);
        window.__intruder = { got: [], posted: 0, reachable: 0 };
        addEventListener('message', (e) => window.__intruder.got.push({ origin: e.origin, data: e.data }));
        const call = (id, method, args) => ({ agentos: 'call', id, method, args });
        // The component's frame sits in its shadow root: not among the site's frames.
        for (let i = 0; i < parent.frames.length; i++) if (parent.frames[i] !== window) window.__intruder.reachable++;
        const own = document.createElement('iframe');
        own.allow = 'cross-origin-isolated';
        own.src = q.get('sandbox') + 'sandbox.html?embedder=' + encodeURIComponent(q.get('site'));
        own.onload = () => {
          own.contentWindow.postMessage(call(1, 'start', [{}]), '*');
          own.contentWindow.postMessage(call(2, 'exec', ['echo pwned > /tmp/pwned', {}]), '*');
          window.__intruder.posted = 2;
        };
        document.body.append(own);
      </script>`,
    },
  });
  servers.push(intruder);
  const { site, sandbox } = await serve((sb) => `<agentos-terminal id="t" autostart rows="6" cols="60" sandbox-origin="${sb}"></agentos-terminal><div id="slot"></div>`);
  await page.goto(`${site}/site/page.html`);
  await ready(page, 't');
  await page.evaluate(({ url, site: s, sandbox: sb }) => {
    const f = document.createElement('iframe');
    f.allow = 'cross-origin-isolated'; // so the frame it makes could boot a VM, were it obeyed
    f.src = `${url}/intruder.html?site=${encodeURIComponent(s)}&sandbox=${encodeURIComponent(sb)}`;
    document.getElementById('slot')!.append(f);
  }, { url: intruder.url, site: new URL(site).origin, sandbox });
  const intruderFrame = () => page.frames().find((f) => f.url().startsWith(`${intruder.url}/intruder.html`));
  await expect.poll(async () => (await intruderFrame()?.evaluate(() => window.__intruder?.posted)) ?? 0, { timeout: 20_000 }).toBe(2);
  const state = await intruderFrame()!.evaluate(() => ({ reachable: window.__intruder!.reachable }));
  expect(state.reachable).toBe(0);
  // Its calls were ignored: the VM in the frame it made never started (starting sets it at once).
  const theirs = page.frames().find((f) => f.parentFrame() === intruderFrame() && f.url().includes('sandbox.html'))!;
  const listen = await theirs.evaluate(() => (globalThis as unknown as { agentos: { call(m: string, a: unknown[]): Promise<{ ok: boolean; message?: string }> } }).agentos.call('listen', ['output', true]));
  expect(listen).toMatchObject({ ok: false, message: expect.stringMatching(/not started/) });
  // Nothing came back to it: no `ready`, no reply (they go to the site's origin only, and it is not that).
  await page.waitForTimeout(300);
  expect(await intruderFrame()!.evaluate(() => window.__intruder!.got)).toEqual([]);
  // The site's own VM is untouched and still answers.
  expect((await page.evaluate(() => document.querySelector<AgentosTerminalElement>('#t')!.vm.exec('test -e /tmp/pwned; echo $?'))).stdout).toBe('1\n');
});

test('an embedder\'s persistent VMs are its own: another correspondent of the sandbox origin that opens the same name gets another VM', async ({ page }) => {
  // Storage in the sandbox origin is shared by all who reach it: every origin of a site that frames it (one storage
  // partition per top-level site), and its own pages. Here the embedder is the sandbox's own origin, whose frame
  // keeps first-party storage (Chromium refuses storage to third-party frames in a fresh context).
  const pages: Record<string, string> = {};
  const server = await serveStatic({ root: DIST, prefix: '/vendor/agentos/', isolate: true, pages });
  servers.push(server);
  pages['/embed.html'] = `<!doctype html><meta charset="utf-8"><body><script>
    const frame = document.createElement('iframe');
    frame.src = '/vendor/agentos/sandbox.html?embedder=' + encodeURIComponent(location.origin);
    const replies = new Map();
    let ready;
    window.__ready = new Promise((ok) => (ready = ok));
    addEventListener('message', (e) => {
      if (e.source !== frame.contentWindow) return;
      if (e.data?.agentos === 'ready') ready();
      if (e.data?.agentos === 'reply') replies.get(e.data.id)?.(e.data.reply);
    });
    let id = 0;
    window.__call = (method, args) => new Promise((ok) => {
      replies.set(++id, ok);
      frame.contentWindow.postMessage({ agentos: 'call', id, method, args }, location.origin);
    });
    document.body.append(frame);
  </script>`;
  type Call = (m: string, a: unknown[]) => Promise<{ ok: boolean; value?: unknown; message?: string }>;
  await page.goto(`${server.url}/embed.html`);
  const wrote = await page.evaluate(async () => {
    const w = window as unknown as { __ready: Promise<void>; __call: Call };
    await w.__ready;
    return [await w.__call('start', [{ persist: 'notes' }]), await w.__call('exec', ["echo \"the embedder's\" > ~/secret", {}]), await w.__call('stop', [])];
  });
  expect(wrote.map((r) => r.ok)).toEqual([true, true, true]);
  // The sandbox page on its own (as BrowserVM drives it) opens a VM of the same name: not the embedder's.
  await page.goto(`${server.url}/vendor/agentos/sandbox.html`);
  const read = await page.evaluate(async () => {
    const call = (globalThis as unknown as { agentos: { call: Call } }).agentos.call;
    await call('start', [{ persist: 'notes' }]);
    const r = await call('exec', ['cat ~/secret', {}]);
    await call('stop', []);
    return r as { ok: boolean; value: { stdout: string; exitCode: number } };
  });
  expect(read.ok).toBe(true);
  expect([atob(read.value.stdout), read.value.exitCode]).toEqual(['', 1]);
});


test('a persistent VM in a frame the browser refuses storage fails with why (it waited forever, and threw in the page)', async ({ page }) => {
  // Chromium refuses Web Locks (and storage) to a third-party frame in a fresh context.
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const { site } = await serve((sb) => `<agentos-terminal id="p" autostart persist="notes" sandbox-origin="${sb}"></agentos-terminal>`);
  await page.goto(`${site}/site/page.html`);
  await expect.poll(() => page.evaluate(() => window.__siteEvents.find((e) => e.id === 'p')), { timeout: 30_000 })
    .toMatchObject({ type: 'error', message: expect.stringMatching(/^agentOS: cannot lock the VM '.*notes': The request was denied\.$/) });
  expect(errors).toEqual([]);
});

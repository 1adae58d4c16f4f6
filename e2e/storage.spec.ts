// Storage that survives (issue 21): a persistent VM asks the browser to keep
// its storage and says whether it was granted, and its files outlive the
// browser itself — Chromium launched on a profile directory, closed entirely,
// launched again on it. The check is e2e/storage-restart.ts, which other
// engines' drivers run with a launcher of their own.

import { chromium, expect, test } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentosTerminalElement } from '../src/ui/component/agentos-terminal.js';
import { serveStatic } from '../src/host/playwright/static-server.js';
import { filesSurviveRestart, type LaunchWithProfile } from './storage-restart.js';

const DIST = fileURLToPath(new URL('../dist/web/', import.meta.url));

const launchChromium: LaunchWithProfile = async (profileDir) => {
  const opts = test.info().project.use.launchOptions ?? {};
  const context = await chromium.launchPersistentContext(profileDir, { ...opts, headless: true });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    goto: async (url) => void (await page.goto(url)),
    evaluate: (expression) => page.evaluate(expression),
    close: () => context.close(), // a persistent context's close ends its browser
  };
};

test('a persistent VM asks to keep its storage, says the answer, and its files survive a browser restart', async ({ baseURL }) => {
  const profile = await mkdtemp(join(tmpdir(), 'agentos-profile-'));
  try {
    const r = await filesSurviveRestart(launchChromium, `${baseURL}/`, profile, `restart-${Date.now()}`);
    expect(r.written).toContain('./dir/text');
    expect(r.written).toContain('dir/text 750 18');
    expect(r.written).toContain('bytes 644 65536');
    expect(r.written).not.toContain('gone');
    expect(r.written).toMatch(/exit 0$/);
    expect(r.readBack).toBe(r.written);
    // Whether Chromium grants it depends on its heuristics (site engagement); that it answered, and the page says so, does not.
    expect(r.persisted.map((p) => typeof p)).toEqual(['boolean', 'boolean']);
    expect(r.shown).toBe(r.persisted[1] ? 'kept by the browser' : 'not kept: the browser may evict it');
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
});

test('<agentos-terminal persist>: the persisted property and event carry the answer; an ephemeral one asks nothing', async ({ page }) => {
  const name = `comp-${Date.now()}`;
  const body = `<script>window.__persisted = []; document.addEventListener('persisted', (e) => __persisted.push([e.target.id, e.detail.persisted]));</script>
    <agentos-terminal id="p" autostart persist="${name}"></agentos-terminal><agentos-terminal id="e" autostart></agentos-terminal>
    <script type="module" src="/vendor/agentos/agentos-terminal.js"></script>`;
  const server = await serveStatic({ root: DIST, prefix: '/vendor/agentos/', isolate: true, pages: { '/site/page.html': `<!doctype html><body>${body}</body>` } });
  try {
    await page.goto(`${server.url}/site/page.html`);
    await page.waitForFunction(() => (window as unknown as { __persisted: unknown[] }).__persisted.length > 0, null, { timeout: 30_000 });
    const r = await page.evaluate(async () => {
      const [p, e] = ['#p', '#e'].map((id) => document.querySelector<AgentosTerminalElement>(id)!);
      await e.vm.ready;
      return { events: (window as unknown as { __persisted: unknown[] }).__persisted, p: p.persisted, e: e.persisted, browser: await navigator.storage.persisted() };
    });
    expect(r.events).toEqual([['p', r.browser]]);
    expect(r.p).toBe(r.browser);
    expect(r.e).toBeNull();
  } finally {
    await server.close();
  }
});

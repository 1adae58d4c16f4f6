// EnginePage in Firefox (Debian's firefox-esr) over WebDriver BiDi through
// puppeteer-core: one browser shared per launch choice, one user context
// (own cookies and storage) per page.

import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { ENGINE_DEFAULTS, within, type EngineOptions, type EnginePage } from './engine-page.js';
import { SharedPool, type Lease } from './shared.js';

const browsers = new SharedPool<Browser>((b) => b.close());

async function loadPuppeteer(): Promise<typeof import('puppeteer-core').default> {
  try {
    return (await import('puppeteer-core')).default;
  } catch (e) {
    throw new Error(`BrowserVM: Firefox needs the puppeteer-core package: ${(e as Error).message}`);
  }
}

export function firefoxPath(o: EngineOptions): string {
  const path = o.executablePath ?? ENGINE_DEFAULTS.firefox.path;
  if (!existsSync(path)) throw new Error(`BrowserVM: no Firefox at ${path} (install Debian's ${ENGINE_DEFAULTS.firefox.pkg}, or name the executable)`);
  return path;
}

async function launch(o: EngineOptions): Promise<Browser> {
  const puppeteer = await loadPuppeteer();
  if (o.endpoint !== undefined) return puppeteer.connect({ browserWSEndpoint: o.endpoint, protocol: 'webDriverBiDi', protocolTimeout: 0 });
  return within(
    // protocolTimeout 0: a call may run as long as its exec does (BrowserVM's callers bound it).
    puppeteer.launch({ browser: 'firefox', executablePath: firefoxPath(o), headless: o.headless ?? true, userDataDir: o.userDataDir, protocolTimeout: 0 }),
    90_000,
    'BrowserVM: Firefox did not start',
  );
}

export async function openFirefoxPage(o: EngineOptions): Promise<EnginePage> {
  let lease: Lease<Browser>;
  if (o.userDataDir !== undefined) {
    const own = await launch(o);
    lease = { value: own, release: () => own.close() };
  } else {
    lease = await browsers.acquire(o.endpoint !== undefined ? `ws:${o.endpoint}` : `exe:${firefoxPath(o)}:${o.headless ?? true}`, () => launch(o));
  }
  const browser = lease.value;
  let context: BrowserContext | null = null;
  let page: Page;
  try {
    // A profile of its own keeps the default context: that is where the profile's storage lives.
    if (o.userDataDir === undefined) context = await browser.createBrowserContext();
    page = await (context ?? browser.defaultBrowserContext()).newPage();
  } catch (e) {
    await lease.release();
    throw e;
  }
  const version = await browser.version();
  let closing = false;
  return {
    engine: 'firefox',
    version,
    async goto(url, timeoutMs = 60_000) {
      await page.goto(url, { timeout: timeoutMs, waitUntil: 'load' });
    },
    evaluate: <T>(fn: string, arg?: unknown) => page.evaluate(`(${fn})(${JSON.stringify(arg ?? null)})`) as Promise<T>,
    onLost(listener) {
      page.on('close', () => closing || listener('the page was closed'));
      browser.on('disconnected', () => closing || listener('the browser exited'));
    },
    async close() {
      closing = true;
      await (context ? context.close() : page.close()).catch(() => {});
      await lease.release();
    },
  };
}

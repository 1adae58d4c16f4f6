// EnginePage in Chromium through Playwright (one BrowserContext per page, the
// browser shared as BrowserVM shares it).

import type { BrowserContext } from 'playwright-core';
import { acquireBrowser, chromiumPath, CHROMIUM_ARGS, loadPlaywright } from './browsers.js';
import type { EngineOptions, EnginePage } from './engine-page.js';

export async function openChromiumPage(o: EngineOptions): Promise<EnginePage> {
  const choice = { chromium: o.executablePath, wsEndpoint: o.endpoint, headless: o.headless };
  let context: BrowserContext;
  let release = async () => {};
  if (o.userDataDir !== undefined) {
    const { chromium } = await loadPlaywright();
    context = await chromium.launchPersistentContext(o.userDataDir, { executablePath: chromiumPath(choice), headless: o.headless ?? true, args: CHROMIUM_ARGS });
  } else {
    const lease = await acquireBrowser(choice);
    release = lease.release;
    context = await lease.value.newContext();
  }
  const page = context.pages()[0] ?? (await context.newPage());
  const version = context.browser()?.version() ?? 'chromium';
  let closing = false;
  return {
    engine: 'chromium',
    version,
    async goto(url, timeoutMs = 60_000) {
      await page.goto(url, { timeout: timeoutMs });
    },
    evaluate: <T>(fn: string, arg?: unknown) => page.evaluate(([f, a]) => (0, eval)(`(${f})`)(a), [fn, arg] as const) as Promise<T>,
    onLost(listener) {
      page.on('crash', () => listener('the page crashed'));
      page.on('close', () => closing || listener('the page was closed'));
    },
    async close() {
      closing = true;
      await context.close().catch(() => {});
      await release();
    },
  };
}

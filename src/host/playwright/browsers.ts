// One Chromium for many BrowserVMs (each gets its own BrowserContext): launched
// on first use, closed when the last BrowserVM using it stops. playwright-core
// is loaded only here, and only when a BrowserVM starts.

import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { SharedPool, type Lease } from './shared.js';

/** Debian's Chromium; Playwright's own browser is used when it is absent. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** Headless in containers: no sandbox (no user namespaces), no GPU, nothing phoning home. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

export interface BrowserChoice {
  /** Chromium executable; default /usr/bin/chromium if present, else Playwright's own download. */
  chromium?: string;
  /** Connect instead of launching: a Playwright browser server (`chromium.launchServer`, a grid), or with `browser: 'firefox'` a Firefox started with --marionette (host:port). */
  wsEndpoint?: string;
  /** Default true. */
  headless?: boolean;
}

const browsers = new SharedPool<Browser>((b) => b.close());

export async function loadPlaywright(): Promise<typeof import('playwright-core')> {
  try {
    return await import('playwright-core');
  } catch (e) {
    throw new Error(`BrowserVM needs the playwright-core package: ${(e as Error).message}`);
  }
}

/** The executable to launch, checked, or undefined for Playwright's own. */
export function chromiumPath(c: BrowserChoice): string | undefined {
  if (c.chromium !== undefined) {
    if (!existsSync(c.chromium)) throw new Error(`BrowserVM: no Chromium at ${c.chromium} (the chromium option names the executable)`);
    return c.chromium;
  }
  return existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined;
}

/** A shared browser: the same choice gets the same Browser until every lease is released. */
export async function acquireBrowser(c: BrowserChoice): Promise<Lease<Browser>> {
  if (c.wsEndpoint !== undefined) {
    const ws = c.wsEndpoint;
    return browsers.acquire(`ws:${ws}`, async () => (await loadPlaywright()).chromium.connect(ws));
  }
  const executablePath = chromiumPath(c);
  const headless = c.headless ?? true;
  return browsers.acquire(`exe:${executablePath ?? ''}:${headless}`, async () =>
    (await loadPlaywright()).chromium.launch({ executablePath, headless, args: CHROMIUM_ARGS }));
}

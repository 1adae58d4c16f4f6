// One page in a browser engine, as BrowserVM and the engine test harness need
// it: load a URL, run a function in the page and await its JSON result, close.
// Chromium through Playwright; Firefox over Marionette, the WebDriver classic
// protocol stock Firefox speaks itself (Playwright needs its patched builds);
// WebKitGTK over W3C WebDriver classic (WebKitWebDriver, our small client).

export type Engine = 'chromium' | 'firefox' | 'webkit';
export const ENGINES: readonly Engine[] = ['chromium', 'firefox', 'webkit'];

export interface EnginePage {
  readonly engine: Engine;
  /** The browser's own version string. */
  readonly version: string;
  /** The Firefox this page launched, if it did: the crash tests kill its processes. */
  readonly pid?: number;
  /** Navigate and wait for the load event. */
  goto(url: string, timeoutMs?: number): Promise<void>;
  /** `(fn)(arg)` in the page (fn is a function's source), its promise awaited; arg and result are JSON. */
  evaluate<T>(fn: string, arg?: unknown): Promise<T>;
  /** Firefox: a new tab in the same browser (same storage) becomes this page, e.g. after the old tab's process crashed. */
  newTab?(): Promise<void>;
  /** Called once when the page is gone (closed, crashed, browser exited). */
  onLost(listener: (why: string) => void): void;
  close(): Promise<void>;
}

export interface EngineOptions {
  /** The engine's executable (Chromium, Firefox) or WebKitWebDriver; default Debian's. */
  executablePath?: string;
  /** A running browser or driver: Playwright/CDP ws URL (Chromium), Marionette host:port (Firefox), WebDriver URL (WebKit). */
  endpoint?: string;
  /** A profile directory of this page's own (a browser of its own, not shared). */
  userDataDir?: string;
  /** Default true. */
  headless?: boolean;
}

/** Open a fresh page (its own storage) in `engine`; the browser is shared with other pages of the same options. */
export async function openEnginePage(engine: Engine, o: EngineOptions = {}): Promise<EnginePage> {
  switch (engine) {
    case 'chromium':
      return (await import('./engine-chromium.js')).openChromiumPage(o);
    case 'firefox':
      return (await import('./engine-firefox.js')).openFirefoxPage(o);
    case 'webkit':
      return (await import('./engine-webkit.js')).openWebKitPage(o);
    default:
      throw new Error(`BrowserVM: unknown browser '${String(engine)}' (chromium, firefox or webkit)`);
  }
}

/** Each engine's executable on Debian, and the package that ships it. */
export const ENGINE_DEFAULTS: Record<Engine, { path: string; pkg: string }> = {
  chromium: { path: '/usr/bin/chromium', pkg: 'chromium' },
  firefox: { path: '/usr/bin/firefox-esr', pkg: 'firefox-esr' },
  webkit: { path: '/usr/bin/WebKitWebDriver', pkg: 'webkit2gtk-driver' },
};

/** Rejects after `ms` with a plain message: a driver that stops answering must not hang its caller. */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what}: no answer within ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

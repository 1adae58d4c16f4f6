// EnginePage in WebKitGTK: WebKitWebDriver (Debian's webkit2gtk-driver)
// launches MiniBrowser in automation mode. A driver holds one session, so
// each page has a driver (and browser) of its own.
// WebKitGTK has no headless mode: without a DISPLAY the driver runs under
// xvfb-run. SharedArrayBuffer is off in WebKitGTK unless JavaScriptCore's
// useSharedArrayBuffer option is set (cross-origin isolation alone does not
// turn it on); the Storage API (navigator.storage) is a feature flag.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { ENGINE_DEFAULTS, type EngineOptions, type EnginePage } from './engine-page.js';
import { WebDriverSession } from './webdriver-client.js';

interface Driver {
  url: string;
  close(): Promise<void>;
}

/** MiniBrowser's switches: automation mode (the driver's default, replaced when args are given) and the Storage API. */
export const MINIBROWSER_ARGS = ['--automation', '--features=+StorageAPI,+StorageAPIEstimate'];

/**
 * Why nothing outlives a WebKit browser under automation (decision 0066): MiniBrowser's
 * --automation takes an ephemeral data manager and has no data-directory switch; without it
 * MiniBrowser keeps a profile but refuses automation; Debian's other WebKitGTK browser,
 * epiphany, refuses --automation-mode with --profile.
 */
export const WEBKIT_NO_PROFILE = 'no WebKitGTK browser Debian ships keeps a profile on disk under automation (MiniBrowser --automation is ephemeral; epiphany refuses --automation-mode with --profile)';

export function webkitDriverPath(o: EngineOptions): string {
  const path = o.executablePath ?? ENGINE_DEFAULTS.webkit.path;
  if (!existsSync(path)) throw new Error(`BrowserVM: no WebKitWebDriver at ${path} (install Debian's ${ENGINE_DEFAULTS.webkit.pkg}, and xvfb without a display)`);
  return path;
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer().once('error', fail).listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

async function startDriver(exe: string): Promise<Driver> {
  const port = await freePort();
  const argv = [exe, `--port=${port}`, '--host=127.0.0.1'];
  const headless = !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
  if (headless && !existsSync('/usr/bin/xvfb-run')) throw new Error('BrowserVM: WebKitGTK needs a display: install Debian\'s xvfb (xvfb-run) or set DISPLAY');
  const [cmd, ...args] = headless ? ['/usr/bin/xvfb-run', '-a', ...argv] : argv;
  const child: ChildProcess = spawn(cmd, args, {
    stdio: 'ignore',
    detached: true, // its own process group: close() ends Xvfb, the driver and its browsers together
    env: { ...process.env, JSC_useSharedArrayBuffer: '1' },
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, fail) => child.once('exit', (c) => fail(new Error(`BrowserVM: WebKitWebDriver exited (${c}) before it listened`))));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ready = await Promise.race([fetch(`${url}/status`).then((r) => r.ok, () => false), exited]).catch((e: Error) => e);
    if (ready === true) break;
    if (ready instanceof Error || Date.now() > deadline) {
      kill(child);
      throw ready instanceof Error ? ready : new Error('BrowserVM: WebKitWebDriver did not listen within 30 s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.unref();
  return { url, close: async () => kill(child) };
}

function kill(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    /* already gone */
  }
}

export async function openWebKitPage(o: EngineOptions): Promise<EnginePage> {
  if (o.userDataDir !== undefined) throw new Error(`BrowserVM: userDataDir is not supported in WebKit: ${WEBKIT_NO_PROFILE}`);
  const driver: Driver = o.endpoint !== undefined ? { url: o.endpoint.replace(/\/$/, ''), close: async () => {} } : await startDriver(webkitDriverPath(o));
  const lease = { value: driver, release: () => driver.close() };
  let session: WebDriverSession;
  try {
    session = await WebDriverSession.create(lease.value.url, { 'webkitgtk:browserOptions': { args: MINIBROWSER_ARGS } });
    // Calls may run long (an exec with no timeout); the caller bounds them.
    await session.send('POST', '/timeouts', { script: null, pageLoad: 120_000 });
  } catch (e) {
    await lease.release();
    throw e;
  }
  const version = String(session.capabilities.browserVersion ?? 'webkitgtk');
  const lost: ((why: string) => void)[] = [];
  let gone = false;
  let closing = false;
  const fail = (e: Error): never => {
    // An unknown session or a refused connection: the browser is gone.
    if (!closing && !gone && /invalid session id|ECONNREFUSED|fetch failed/.test(e.message)) {
      gone = true;
      for (const l of lost) l('the browser exited');
    }
    throw e;
  };
  return {
    engine: 'webkit',
    version,
    async goto(url, timeoutMs = 60_000) {
      await session.send('POST', '/url', { url }, timeoutMs).catch(fail);
    },
    async evaluate<T>(fn: string, arg?: unknown) {
      const r = (await session
        .executeAsync(
          'const [f, a, done] = arguments; Promise.resolve().then(() => (0, eval)("(" + f + ")")(a)).then((v) => done({ ok: true, v: v === undefined ? null : v }), (e) => done({ ok: false, m: String(e && e.message || e) }));',
          [fn, arg ?? null],
          0,
        )
        .catch(fail)) as { ok: boolean; v?: T; m?: string };
      if (!r.ok) throw new Error(r.m);
      return r.v as T;
    },
    onLost(listener) {
      lost.push(listener);
    },
    async close() {
      closing = true;
      await session.delete().catch(() => {});
      await lease.release();
    },
  };
}

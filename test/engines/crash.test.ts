// A persistent VM's files survive a crash: the tab's content process killed
// (SIGKILL) right after a write the VM reported durable, then the page loaded
// again in the same browser; and in Firefox the whole browser killed and
// relaunched on its profile. Chromium's crash check is e2e/persist.spec.ts
// (Page.crash over CDP, mid-workload). Processes are found among the
// descendants of the browser this test launched (EnginePage.pid), never by
// name across the machine.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createServer } from 'node:net';
import { DEFAULT_APP_DIR, openEnginePage, serveApp, within, type EnginePage } from '../../src/host/playwright/index.js';
import { WEBKIT_NO_PROFILE } from '../../src/host/playwright/engine-webkit.js';
import { ENGINE, skipped, waitFor } from './engine.js';
import { alive, descendants } from './processes.js';
import { launchTargetBrowser } from './webkit-target.js';

const freePort = () => new Promise<number>((ok) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address() as { port: number };
    s.close(() => ok(port));
  });
});

/** The processes that run the tab's page: Firefox's isolated web content process (the page is COOP/COEP), WebKit's web processes. */
const CONTENT: Partial<Record<typeof ENGINE, RegExp>> = { firefox: /^Isolated Web Co$/, webkit: /^WebKitWebProces$/ };

const skip = skipped() || (CONTENT[ENGINE] === undefined && 'Chromium\'s crash check is e2e/persist.spec.ts (Page.crash over CDP)');

/** Calls into sandbox.html's API, each bounded: a hang fails naming the step. */
function sandbox(page: EnginePage, what: string) {
  const step = <T>(s: string, p: Promise<T>) => within(p, 60_000, `${ENGINE}: ${what}: ${s}`);
  const ok = async (m: string, a: unknown[]) => {
    const r = await step(m, page.evaluate<{ ok: boolean; value?: unknown; message?: string }>('({ m, a }) => globalThis.agentos.call(m, a)', { m, a }));
    assert.ok(r.ok, `${m}: ${r.message}`);
    return r.value;
  };
  return {
    step,
    ok,
    /**
     * Load the page and start the persistent VM `name` in it. Right after a
     * crash WebKit may fail the first navigations while it starts a new web
     * process ("unknown error"), as a user's reload would be retried.
     */
    async boot(url: string, name: string, loads = 1) {
      for (let i = 1; ; i++) {
        try {
          await step('load', page.goto(url));
          break;
        } catch (e) {
          if (i >= loads) throw e;
          await new Promise((r) => setTimeout(r, 1000));
        }
      }
      assert.ok(await step('page script', waitFor(page, 'globalThis.agentos')), `${what}: the page's API never appeared`);
      await ok('start', [{ persist: name }]);
    },
    /** Write through both paths (the API and a program), then wait until the VM reports the layer durable. */
    async write() {
      await ok('writeFile', ['/home/user/crash.bin', btoa(String.fromCharCode(...BYTES)), null]);
      await ok('exec', ['echo survived > /home/user/crash.txt', {}]);
      await ok('sync', []);
    },
    /** The files are whole and the VM runs programs (its layer was not left half-written). */
    async check() {
      assert.equal(String(await ok('readFile', ['/home/user/crash.bin'])), btoa(String.fromCharCode(...BYTES)));
      assert.equal(atob(String(await ok('readFile', ['/home/user/crash.txt']))), 'survived\n');
      const r = (await ok('exec', ['cat /home/user/crash.txt && wc -c < /home/user/crash.bin && ls /bin/sh', {}])) as { stdout: string; exitCode: number };
      assert.equal(atob(r.stdout), 'survived\n256\n/bin/sh\n');
      assert.equal(r.exitCode, 0);
    },
  };
}

const BYTES = Array.from({ length: 256 }, (_, i) => i);

/** SIGKILL `pids` and wait (bounded) until they are gone. */
async function killAll(pids: number[], what: string): Promise<void> {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  const deadline = Date.now() + 10_000;
  while (pids.some(alive)) {
    if (Date.now() > deadline) throw new Error(`${ENGINE}: ${what} still alive 10 s after SIGKILL`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A browser of this engine whose processes this test owns, and the page it shows (replaced after a crash in WebKit). */
async function launch(): Promise<{ pid: number; page: EnginePage; reopen(): Promise<EnginePage>; close(): Promise<void> }> {
  if (ENGINE === 'webkit') {
    const browser = await launchTargetBrowser();
    try {
      let page = await browser.open();
      return {
        pid: browser.pid,
        get page() {
          return page;
        },
        // The crash ended the WebDriver session, not the browser: a new session in the same MiniBrowser.
        async reopen() {
          await page.close();
          page = await browser.open();
          return page;
        },
        async close() {
          await page.close();
          browser.close();
        },
      };
    } catch (e) {
      browser.close();
      throw e;
    }
  }
  const page = await openEnginePage(ENGINE);
  assert.ok(page.pid, 'the engine page reports the browser it launched');
  // A new tab, as Chromium's check opens a new page: navigating the crashed tab itself now and then got no answer.
  const reopen = async () => {
    await page.newTab!();
    return page;
  };
  return { pid: page.pid, page, reopen, close: () => page.close() };
}

test(`${ENGINE}: persistence: a persistent VM's files survive a crash of the tab (its content process killed)`, { skip, timeout: 120_000 }, async () => {
  const app = await serveApp();
  const browser = await launch();
  try {
    const url = new URL('sandbox.html', app.value).href;
    const name = `crash-${Date.now()}`;
    const before = sandbox(browser.page, 'tab crash');
    await before.boot(url, name);
    await before.write();
    const content = descendants(browser.pid).filter((p) => CONTENT[ENGINE]!.test(p.comm));
    if (ENGINE === 'firefox') assert.equal(content.length, 1, `one isolated content process, the tab's: ${JSON.stringify(content)}`);
    assert.ok(content.length > 0, 'the tab\'s content process is found');
    await killAll(content.map((p) => p.pid), 'the content process');
    // The same browser loads the page again (a new content process) and opens the same VM.
    const after = sandbox(await within(browser.reopen(), 60_000, `${ENGINE}: a page after the crash`), 'after the tab crash');
    await after.boot(url, name, 3);
    await after.check();
  } finally {
    await browser.close();
    await app.release();
  }
});

test(`${ENGINE}: persistence: a persistent VM's files survive the whole browser killed and relaunched on its profile`, {
  skip: skip || (ENGINE === 'webkit' && WEBKIT_NO_PROFILE),
  timeout: 150_000,
}, async () => {
  const profile = mkdtempSync(join(tmpdir(), `agentos-${ENGINE}-crash-`));
  const app = await serveApp(DEFAULT_APP_DIR, await freePort()); // storage is per origin: one port for both browsers
  try {
    const url = new URL('sandbox.html', app.value).href;
    const name = `kill-${Date.now()}`;
    const first = await openEnginePage(ENGINE, { userDataDir: profile });
    try {
      const vm = sandbox(first, 'browser kill');
      await vm.boot(url, name);
      await vm.write();
      assert.ok(first.pid, 'the engine page reports the browser it launched');
      const all = [first.pid, ...descendants(first.pid).map((p) => p.pid)];
      process.kill(-first.pid, 'SIGKILL'); // Firefox runs in a process group of its own
      await killAll(all, 'the browser');
    } finally {
      await first.close();
    }
    const second = await openEnginePage(ENGINE, { userDataDir: profile });
    try {
      const vm = sandbox(second, 'after the browser kill');
      await vm.boot(url, name);
      await vm.check();
    } finally {
      await second.close();
    }
  } finally {
    await app.release();
    rmSync(profile, { recursive: true, force: true });
  }
});

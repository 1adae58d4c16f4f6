// The WebAssembly runtime's cases in a real browser (Debian's Chromium): each
// boots a kernel in a Web Worker with the WASI programs installed. The ruby
// and cc cases install their package (30 and 105 MB, served from dist/) first.

import { expect, test, type Page, type Worker } from '@playwright/test';
import { runCaseInPage } from './run-case.js';
import { wasmCases } from '../test/runtimes/wasm/cases.js';
import { clangCases } from '../test/runtimes/wasm/clang-cases.js';
import { rubyCases } from '../test/runtimes/wasm/ruby-cases.js';

test.describe.configure({ mode: 'parallel' });

for (const c of wasmCases) {
  test(`${c.name} (browser)`, ({ page }) => runCaseInPage(page, c.name));
}

// Wasmer's workers for a WASIX program (decision 0021): what program code in
// one can reach, tried from inside a live one; the stand-in's refusals; and
// no Worker in the pool's process workers afterwards.
const WASMER_ESCAPES: Record<string, string> = {
  fetchOtherOrigin: "return await fetch('https://example.com/vendor/wasmer-sdk/x').then((r) => r.status)",
  fetchSameOriginOther: "return await fetch('/image/manifest.json').then((r) => r.status)",
  fetchAssetPost: "return await fetch('/vendor/wasmer-sdk/dist/index.js', { method: 'POST' }).then((r) => r.status)",
  fetchViaProto: "return await Object.getPrototypeOf(Object.getPrototypeOf(globalThis)).fetch.call(globalThis, '/')",
  xhr: "const x = new XMLHttpRequest(); x.open('GET', '/', false); x.send(); return x.status",
  websocket: "return new WebSocket('ws://127.0.0.1:9/')",
  eventsource: "return new EventSource('/')",
  indexedDB: "return indexedDB.open('agentos-steal')",
  caches: "return await caches.keys()",
  opfs: "return await navigator.storage.getDirectory()",
  locks: "return await navigator.locks.request('agentos-vm:x', () => 1)",
  broadcast: "return new BroadcastChannel('agentos').postMessage('x') ?? 'posted'",
  sharedWorker: "return new SharedWorker('/x.js')",
  workerOtherOrigin: "return new Worker('https://example.com/x.js', { type: 'module' })",
  workerBlob: "return new Worker(URL.createObjectURL(new Blob(['1'])))",
  workerData: "return new Worker('data:text/javascript,1')",
  workerProtoCtor: "return new (Object.getPrototypeOf(new Worker('/vendor/wasmer-sdk/dist/browser-worker.js', { type: 'module' })).constructor)('/x.js')",
};

async function harness(page: Page): Promise<void> {
  await page.goto('/e2e/harness/');
  await page.waitForFunction(() => window.__agentos !== undefined);
}

/** Each escape tried by code evaluated inside `w`: all must be blocked. */
async function probe(w: Worker): Promise<void> {
  for (const [name, body] of Object.entries(WASMER_ESCAPES)) {
    const r = await w.evaluate(async (b) => {
      try {
        const v: unknown = await (new Function(`return (async () => { ${b} })()`) as () => Promise<unknown>)();
        return `ESCAPED ${String(v).slice(0, 40)}`;
      } catch {
        return 'blocked';
      }
    }, body);
    expect(r, name).toBe('blocked');
  }
  // Its own assets still load (the SDK's module); the Worker it has is the stand-in, also as its prototype's constructor.
  expect(await w.evaluate(() => fetch('/vendor/wasmer-sdk/pkg/wasmer_sdk_js.js').then((r) => r.status))).toBe(200);
  expect(await w.evaluate(() => typeof Worker === 'function' && Worker.prototype.constructor === Worker)).toBe(true);
}

const WASMER_WORKER = /\/wasmer\.browser-[^/]*\.js$/;

test('wasm: a WASIX program\'s Wasmer workers start through the stand-in and end with it; the pool gets no Worker (browser)', async ({ page }) => {
  await harness(page);
  const started = await page.evaluate(() => window.__agentos.wasixHold());
  expect(started).toMatch(/thread_id: errno 0/);
  // Nested in the process worker, from our bootstrap (the one running the program is parked on stdin, so not probed here).
  expect(page.workers().filter((w) => WASMER_WORKER.test(w.url())).length).toBeGreaterThan(0);
  const r = await page.evaluate(() => window.__agentos.wasixRelease());
  expect(r.killed & 0x7f, 'killed by SIGKILL').toBe(9);
  expect(r.ran).toBe('thread_id: errno 0, tid 1, cwd /workspace\npiped\nstatus 7\n');
  expect(r.after).toEqual(Array(6).fill('undefined\n'));
  await expect.poll(() => page.workers().filter((w) => WASMER_WORKER.test(w.url())).length, 'Wasmer workers end with their process').toBe(0);
});

test('wasm: the Wasmer stand-in starts only the SDK\'s own worker, confined: no network, storage or other workers from inside (browser)', async ({ page }) => {
  await harness(page);
  const r = await page.evaluate(() => window.__agentos.wasmerShim());
  for (const [name, v] of Object.entries(r.refused)) expect(v, name).toBe('SecurityError');
  expect(r.foreignInit).toMatch(/^error: .*refusing to load a module other than the SDK's own/);
  const started = page.workers().filter((w) => WASMER_WORKER.test(w.url()));
  expect(started.length).toBe(1);
  await probe(started[0]);
});

// Each installs its package into a fresh VM: the first, the script and the confinement cases are enough here.
for (const c of [rubyCases[0], rubyCases[2], rubyCases[6]]) {
  test(`${c.name} (browser)`, ({ page }) => runCaseInPage(page, c.name));
}

for (const c of clangCases) {
  test(`${c.name} (browser)`, async ({ page }) => {
    test.setTimeout(300_000);
    await runCaseInPage(page, c.name);
  });
}

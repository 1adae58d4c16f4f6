// The playground in Chromium (issue 8): page load to an interactive prompt
// with a warm cache and with an empty one over a throttled link (issue 18),
// and keystroke to echo through xterm.js, the TTY and back.

import { createServer, request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Browser, Page } from '@playwright/test';
import type { Figure } from './run.js';

interface XtermLike {
  buffer: { active: { baseY: number; cursorY: number; getLine(i: number): { translateToString(trim: boolean): string } | undefined } };
  input(data: string, wasUserInput?: boolean): void;
  onWriteParsed(cb: () => void): { dispose(): void };
}
type PlaygroundWindow = Window & { __playground?: { view: { xterm: XtermLike } } };

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

/** Milliseconds from navigation start until the cursor sits after the first prompt. */
async function loadToPrompt(page: Page, url: string): Promise<number> {
  await page.goto(url);
  const h = await page.waitForFunction(() => {
    const t = (window as PlaygroundWindow).__playground?.view.xterm;
    if (!t) return false;
    const b = t.buffer.active;
    const line = b.getLine(b.baseY + b.cursorY)?.translateToString(true) ?? '';
    return /[$#] $/.test(line) ? performance.now() : false;
  }, null, { polling: 'raf', timeout: 30_000 });
  return (await h.jsonValue()) as number;
}

/** The link the cold load is measured over: 20 Mbit/s down, 5 up, 20 ms round trip. */
const LINK = { offline: false, latency: 20, downloadThroughput: 20e6 / 8, uploadThroughput: 5e6 / 8 };

export interface ColdLoad {
  /** Navigation start to the first prompt, ms. */
  ms: number;
  /** Bytes the server sent (status lines, headers, bodies as encoded) to the page and its workers by then. */
  bytes: number;
  /** The requests, by URL path, with their body bytes as sent: what the first prompt cost. */
  requests: { path: string; bytes: number }[];
}

/**
 * A proxy in front of the static server that counts what it sends back: the
 * bytes on the wire, the workers' requests included (which the page's CDP
 * session and Playwright's request sizes do not see in full).
 */
async function countingProxy(target: string): Promise<{ url: string; sent(): number; requests: ColdLoad['requests']; close(): Promise<void> }> {
  const to = new URL(target);
  const sockets = new Set<Socket>();
  const requests: ColdLoad['requests'] = [];
  const server = createServer((req, res) => {
    const entry = { path: (req.url ?? '/').replace(/\?.*/, ''), bytes: 0 };
    requests.push(entry);
    const up = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.on('data', (chunk: Buffer) => (entry.bytes += chunk.length));
      answer.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('connection', (s) => sockets.add(s));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sent: () => [...sockets].reduce((n, s) => n + s.bytesWritten, 0),
    requests,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((ok) => server.close(() => ok()));
    },
  };
}

/**
 * The playground in a fresh context (empty HTTP cache, Cache API and
 * IndexedDB), Chromium throttled by CDP to LINK, to the first prompt.
 */
export async function coldLoad(browser: Browser, base: string, path = '/?vm='): Promise<ColdLoad> {
  const proxy = await countingProxy(base);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', LINK);
    const ms = await loadToPrompt(page, proxy.url + path);
    return { ms, bytes: proxy.sent(), requests: [...proxy.requests] };
  } finally {
    await context.close();
    await proxy.close();
  }
}

export async function runPlaygroundBenches(page: Page, base: string): Promise<Figure[]> {
  const url = `${base}/?vm=`; // ephemeral: nothing to replay
  await loadToPrompt(page, url); // fills the HTTP and image caches
  const loads: number[] = [];
  for (let i = 0; i < 5; i++) loads.push(await loadToPrompt(page, url));
  // Keystrokes as xterm receives them from the keyboard; the time until the echo is parsed onto the screen.
  const echo = await page.evaluate(async (n) => {
    const t = (window as PlaygroundWindow).__playground!.view.xterm;
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await new Promise<void>((done) => {
        const sub = t.onWriteParsed(() => {
          sub.dispose();
          done();
        });
        t.input(String.fromCharCode(97 + (i % 26)), true);
      });
      times.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 5));
    }
    t.input('\x15', true); // ^U: clear the line
    return times;
  }, 200);
  const colds: ColdLoad[] = [];
  for (let i = 0; i < 3; i++) colds.push(await coldLoad(page.context().browser()!, base));
  colds.sort((a, b) => a.ms - b.ms);
  const cold = colds[1];
  const load = pct(loads, 50);
  const p95 = pct(echo, 95);
  return [
    {
      name: 'playground load to interactive prompt, warm cache (p50 of 5)',
      host: 'browser', value: load, unit: 'ms', goal: '≤ 300 ms', met: load <= 300, baseline: null,
    },
    {
      name: 'playground load to interactive prompt, empty cache at 20 Mbit/s (p50 of 3)',
      host: 'browser', value: cold.ms, unit: 'ms', goal: '≤ 1500 ms', met: cold.ms <= 1500,
      baseline: { name: 'same, warm cache', value: load, unit: 'ms' },
    },
    {
      name: `bytes transferred to that first prompt (${cold.requests.length} requests, the page's and its workers')`,
      host: 'browser', value: cold.bytes / 1024, unit: 'KiB', goal: '—', met: null,
      baseline: { name: 'of which the base image', value: cold.requests.filter((r) => r.path.includes('/image/agentos-base-')).reduce((n, r) => n + r.bytes, 0) / 1024, unit: 'KiB' },
    },
    {
      name: 'keystroke to echo on screen, xterm.js ⇄ TTY (p95 of 200)',
      host: 'browser', value: p95, unit: 'ms', goal: '≤ 16 ms', met: p95 <= 16,
      baseline: { name: 'p50', value: pct(echo, 50), unit: 'ms' },
    },
  ];
}

// The VM policy and guest confinement in Chromium (issue 9, issue 6): a
// program in a process worker tries the browser's ways out (raw fetch,
// XHR, WebSocket, IndexedDB, Cache Storage, OPFS, BroadcastChannel, posting
// to the kernel, nested workers); read-only and hidden paths hold; every
// denial is in the audit trail and the VM still works.
// Run: npm run build && AGENTOS_E2E_PORT=4203 npx playwright test e2e/policy.spec.ts

import { expect, test, type Page } from '@playwright/test';

async function harness(page: Page): Promise<void> {
  await page.goto('/e2e/harness/');
  await page.waitForFunction(() => window.__agentos !== undefined);
}

const ESCAPES: Record<string, string> = {
  fetch: "return await fetch('/image/manifest.json').then((r) => r.status)",
  // fetch is kept for the runtimes' own static files only (same origin, GET, pyodide/ vendor/ pkg/).
  fetchOtherOrigin: "return await fetch('https://example.com/pyodide/x').then((r) => r.status)",
  fetchAssetPost: "return await fetch('/pyodide/pyodide-lock.json', { method: 'POST' }).then((r) => r.status)",
  fetchViaProto: "return await Object.getPrototypeOf(Object.getPrototypeOf(globalThis)).fetch.call(globalThis, '/')",
  xhr: "const x = new XMLHttpRequest(); x.open('GET', '/', false); x.send(); return x.status",
  websocket: "return new WebSocket('ws://127.0.0.1:9/')",
  eventsource: "return new EventSource('/')",
  importScripts: "importScripts('https://example.com/x.js'); return 1",
  indexedDB: "return indexedDB.open('agentos-steal')",
  caches: "return await caches.keys()",
  opfs: "return await navigator.storage.getDirectory()",
  broadcast: "return new BroadcastChannel('agentos').postMessage('x') ?? 'posted'",
  postMessage: "postMessage({ type: 'idle' }); return 'posted'",
  postViaProto: "DedicatedWorkerGlobalScope.prototype.postMessage.call(self, { type: 'idle' }); return 'posted'",
  listen: "self.addEventListener('message', () => {}); return 'listening'",
  listenViaProto: "EventTarget.prototype.addEventListener.call(self, 'message', () => {}); return 'listening'",
  nestedWorker: "return new Worker('/x.js')",
  locks: "return await navigator.locks.request('agentos-vm:x', () => 1)",
};

function program(name: string, body: string): string {
  return `#!/usr/libexec/agentos/js
try {
  const r = await (async () => { ${body} })();
  agentos.print('${name}: ESCAPED ' + String(r).slice(0, 40) + '\\n');
} catch (e) {
  agentos.print('${name}: blocked\\n');
}
`;
}

test('policy (browser): every escape from a process worker fails, and the VM still works', async ({ page }) => {
  await harness(page);
  const files = Object.fromEntries(Object.entries(ESCAPES).map(([n, b]) => [`/tmp/esc/${n}.js`, program(n, b)]));
  const cmds = [...Object.keys(ESCAPES).map((n) => `/tmp/esc/${n}.js`), 'echo still | tr a-z A-Z'];
  const r = await page.evaluate(([f, c]) => window.__agentos.policyRun({}, f, c), [files, cmds] as const);
  Object.keys(ESCAPES).forEach((n, i) => expect(r.results[i].stdout, n).toBe(`${n}: blocked\n`));
  expect(r.results[r.results.length - 1].stdout).toBe('STILL\n');
});

test('policy (browser): read-only and hidden paths hold through .., symlinks and /proc', async ({ page }) => {
  await harness(page);
  const policy = { fs: { readOnly: ['/srv/ro'], hidden: ['/srv/secret'] } };
  const files = { '/srv/ro/f': 'ro\n', '/srv/secret/token': 'TOPSECRET\n' };
  const cmds = [
    'echo x > /srv/ro/f', 'rm /srv/ro/f', 'mv /srv/ro/f /tmp/', 'touch /srv/ro/new',
    'cat /srv/secret/token', 'cat /srv/../srv/secret/token', 'ln -s /srv/secret /tmp/s; cat /tmp/s/token',
    'cat /proc/self/root/srv/secret/token', 'ls /srv',
    'cat /proc/agentos/audit | grep -c \'"decision":"deny"\'',
    'cat /srv/ro/f',
  ];
  const r = await page.evaluate(([p, f, c]) => window.__agentos.policyRun(p, f, c), [policy, files, cmds] as const);
  for (let i = 0; i < 4; i++) {
    expect(r.results[i].exitCode, cmds[i]).not.toBe(0);
    expect(r.results[i].stderr, cmds[i]).toMatch(/Read-only file system/);
  }
  for (let i = 4; i < 8; i++) {
    expect(r.results[i].exitCode, cmds[i]).not.toBe(0);
    expect(r.results[i].stdout, cmds[i]).not.toMatch(/TOPSECRET/);
  }
  expect(r.results[8].stdout).toBe('ro\n');
  expect(Number(r.results[9].stdout)).toBeGreaterThanOrEqual(8);
  expect(r.results[10].stdout).toBe('ro\n');
  expect(r.audit.some((e) => e.rule === 'fs.hidden')).toBe(true);
  expect(r.audit.some((e) => e.rule === 'fs.readOnly')).toBe(true);
});

test('policy (browser): a fork bomb ends with EAGAIN, a busy loop at the CPU limit, output is capped; the VM stays usable', async ({ page }) => {
  test.setTimeout(90_000);
  await harness(page);
  const policy = { processes: { maxProcesses: 10, cpuTimeMs: 1500, maxExecOutput: 1000 } };
  const files = { '/tmp/spin.js': '#!/usr/libexec/agentos/js\nfor (;;) {}\n' };
  const cmds = [
    { cmd: 'f(){ f|f& }; f; sleep 6', timeoutMs: 3000 },
    '/tmp/spin.js; echo "status $?"',
    'head -c 100000 /dev/zero | tr "\\0" x',
    'echo alive; ls /etc/hostname',
  ];
  const r = await page.evaluate(([p, f, c]) => window.__agentos.policyRun(p, f, c), [policy, files, cmds] as const);
  expect(r.results[0].timedOut).toBe(true);
  expect(r.audit.some((e) => e.rule === 'processes.maxProcesses')).toBe(true);
  expect(r.results[1].stdout).toBe('status 152\n');
  expect(r.results[2].truncated).toBe(true);
  expect(r.results[2].stdout.length).toBe(1000);
  expect(r.results[3].stdout).toBe('alive\n/etc/hostname\n');
});

// <agentos-terminal> policy attributes: `policy` (JSON) and `network` are
// enforced by the VM's kernel, a malformed policy stops the element from
// booting with an `error` event (never a looser VM), and a later change of
// either attribute is refused, not applied.

import { expect, test } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import type { AgentosTerminalElement } from '../src/ui/component/agentos-terminal.js';
import { serveStatic, type StaticServer } from '../src/host/playwright/static-server.js';

const DIST = fileURLToPath(new URL('../dist/web/', import.meta.url));

declare global {
  interface Window {
    __log: { type: string; id: string; message?: string }[];
  }
}

function hostPage(body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>host</title></head><body>
<script>
  window.__log = [];
  for (const type of ['ready', 'error'])
    document.addEventListener(type, (e) => window.__log.push({ type, id: e.target.id, message: e.detail?.error?.message }));
</script>
${body}
<script type="module" src="/vendor/agentos/agentos-terminal.js"></script>
</body></html>`;
}

let server: StaticServer | null = null;
test.afterEach(async () => {
  await server?.close();
  server = null;
});

test('policy and network attributes are enforced; a malformed policy refuses to boot; later changes are refused', async ({ page }) => {
  const policy = JSON.stringify({ fs: { readOnly: ['/etc'], hidden: ['/etc/hostname'] }, processes: { ask: ['/opt/agentos/bin/rm'] } });
  server = await serveStatic({
    root: DIST, prefix: '/vendor/agentos/', isolate: true, pages: {
      '/site/page.html': hostPage(`
        <agentos-terminal id="ok" autostart rows="8" cols="80" policy='${policy}' network="localhost:9"></agentos-terminal>
        <agentos-terminal id="misspelt" autostart rows="4" cols="40" policy='{"fs": {"readonly": ["/etc"]}}'></agentos-terminal>
        <agentos-terminal id="notjson" autostart rows="4" cols="40" policy="{fs: 1}"></agentos-terminal>
        <agentos-terminal id="net" autostart rows="4" cols="40" network="https://x.com/path"></agentos-terminal>`),
    },
  });
  await page.goto(`${server.url}/site/page.html`);
  await page.waitForFunction(() => window.__log.some((e) => e.type === 'ready' && e.id === 'ok'), undefined, { timeout: 30_000 });

  const r = await page.evaluate(async () => {
    const ok = document.querySelector<AgentosTerminalElement>('#ok')!;
    let asked = '';
    ok.onApproval = (req) => {
      asked = req.rule;
      return 'deny';
    };
    const write = await ok.vm.exec('echo x > /etc/agentos-test');
    const hidden = await ok.vm.exec('cat /etc/hostname');
    const net = await ok.vm.exec('curl -sS http://example.com/');
    const rm = await ok.vm.exec('touch /tmp/f; rm /tmp/f');
    // A later attribute change is refused; the VM keeps its policy.
    ok.setAttribute('policy', '{}');
    ok.setAttribute('network', 'all');
    const again = await ok.vm.exec('echo x > /etc/agentos-test');
    return { write: write.stderr, hidden: hidden.stderr, net: net.stderr, rm: rm.stderr, asked, again: again.stderr };
  });
  expect(r.write).toMatch(/Read-only file system/);
  expect(r.hidden).toMatch(/No such file or directory/);
  expect(r.net).toBe("curl: (7) network access to http://example.com denied by the VM's network policy (allowlist: localhost:9)\n");
  expect(r.asked).toBe('processes.ask:/opt/agentos/bin/rm');
  expect(r.rm).toMatch(/Permission denied|denied by the host/);
  expect(r.again).toMatch(/Read-only file system/);

  const log = await page.evaluate(() => window.__log);
  const errors = (id: string) => log.filter((e) => e.type === 'error' && e.id === id).map((e) => e.message);
  expect(errors('misspelt')).toEqual(['agentOS: invalid policy: policy: unknown key fs.readonly']);
  expect(errors('notjson')[0]).toMatch(/^agentOS: invalid policy: policy attribute is not JSON/);
  expect(errors('net')[0]).toMatch(/^agentOS: invalid policy: policy: network policy: 'https:\/\/x.com\/path' is not an origin/);
  expect(errors('ok')).toEqual([
    'agentOS: the policy attribute is read when the VM is created; this change is refused (re-create the element to apply it)',
    'agentOS: the network attribute is read when the VM is created; this change is refused (re-create the element to apply it)',
  ]);
  for (const id of ['misspelt', 'notjson', 'net']) expect(log.some((e) => e.type === 'ready' && e.id === id)).toBe(false);
  // The refused element says why, and its vm cannot be used.
  await expect(page.locator('#misspelt .notice')).toHaveText('agentOS: invalid policy: policy: unknown key fs.readonly');
  const used = await page.evaluate(() => {
    try {
      void document.querySelector<AgentosTerminalElement>('#misspelt')!.vm;
      return 'usable';
    } catch (e) {
      return (e as Error).message;
    }
  });
  expect(used).toBe('agentOS: invalid policy: policy: unknown key fs.readonly');
});

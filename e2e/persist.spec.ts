// Persistent VMs in Chromium: the writable layer in IndexedDB survives a
// reload, a crashed renderer (killed mid-workload through CDP) and a closed
// tab; two tabs never share a VM unless one takes it over.

import { expect, test, type Page } from '@playwright/test';

// The Node host as built (its workers sit beside the bundle in dist/node).
const nodeHost = '../dist/node/index.js';
const { AgentVM } = (await import(nodeHost)) as typeof import('../src/host/node/index.js');

async function harness(page: Page): Promise<void> {
  await page.goto('/e2e/harness/');
  await page.waitForFunction(() => window.__agentos !== undefined);
}

const unique = (what: string) => `${what}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

test('persist (browser): files, links, modes and deletions survive a reload', async ({ page }) => {
  const name = unique('reload');
  await harness(page);
  const first = await page.evaluate((n) => window.__agentos.persistRun(n, [
    'mkdir -p d/e && echo hello > d/e/f && ln -s d/e/f lnk && ln d/e/f hard && chmod 600 hard && printf "%s" "$(seq 5000)" > big',
    'rm -f .profile && ls -A && stat -c "%a %h" d/e/f && wc -c big',
  ]), name);
  expect(first.error).toBeUndefined();
  const before = first.results[1].stdout;
  await page.reload();
  await page.waitForFunction(() => window.__agentos !== undefined);
  const again = await page.evaluate((n) => window.__agentos.persistRun(n, ['ls -A && stat -c "%a %h" d/e/f && wc -c big', 'cat lnk']), name);
  expect(again.results[0].stdout).toBe(before);
  expect(again.results[1].stdout).toBe('hello\n');
  // Another name is another VM: it sees none of this.
  const other = await page.evaluate((n) => window.__agentos.persistRun(n, ['ls -A']), unique('other'));
  expect(other.results[0].stdout).toBe('.profile\n');
});

for (const how of ['crash', 'close'] as const) {
  test(`persist (browser): a ${how === 'crash' ? 'crashed renderer' : 'closed tab'} mid-workload loses no returned exec and tears no file`, async ({ context }) => {
    test.setTimeout(120_000);
    const name = unique(how);
    let lastDone = -1;
    for (let round = 0; round < 3; round++) {
      const page = await context.newPage();
      await harness(page);
      void page.evaluate((n) => window.__agentos.workload(n), name).catch(() => {});
      await page.waitForFunction((d) => (window.__done ?? -1) > d, lastDone, { timeout: 30_000 });
      await page.waitForTimeout(100 + Math.floor(Math.random() * 400));
      lastDone = await page.evaluate(() => window.__done);
      if (how === 'crash') {
        const crashed = page.waitForEvent('crash');
        const cdp = await context.newCDPSession(page);
        void cdp.send('Page.crash').catch(() => {}); // the renderer dies; the call never answers
        await crashed;
      } else {
        await page.close();
      }
      const check = await context.newPage();
      await harness(check);
      const r = await check.evaluate(([n, d]) => window.__agentos.checkWorkload(n as string, d as number), [name, lastDone] as const);
      expect(r.problems, `round ${round}`).toEqual([]);
      lastDone = r.last;
      await check.close();
    }
  });
}

test('persist (browser): a second tab is refused, or takes the VM over', async ({ context }) => {
  const name = unique('tabs');
  const a = await context.newPage();
  await harness(a);
  expect(await a.evaluate((n) => window.__agentos.persistHold(n), name)).toBe('ok');
  expect(await a.evaluate(() => window.__agentos.heldExec('echo one > f; cat f'))).toBe('one\n');
  const b = await context.newPage();
  await harness(b);
  expect(await b.evaluate((n) => window.__agentos.persistHold(n), name)).toMatch(/in use by another tab/);
  expect(await b.evaluate((n) => window.__agentos.persistHold(n, true), name)).toBe('ok');
  expect(await b.evaluate(() => window.__agentos.heldExec('cat f'))).toBe('one\n');
  // The first tab's VM was stopped by the takeover: it can no longer write.
  expect(await a.evaluate(() => window.__agentos.heldExec('echo two > f'))).toBe('no answer');
  expect(await b.evaluate(() => window.__agentos.heldExec('cat f'))).toBe('one\n');
});

test('persist (browser): snapshots move between Node and the browser in both directions', async ({ page }) => {
  const node = new AgentVM();
  await node.start();
  let file: Uint8Array;
  try {
    await node.exec('mkdir -p proj/src && seq 3 > proj/src/data && ln -s src/data proj/link && chmod 700 proj');
    await node.snapshot('s');
    file = await node.snapshots.export('s');
  } finally {
    await node.stop();
  }
  await harness(page);
  const r = await page.evaluate(
    ([n, f]) => window.__agentos.snapshotRoundTrip(n, f, 'cat proj/link; stat -c %a proj', 'echo from-browser > proj/src/new'),
    [unique('snap'), Buffer.from(file).toString('base64')] as const,
  );
  expect(r.checked).toBe('1\n2\n3\n700\n');
  const back = new AgentVM();
  await back.start();
  try {
    await back.snapshots.import('b', Buffer.from(r.exported, 'base64'));
    await back.restore('b');
    expect((await back.exec('cat proj/src/new proj/link')).stdout).toBe('from-browser\n1\n2\n3\n');
  } finally {
    await back.stop();
  }
});

test('persist (browser): vm.fork() copies the files, then each VM changes alone; df shows the origin quota', async ({ page }) => {
  await harness(page);
  const r = await page.evaluate((n) => window.__agentos.forkCheck(n), unique('fork'));
  expect(r.child).toBe('child\ndeep\nd\nf\nonly-child\n');
  expect(r.parent).toBe('v1\nd\nf\ng\n');
  // overlay SIZE USED AVAIL (KiB): the size follows navigator.storage.estimate(), not a made-up 4 TiB.
  const [, size, used] = r.df.trim().split(/\s+/).map(Number);
  const quota = await page.evaluate(async () => (await navigator.storage.estimate()).quota ?? 0) / 1024;
  expect(used).toBeGreaterThan(0);
  expect(size).toBeLessThanOrEqual(quota);
  expect(size).toBeGreaterThan(used);
});

test('mounts (browser): an OPFS directory and a directory handle, both ways, nothing outside reachable', async ({ page }) => {
  await harness(page);
  const r = await page.evaluate((n) => window.__agentos.mountCheck(n), unique('mnt'));
  expect(r.seen).toBe('written by the page\nfrom-page.txt\n[0]');
  expect(r.write).toBe('aXY\nf\n3\n[0]');
  expect(r.page).toBe('aXY');
  expect(r.up).toBe('/mnt\no\nro\n[0]');
  expect(r.links).toBe([
    "ln: failed to create symbolic link '/mnt/o/l': Operation not permitted",
    "ln: failed to create hard link '/mnt/o/h' => '/mnt/o/moved/f': Operation not permitted",
    "chmod: changing permissions of '/mnt/o/moved/f': Operation not permitted",
    '[1]',
  ].join('\n'));
  expect(r.ro).toBe([
    'written by the page',
    'agentos-shell: line 1: /mnt/ro/new: Read-only file system',
    "rm: cannot remove '/mnt/ro/from-page.txt': Read-only file system",
    '[0]',
  ].join('\n'));
  expect(r.rm).toBe('from-page.txt\n[0]');
  expect(r.big).toBe('same\n[0]');
});

test('persist (browser): a restore shares the snapshot (no copy), and deleting or replacing that snapshot keeps the layer', async ({ page }) => {
  await harness(page);
  const r = await page.evaluate((n) => window.__agentos.restoreShares(n), unique('share'));
  expect(r.stored).toBe('{"snap":"s"}');
  expect(r.reopened).toBe('one\nafter\nf\nh\n');
  expect(r.afterDelete).toBe('three\nafter\n');
  expect(r.storedAfterReplace).toMatch(/^frame of \d+ bytes$/);
  expect(r.afterReplace).toBe('four\nafter\n');
});

// Integrity in Chromium (issue 14, items 13 and 16; decision 0033): a
// damaged byte in a VM's IndexedDB journal is refused with where it is, and
// AgentVM.repair keeps the commits before it and a copy; names that differ
// only in invalid UTF-8 stay apart through the browser host's API.

import { expect, test, type Page } from '@playwright/test';

async function harness(page: Page): Promise<void> {
  await page.goto('/e2e/harness/');
  await page.waitForFunction(() => window.__agentos !== undefined);
}

const unique = (what: string) => `${what}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

test('integrity (browser): a damaged IndexedDB journal is refused with its key and byte; repair keeps what came before and a copy', async ({ page }) => {
  const name = unique('damaged');
  await harness(page);
  const first = await page.evaluate((n) => window.__agentos.persistRun(n, [0, 1, 2, 3, 4].map((i) => `seq ${i * 100} ${i * 100 + 50} > f${i}; echo ${i} > last`)), name);
  expect(first.error).toBeUndefined();
  // Flip a byte inside the payload of the second-to-last journal frame, as a bad disk would.
  const damaged = await page.evaluate(async (n) => {
    const db = await new Promise<IDBDatabase>((ok, fail) => {
      const r = indexedDB.open(`agentos-vm:${n}`);
      r.onsuccess = () => ok(r.result);
      r.onerror = () => fail(r.error);
    });
    const req = <T>(r: IDBRequest<T>) => new Promise<T>((ok, fail) => {
      r.onsuccess = () => ok(r.result);
      r.onerror = () => fail(r.error);
    });
    const store = () => db.transaction('layer', 'readwrite').objectStore('layer');
    const keys = (await req(store().getAllKeys())).filter((k): k is number => typeof k === 'number');
    const key = keys[keys.length - 2];
    const frame = (await req(store().get(key))) as Uint8Array;
    frame[40] ^= 0x10;
    await req(store().put(frame, key));
    db.close();
    return { key, frames: keys.length };
  }, name);
  expect(damaged.frames).toBeGreaterThanOrEqual(2);
  const refused = await page.evaluate((n) => window.__agentos.persistRun(n, ['cat last']), name);
  expect(refused.error).toContain(`journal is damaged at IndexedDB database 'agentos-vm:${name}', journal key ${damaged.key}, at byte 0 `);
  expect(refused.error).toContain('AgentVM.repair(');
  const report = await page.evaluate((n) => window.__agentos.repairVm(n), name);
  expect(typeof report).toBe('object');
  const r = report as Exclude<typeof report, string>;
  expect(r.damage?.part).toBe('journal');
  expect(r.commitsSetAside).toBe(1);
  expect(r.keptAs).toMatch(/key 'damaged:/);
  const after = await page.evaluate((n) => window.__agentos.persistRun(n, ['cat last', 'ls f*']), name);
  expect(after.error).toBeUndefined();
  const last = Number(after.results[0].stdout);
  expect(last).toBeLessThan(4);
  // Every file of the execs before the damage (a background commit may have split an exec over two frames).
  const files = after.results[1].stdout.split('\n').filter(Boolean);
  expect(files.slice(0, last + 1)).toEqual(Array.from({ length: last + 1 }, (_, i) => `f${i}`));
  expect(files.length).toBeLessThanOrEqual(last + 2);
});

test('integrity (browser): names that differ only in invalid UTF-8 stay two files, through the host API and the layer', async ({ page }) => {
  await harness(page);
  const r = await page.evaluate(() => window.__agentos.hostNames());
  expect(r.listed).toEqual(['fe', 'ff']);
  expect(r.contents).toEqual(['two\n', 'one\n']);
  expect(r.written).toBe('three');
  const name = unique('names');
  const listing = 'ls -A | od -An -tx1 | tr -d " \\n"';
  const first = await page.evaluate(([n, l]) => window.__agentos.persistRun(n, [`touch $'x\\xff' $'x\\xfe'`, l]), [name, listing] as const);
  expect(first.results[1].stdout).toBe('2e70726f66696c650a78fe0a78ff0a');
  await page.reload();
  await page.waitForFunction(() => window.__agentos !== undefined);
  const again = await page.evaluate(([n, l]) => window.__agentos.persistRun(n, [l]), [name, listing] as const);
  expect(again.results[0].stdout).toBe(first.results[1].stdout);
});

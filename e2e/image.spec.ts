// The base image in the browser (decision 0057): fetched gzipped and
// decompressed by our code, kept whole in the Cache API under the image's own
// URL, and a damaged cached copy fetched again rather than failing the boot.

import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface Manifest { file: string; bytes: number; gz: { file: string; bytes: number } }
const manifest = JSON.parse(readFileSync(fileURLToPath(new URL('../dist/web/image/manifest.json', import.meta.url)), 'utf8')) as Manifest;

/** An ephemeral playground VM, booted; `echo` through it proves the image is whole. */
async function boot(page: Page): Promise<void> {
  await page.goto('/?vm=');
  await page.waitForFunction(() => window.agentos !== undefined, null, { timeout: 20_000 });
  await page.evaluate(() => window.agentos.ready);
  const r = await page.evaluate(() => window.agentos.exec('cat /etc/os-release | wc -l'));
  expect(r.exitCode).toBe(0);
  expect(Number(r.stdout.trim())).toBeGreaterThan(0);
}

/** What the Cache API holds for the image: URL path and size. */
const cached = (page: Page) => page.evaluate(async () => {
  const c = await caches.open('agentos-image');
  return Promise.all((await c.keys()).map(async (k) => ({ path: new URL(k.url).pathname, bytes: (await (await c.match(k))!.arrayBuffer()).byteLength })));
});

/** Paths of the image files the page fetches from the network. */
function imageFetches(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/image/agentos-base-')) seen.push(path);
  });
  return seen;
}

test('a cold boot fetches the image gzipped and caches it whole; the next boot fetches no image', async ({ page }) => {
  const fetched = imageFetches(page);
  await boot(page);
  expect(fetched).toEqual([`/image/${manifest.gz.file}`]);
  expect(await cached(page)).toEqual([{ path: `/image/${manifest.file}`, bytes: manifest.bytes }]);
  await boot(page);
  expect(fetched).toHaveLength(1);
});

test('a server that decodes the .gz itself (Content-Encoding) still boots', async ({ page }) => {
  // What the page sees when a server labels the .gz `Content-Encoding: gzip`: the image itself.
  const plain = readFileSync(fileURLToPath(new URL(`../dist/image/${manifest.file}`, import.meta.url)));
  await page.route(`**/image/${manifest.gz.file}`, (route) => route.fulfill({ body: plain, contentType: 'application/octet-stream' }));
  await boot(page);
  expect(await cached(page)).toEqual([{ path: `/image/${manifest.file}`, bytes: manifest.bytes }]);
});

test('a damaged cached image is fetched again', async ({ page }) => {
  await page.goto('/favicon.svg');
  await page.evaluate(async (file) => {
    const c = await caches.open('agentos-image');
    await c.put(new URL(`/image/${file}`, location.href).href, new Response(new Uint8Array(1000)));
  }, manifest.file);
  const fetched = imageFetches(page);
  await boot(page);
  expect(fetched).toEqual([`/image/${manifest.gz.file}`]);
  expect(await cached(page)).toEqual([{ path: `/image/${manifest.file}`, bytes: manifest.bytes }]);
});

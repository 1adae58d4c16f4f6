// The real npm CLI in Chromium (decision 0076): the package is installed from
// the page's origin, and `npm install` reaches a registry on that origin (the
// page's 127.0.0.1, named by the VM's policy; Playwright answers it with a
// package the test builds) through node's http client and the kernel's http
// syscall, the page's fetch. npx then runs the package's bin. A registry the
// policy does not name is refused, and the registry sees nothing.
// Needs dist/npm (node scripts/build-npm.mjs); without it the test skips.
// Run: npm run build && node scripts/build-npm.mjs && AGENTOS_E2E_PORT=4311 npx playwright test e2e/npm.spec.ts

import { expect, test, type Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { tar } from '../test/kernel/tar-writer.js';

const built = existsSync(fileURLToPath(new URL('../dist/npm/package.json', import.meta.url)));

/** hello-bin@1.0.0 as `npm pack` makes it. */
function helloBin(): Buffer {
  const pkg = { name: 'hello-bin', version: '1.0.0', bin: { 'hello-bin': 'cli.js' }, license: 'MIT' };
  return gzipSync(tar({
    'package/package.json': `${JSON.stringify(pkg, null, 2)}\n`,
    'package/cli.js': "#!/usr/bin/env node\nconsole.log('hello from hello-bin', process.argv.slice(2).join(' '));\n",
  }, { 'package/cli.js': 0o755 }));
}

/** A registry under /npm-registry/ on the page's origin, answered by Playwright; returns what it was asked. */
async function serveRegistry(page: Page): Promise<string[]> {
  const tgz = helloBin();
  const seen: string[] = [];
  await page.context().route('**/npm-registry/**', (route) => {
    const url = new URL(route.request().url());
    seen.push(url.pathname);
    if (url.pathname === '/npm-registry/hello-bin') {
      const dist = {
        tarball: `${url.origin}/npm-registry/hello-bin/-/hello-bin-1.0.0.tgz`,
        shasum: createHash('sha1').update(tgz).digest('hex'),
        integrity: `sha512-${createHash('sha512').update(tgz).digest('base64')}`,
      };
      const versions = { '1.0.0': { name: 'hello-bin', version: '1.0.0', bin: { 'hello-bin': 'cli.js' }, dist } };
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ name: 'hello-bin', 'dist-tags': { latest: '1.0.0' }, versions }) });
    }
    if (url.pathname === '/npm-registry/hello-bin/-/hello-bin-1.0.0.tgz') return route.fulfill({ status: 200, contentType: 'application/octet-stream', body: tgz });
    return route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":"Not found"}' });
  });
  return seen;
}

const npmrc = (registry: string) => `registry=${registry}\nfetch-retries=0\naudit=false\nfund=false\nupdate-notifier=false\n`;

test('npm (browser): npm install from a registry the policy names, npx runs the bin; a registry it does not name is refused and sees nothing', async ({ page }) => {
  test.skip(!built, 'dist/npm is not built (node scripts/build-npm.mjs fetches the npm CLI from the npm registry)');
  test.setTimeout(300_000);
  await page.goto('/e2e/harness/');
  await page.waitForFunction(() => window.__agentos !== undefined);
  const origin = await page.evaluate(() => location.origin);
  const seen = await serveRegistry(page);
  const registry = `${origin}/npm-registry/`;
  const setup = `agentos-software install npm >/dev/null 2>&1 && mkdir -p /tmp/app && cd /tmp/app && printf '${npmrc(registry).replaceAll('\n', '\\n')}' > .npmrc && npm init -y >/dev/null`;
  // The same registry under a name the policy does not have (its own cache: npm would answer from the first install's).
  const elsewhere = 'cd /tmp/app && npm install hello-bin --registry http://registry.example/npm-registry/ --cache /tmp/cache2';

  const t0 = Date.now();
  const [install, added, run, refused] = await page.evaluate(
    ([o, s, e]) => window.__agentos.netRun({ allow: [o] }, [s, 'cd /tmp/app && npm install hello-bin', 'cd /tmp/app && npx hello-bin from npx && ls node_modules', e]),
    [origin, setup, elsewhere],
  );
  // Figures for decision 0076, never asserted: the machine's load decides them.
  console.log(`npm in Chromium: install of the package, npm init, npm install, npx and a refused install in ${Date.now() - t0} ms`);
  expect(install.exitCode, install.stderr).toBe(0);
  expect(added.exitCode, added.stderr).toBe(0);
  expect(added.stdout).toMatch(/added 1 package in /);
  expect(run).toMatchObject({ stdout: 'hello from hello-bin from npx\nhello-bin\n', stderr: '', exitCode: 0 });
  expect(seen).toEqual(['/npm-registry/hello-bin', '/npm-registry/hello-bin/-/hello-bin-1.0.0.tgz']);
  expect(refused.exitCode).not.toBe(0);
  expect(refused.stderr).toContain("request to http://registry.example/npm-registry/hello-bin failed, reason: network access to http://registry.example denied by the VM's network policy");
  expect(seen).toHaveLength(2);
});

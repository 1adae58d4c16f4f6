// The real npm CLI (the `npm` package, dist/npm/ from scripts/build-npm.mjs)
// on the VM's node, against a registry this test serves on the host's
// 127.0.0.1 with a package it builds itself: `npm install` fetches the
// packument and the tarball through node's http client and the kernel's http
// syscall, so the VM's network policy decides (decision 0076). Without the
// package built (an offline build) every test here skips and says why.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../../src/host/node/index.js';
import { gzip, tar } from '../../kernel/tar-writer.js';

const built = existsSync(new URL('../../../npm/package.json', import.meta.url));
const skip = !built && 'dist/npm is not built (node scripts/build-npm.mjs fetches the npm CLI from the npm registry)';
const LIMIT = 180_000;

/** What the registry was asked for, in order. */
const seen: string[] = [];
let server: Server;
let registry = '';
let state = '';
let vm: AgentVM | null = null;
let installMs = 0;

/** hello-bin@1.0.0 as `npm pack` would make it: a `package/` tree with a bin. */
async function helloBin(): Promise<Uint8Array> {
  const pkg = { name: 'hello-bin', version: '1.0.0', bin: { 'hello-bin': 'cli.js' }, license: 'MIT' };
  return gzip(tar({
    'package/package.json': `${JSON.stringify(pkg, null, 2)}\n`,
    'package/cli.js': "#!/usr/bin/env node\nconsole.log('hello from hello-bin', process.argv.slice(2).join(' '));\n",
  }, { 'package/cli.js': 0o755 }));
}

/** A minimal registry: the packument at /hello-bin, the tarball it names; anything else 404. */
async function startRegistry(): Promise<void> {
  const tgz = Buffer.from(await helloBin());
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const base = `http://${req.headers.host}`;
    if (req.url === '/hello-bin') {
      const dist = {
        tarball: `${base}/hello-bin/-/hello-bin-1.0.0.tgz`,
        shasum: createHash('sha1').update(tgz).digest('hex'),
        integrity: `sha512-${createHash('sha512').update(tgz).digest('base64')}`,
      };
      const version = { name: 'hello-bin', version: '1.0.0', bin: { 'hello-bin': 'cli.js' }, dist };
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return void res.end(JSON.stringify({ name: 'hello-bin', 'dist-tags': { latest: '1.0.0' }, versions: { '1.0.0': version } }));
    }
    if (req.url === '/hello-bin/-/hello-bin-1.0.0.tgz') {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': tgz.length });
      return void res.end(tgz);
    }
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end('{"error":"Not found"}');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  registry = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** npm's settings for a project: this registry, no retries (a refusal fails at once), nothing else asked of it. */
const npmrc = (reg: string) => `registry=${reg}\nfetch-retries=0\naudit=false\nfund=false\nupdate-notifier=false\n`;

before(async () => {
  if (!built) return;
  await startRegistry();
  // The installed npm lives in a writable layer on the host, so a VM with another policy can start from it.
  state = mkdtempSync(join(tmpdir(), 'agentos-npm-'));
  vm = new AgentVM({ state, network: { allow: ['127.0.0.1'] } });
  await vm.start();
  const t0 = performance.now();
  const r = await vm.exec('agentos-software install npm 2>/dev/null');
  assert.equal(r.exitCode, 0, r.stderr);
  installMs = Math.round(performance.now() - t0);
});

after(async () => {
  await vm?.stop();
  server?.close();
  if (state) rmSync(state, { recursive: true, force: true });
});

test('npm and npx are the real CLI at its version', { skip, timeout: LIMIT }, async (t) => {
  const t0 = performance.now();
  const v = await vm!.exec('npm --version');
  t.diagnostic(`agentos-software install npm: ${installMs} ms; npm --version: ${Math.round(performance.now() - t0)} ms (its first run)`);
  assert.deepEqual([v.stdout, v.stderr, v.exitCode], ['10.9.9\n', '', 0]);
  const r = await vm!.exec('npm --version && npx --version && command -v npm npx');
  assert.deepEqual([r.stderr, r.exitCode], ['', 0]);
  assert.equal(r.stdout, '10.9.9\n10.9.9\n/opt/agentos/bin/npm\n/opt/agentos/bin/npx\n');
});

test('npm install from a registry the policy allows: the package, its bin link and the lock file; npx and npm run run the bin', { skip, timeout: LIMIT }, async (t) => {
  seen.length = 0;
  await vm!.exec('mkdir -p /tmp/app');
  await vm!.writeFile('/tmp/app/.npmrc', npmrc(registry));
  const init = await vm!.exec('cd /tmp/app && npm init -y >/dev/null && npm pkg set scripts.hi="hello-bin from a script" && npm pkg get name');
  assert.deepEqual([init.stdout, init.stderr, init.exitCode], ['"app"\n', '', 0]);
  const t0 = performance.now();
  const r = await vm!.exec('cd /tmp/app && npm install hello-bin');
  t.diagnostic(`npm install hello-bin: ${Math.round(performance.now() - t0)} ms`);
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stdout, /added 1 package in /);
  assert.deepEqual(seen, ['GET /hello-bin', 'GET /hello-bin/-/hello-bin-1.0.0.tgz']);
  const files = await vm!.exec('cd /tmp/app && cat node_modules/hello-bin/package.json && readlink node_modules/.bin/hello-bin && grep -c hello-bin package-lock.json && grep \'"hello-bin": \' package.json');
  assert.equal(files.exitCode, 0, files.stderr);
  assert.match(files.stdout, /"name": "hello-bin",\n {2}"version": "1\.0\.0"/);
  assert.match(files.stdout, /\n\.\.\/hello-bin\/cli\.js\n[1-9]\d*\n {4}"hello-bin": "\^1\.0\.0"\n$/);
  const x = await vm!.exec('cd /tmp/app && npx hello-bin a b && ./node_modules/.bin/hello-bin c && npm run --silent hi');
  assert.deepEqual([x.stdout, x.stderr, x.exitCode], ['hello from hello-bin a b\nhello from hello-bin c\nhello from hello-bin from a script\n', '', 0]);
});

test('without the registry in the policy npm fails with a clear error, and nothing reaches the registry', { skip, timeout: LIMIT }, async () => {
  await vm!.stop();
  vm = null;
  seen.length = 0;
  // The same files (npm installed), network: none.
  const closed = new AgentVM({ state });
  await closed.start();
  try {
    await closed.exec('mkdir -p /tmp/app2');
    // A cache of its own: npm would answer from the first VM's cache when the registry cannot be reached.
    await closed.writeFile('/tmp/app2/.npmrc', `${npmrc(registry)}cache=/tmp/app2-cache\n`);
    await closed.writeFile('/tmp/app2/package.json', '{ "name": "app2", "version": "1.0.0" }\n');
    // The host's 127.0.0.1 is not in the policy: the VM's own loopback, where nothing listens.
    const r = await closed.exec('cd /tmp/app2 && npm install hello-bin');
    assert.notEqual(r.exitCode, 0);
    assert.match(r.stderr, new RegExp(`npm error code ECONNREFUSED\n.*request to ${registry}hello-bin failed, reason: connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+`, 's'));
    // A registry by name: the policy's own words.
    const named = await closed.exec('cd /tmp/app2 && npm install hello-bin --registry http://registry.example/');
    assert.notEqual(named.exitCode, 0);
    assert.match(named.stderr, /request to http:\/\/registry\.example\/hello-bin failed, reason: network access to http:\/\/registry\.example denied by the VM's network policy \(network: none\)/);
    assert.equal((await closed.exec('ls /tmp/app2/node_modules')).exitCode, 2);
    assert.deepEqual(seen, []);
  } finally {
    await closed.stop();
  }
});

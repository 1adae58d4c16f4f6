// node's http and https clients to anywhere but a server on the VM's own
// loopback go through the kernel's http syscall (decision 0076), so the VM's
// network policy decides. A local HTTP server on the host stands in for the
// world; each script runs on the host's real node and in a VM whose policy
// allows 127.0.0.1, and their stdout must match.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { AgentVM, type AgentVMOptions } from '../../../src/host/node/index.js';
import { startServer, type TestServer } from '../../kernel/net/server.js';

let srv: TestServer;
let dir: string;
before(async () => {
  srv = await startServer();
  dir = mkdtempSync(join(tmpdir(), 'agentos-http-client-'));
});
after(async () => {
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

const fill = (script: string) => script.replaceAll('$BASE', srv.base).replaceAll('$PORT', String(srv.port));

async function inVm(network: AgentVMOptions['network'], script: string): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const vm = new AgentVM({ network });
  await vm.start();
  try {
    await vm.writeFile('/tmp/c.js', fill(script));
    return await vm.exec('node /tmp/c.js');
  } finally {
    await vm.stop();
  }
}

/** The same script on the host's node: the reference (not spawnSync: the server answers from this process's loop). */
async function onHost(script: string): Promise<string> {
  const file = join(dir, 'c.js');
  writeFileSync(file, fill(script));
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [file], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(stderr, '');
  return stdout;
}

async function same(script: string): Promise<string> {
  const want = await onHost(script);
  const got = await inVm({ allow: ['127.0.0.1'] }, script);
  assert.equal(got.stderr, '');
  assert.equal(got.stdout, want);
  return want;
}

describe('node http/https clients through the kernel', () => {
  test('http.request to a host the policy allows: a body written in pieces, status, headers, body, then close', async () => {
    const seen = srv.seen.length;
    const out = await same(`
      const http = require('http');
      const req = http.request('$BASE/echo?q=1', { method: 'POST', headers: { 'Content-Type': 'text/plain', 'Content-Length': 6, 'X-Who': 'me' } }, (res) => {
        console.log('response', res.statusCode, res.statusMessage, res.headers['content-type'], res.httpVersion);
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => { body += c; });
        res.on('end', () => console.log('end', JSON.stringify(body), res.complete));
      });
      req.on('socket', (s) => console.log('socket', typeof s.setTimeout));
      req.on('close', () => console.log('close'));
      req.write('abc');
      req.end('def');
    `);
    assert.match(out, /^socket function\nresponse 200 OK text\/plain 1\.1\nend "POST \?q=1\\ncontent-length: 6\\ncontent-type: text\/plain\\nx-who: me\\n6 [0-9a-f]{64}\\n" true\nclose\n$/);
    assert.deepEqual(srv.seen.slice(seen), ['/echo', '/echo']);
  });

  test('http.get: a gzip body stays encoded (Node\'s http does not decode); a large body streams in chunks; a 404', async () => {
    const out = await same(`
      const http = require('http');
      const zlib = require('zlib');
      const get = (path) => new Promise((ok) => http.get('$BASE' + path, (res) => {
        const parts = [];
        res.on('data', (c) => parts.push(c));
        res.on('end', () => ok([res, Buffer.concat(parts), parts.length]));
      }));
      (async () => {
        const [g, gz] = await get('/gzip');
        console.log(g.headers['content-encoding'], zlib.gunzipSync(gz).toString().slice(0, 16));
        const [, big, n] = await get('/big?mb=2');
        console.log(big.length, n > 1);
        const [nf] = await get('/nothing-here');
        console.log(nf.statusCode);
      })();
    `);
    assert.equal(out, `gzip compressed hello\n${2 * 1024 * 1024} true\n404\n`);
  });

  test('network: none refuses http and https with the policy\'s words, and the loopback is the VM\'s own: nothing reaches the host', async () => {
    const before = srv.connections;
    const r = await inVm('none', `
      const http = require('http');
      const https = require('https');
      https.get('https://registry.example/x', () => console.log('answered')).on('error', (e) => console.log('https', e.code, e.message));
      http.get('http://registry.example/x', () => console.log('answered')).on('error', (e) => console.log('http', e.code, e.message));
      http.get('$BASE/hello', () => console.log('answered')).on('error', (e) => console.log('loopback', e.code, e.message));
      try { https.createServer(); } catch (e) { console.log(e.code); }
    `);
    assert.equal(r.stderr, '');
    assert.equal(
      r.stdout,
      'ERR_TLS_UNSUPPORTED\n' +
        "https EACCES network access to https://registry.example denied by the VM's network policy (network: none)\n" +
        "http EACCES network access to http://registry.example denied by the VM's network policy (network: none)\n" +
        `loopback ECONNREFUSED connect ECONNREFUSED 127.0.0.1:${srv.port}\n`,
    );
    assert.equal(srv.connections, before);
  });

  test('a server on the VM\'s loopback answers before the host\'s, even on the same port the policy allows', async () => {
    const before = srv.connections;
    const r = await inVm({ allow: ['127.0.0.1'] }, `
      const http = require('http');
      const server = http.createServer((req, res) => res.end('from the VM\\n')).listen($PORT, '127.0.0.1', () => {
        http.get('$BASE/hello', (res) => res.on('data', (c) => process.stdout.write(c)).on('end', () => server.close()));
      });
    `);
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, 'from the VM\n');
    assert.equal(srv.connections, before);
  });
});

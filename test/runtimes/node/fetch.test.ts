// The node runtime's global fetch (issue 16, item 9): it goes through the
// kernel's http syscall, so the VM's network policy decides (refused under
// network: none, private addresses refused under network: all, an allow entry
// naming the host lets it through), and redirects are checked at every hop.
// A local HTTP server on the host stands in for the world.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AgentVM, type AgentVMOptions } from '../../../src/host/node/index.js';
import { startServer, type TestServer } from '../../kernel/net/server.js';

let srv: TestServer;
before(async () => {
  srv = await startServer();
});
after(async () => {
  await srv?.close();
});

async function run(network: AgentVMOptions['network'], script: string): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const vm = new AgentVM({ network });
  await vm.start();
  try {
    await vm.writeFile('/tmp/f.mjs', script.replaceAll('$BASE', srv.base));
    return await vm.exec('node /tmp/f.mjs');
  } finally {
    await vm.stop();
  }
}

const ALLOW = () => ({ allow: ['127.0.0.1'] });

describe('node fetch through the kernel', () => {
  test('GET: status, headers, text; the server saw the request', async () => {
    const seen = srv.seen.length;
    const r = await run(ALLOW(), `
      const res = await fetch('$BASE/hello');
      console.log(res.status, res.ok, res.statusText, res.headers.get('x-test'), res.url === '$BASE/hello', res.redirected);
      process.stdout.write(await res.text());
      console.log(typeof Request, typeof Response, typeof Headers, globalThis.fetch === fetch);
    `);
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, '200 true OK yes true false\nhello\nfunction function function true\n');
    assert.deepEqual(srv.seen.slice(seen), ['/hello']);
  });

  test('POST with a JSON body and headers; arrayBuffer and json', async () => {
    const r = await run(ALLOW(), `
      const res = await fetch(new URL('$BASE/echo?q=1'), { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Who': 'é' === 'é' ? 'me' : '' }, body: JSON.stringify({ a: 'ü' }) });
      const text = await res.text();
      console.log(text.split('\\n').slice(0, 4).join('|'));
      const b = await (await fetch('$BASE/files/x')).arrayBuffer();
      console.log(b.byteLength, new TextDecoder().decode(b).trim());
    `);
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, 'POST ?q=1|content-length: 10|content-type: application/json|x-who: me\n13 file content\n');
  });

  test('redirects are followed hop by hop (each one a new request); manual and error modes', async () => {
    const r = await run(ALLOW(), `
      const res = await fetch('$BASE/redirect?code=301&to=/hello');
      console.log(res.status, res.redirected, res.url.endsWith('/hello'), (await res.text()).trim());
      const m = await fetch('$BASE/redirect?to=/hello', { redirect: 'manual' });
      console.log(m.status, m.headers.get('location'));
      await fetch('$BASE/redirect?to=/hello', { redirect: 'error' }).catch((e) => console.log(e.name, e.message, e.cause.message));
    `);
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, '200 true true hello\n302 /hello\nTypeError fetch failed unexpected redirect\n');
  });

  test('a gzip body is decoded; a large body streams in chunks', async () => {
    const r = await run(ALLOW(), `
      const t = await (await fetch('$BASE/gzip')).text();
      console.log(t.length, t.slice(0, 17));
      let n = 0, chunks = 0;
      for await (const c of (await fetch('$BASE/big?mb=3')).body) { n += c.byteLength; chunks++; }
      console.log(n, chunks > 1);
    `);
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, `1700 compressed hello\n\n${3 * 1024 * 1024} true\n`);
  });

  test('network: none refuses with the policy\'s message, before any connection', async () => {
    const before = srv.connections;
    const r = await run('none', `
      try { await fetch('http://example.com/hello'); } catch (e) { console.log(e.name, e.message, e.cause.code, e.cause.message); }
    `);
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, "TypeError fetch failed EACCES network access to http://example.com denied by the VM's network policy (network: none)\n");
    assert.equal(srv.connections, before);
  });

  test("network: all: the loopback is the VM's own (refused: nothing listens there), never the host's", async () => {
    const before = srv.connections;
    const r = await run('all', `
      try { await fetch('$BASE/hello'); } catch (e) { console.log(e.message, e.cause.code); }
      try { await fetch('http://0x7f.1:${'$PORT'}/hello'); } catch (e) { console.log(e.cause.code); }
    `.replace('$PORT', String(srv.port)));
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, 'fetch failed ECONNREFUSED\nECONNREFUSED\n');
    assert.equal(srv.connections, before);
  });

  test('a redirect from an allowed host to a refused one is refused at that hop', async () => {
    const r = await run({ allow: ['127.0.0.1'] }, `
      try { await fetch('$BASE/redirect?to=http://localhost:${'$PORT'}/hello'); } catch (e) { console.log(e.message, e.cause.code); }
    `.replace('$PORT', String(srv.port)));
    assert.equal(r.stderr, '');
    // localhost is not named by the policy: the VM's own loopback, where nothing listens.
    assert.equal(r.stdout, 'fetch failed ECONNREFUSED\n');
  });

  test('an uncaught fetch error and its stack name no host path', async () => {
    const r = await run('none', `
      const e = await fetch('$BASE/hello').catch((e) => e);
      console.log(e.stack);
      console.log(e.cause.stack);
      await fetch('$BASE/hello');
    `);
    assert.equal(r.exitCode, 1);
    const all = r.stdout + r.stderr;
    assert.match(all, /TypeError: fetch failed/);
    assert.doesNotMatch(all, /file:\/\/|\/dist\/|process\.worker/);
    assert.match(all, /at .*\/tmp\/f\.mjs:\d+/);
  });
});

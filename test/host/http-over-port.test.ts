// The HTTP/1.1 exchange a browser preview speaks to a VM's server
// (host/api/http-over-port.ts over the kernel's client, kernel/net/http1.ts),
// against scripted server bytes: the request as sent, and every way a
// response body can end.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { httpExchange, type ByteConnection } from '../../src/host/api/http-over-port.js';

const enc = new TextEncoder(), dec = new TextDecoder();

/** A connection whose server answers `chunks` (as separate reads), recording what was sent and whether it was closed. */
function scripted(chunks: string[]): ByteConnection & { sent: string; closed: boolean } {
  const queue = chunks.map((c) => enc.encode(c));
  return {
    sent: '',
    closed: false,
    read() {
      return Promise.resolve(queue.shift() ?? new Uint8Array(0));
    },
    write(d) {
      this.sent += dec.decode(d);
      return Promise.resolve();
    },
    close() {
      this.closed = true;
      return Promise.resolve();
    },
  };
}

async function text(body: AsyncIterable<Uint8Array>): Promise<string> {
  let s = '';
  for await (const b of body) s += dec.decode(b);
  return s;
}

const GET = { method: 'GET', target: '/a?b=1', headers: [['Accept', 'text/html'], ['Connection', 'keep-alive'], ['Host', 'evil']] as [string, string][], body: null };

test('the request: its line, Host as localhost:PORT, the caller\'s headers but hop-by-hop ones, Connection: close, the body with its length', async () => {
  const c = scripted(['HTTP/1.1 204 No Content\r\n\r\n']);
  await httpExchange(c, 3000, GET);
  assert.equal(c.sent, 'GET /a?b=1 HTTP/1.1\r\nHost: localhost:3000\r\nAccept: text/html\r\nConnection: close\r\n\r\n');
  const p = scripted(['HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n']);
  await httpExchange(p, 80, { method: 'POST', target: '/', headers: [], body: enc.encode('xyz') });
  assert.equal(p.sent, 'POST / HTTP/1.1\r\nHost: localhost:80\r\nContent-Length: 3\r\nConnection: close\r\n\r\nxyz');
});

test('a body by Content-Length, split anywhere, head and body in one read or many', async () => {
  const c = scripted(['HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Len', 'gth: 11\r\n\r\nhello', ' world', 'ignored']);
  const r = await httpExchange(c, 80, GET);
  assert.deepEqual([r.status, r.statusText, r.headers], [200, 'OK', [['Content-Type', 'text/plain']]]);
  assert.equal(await text(r.body), 'hello world');
  assert.equal(c.closed, true);
});

test('a chunked body, with extensions and trailers; 100 Continue skipped', async () => {
  const c = scripted(['HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhel', 'lo\r\n6\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n']);
  const r = await httpExchange(c, 80, GET);
  assert.equal(r.status, 201);
  assert.deepEqual(r.headers, []);
  assert.equal(await text(r.body), 'hello world');
});

test('no length: the body runs until the server closes; HEAD and 304 have none', async () => {
  const r = await httpExchange(scripted(['HTTP/1.0 200 OK\r\n\r\nall ', 'of it']), 80, GET);
  assert.equal(await text(r.body), 'all of it');
  const h = await httpExchange(scripted(['HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n']), 80, { ...GET, method: 'HEAD' });
  assert.equal(await text(h.body), '');
});

test('not HTTP, a truncated body, a bad length: an error, and the connection is closed', async () => {
  for (const [chunks, msg] of [
    [['SSH-2.0-x\r\n\r\n'], /is not an HTTP\/1\.x status line/],
    [['HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n'], /bad Content-Length/],
    [['HTTP/1.1 200 OK\r\n'], /closed the connection in the middle of the response head/],
  ] as const) {
    const c = scripted([...chunks]);
    await assert.rejects(httpExchange(c, 80, GET), msg);
    assert.equal(c.closed, true);
  }
  const short = await httpExchange(scripted(['HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc']), 80, GET);
  await assert.rejects(text(short.body), /transfer closed with 7 bytes remaining/);
  await assert.rejects(httpExchange(scripted([]), 80, { ...GET, target: 'http://x/' }), /bad request target/);
});

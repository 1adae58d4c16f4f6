// The node runtime's HTTP/1.x parser on its own: messages split at every byte,
// Content-Length and chunked bodies, pipelined requests, responses read to the
// connection's end, and the framing errors that would let two parties disagree
// on where a message ends (request smuggling).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HttpParseError, HttpParser, MAX_HEADER_SIZE, type HttpHead } from '../../../src/runtimes/node/http-parser.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

interface Msg { head: HttpHead; body: string; trailers: string[] }

/** Parse `input` fed in pieces of `step` bytes (Infinity: at once); the messages, and whether the last one is complete. */
function parse(kind: 'request' | 'response', input: string, step = Infinity, opts: { noBody?: boolean; eof?: boolean } = {}): Msg[] {
  const out: Msg[] = [];
  let cur: Msg | null = null;
  const p = new HttpParser(kind, {
    head: (head) => { cur = { head, body: '', trailers: [] }; return opts.noBody; },
    body: (c) => { cur!.body += dec.decode(c); },
    end: (trailers) => { cur!.trailers = trailers; out.push(cur!); cur = null; },
  });
  const bytes = enc.encode(input);
  const n = Math.min(step, bytes.length) || 1;
  for (let i = 0; i < bytes.length; i += n) p.execute(bytes.subarray(i, i + n));
  if (opts.eof) p.finish();
  return out;
}

const code = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    if (e instanceof HttpParseError) return e.code;
    throw e;
  }
  return 'no error';
};

test('a request with headers and a Content-Length body, fed whole and byte by byte', () => {
  const req = 'POST /submit?x=1 HTTP/1.1\r\nHost: example\r\nX-Dup: a\r\nx-dup: b\r\nContent-Length: 11\r\n\r\nhello world';
  for (const step of [Infinity, 1, 3, 7]) {
    const [m, ...rest] = parse('request', req, step);
    assert.equal(rest.length, 0);
    assert.deepEqual([m.head.method, m.head.url, m.head.versionMajor, m.head.versionMinor, m.head.keepAlive], ['POST', '/submit?x=1', 1, 1, true]);
    assert.deepEqual(m.head.rawHeaders, ['Host', 'example', 'X-Dup', 'a', 'x-dup', 'b', 'Content-Length', '11']);
    assert.equal(m.body, 'hello world');
  }
});

test('chunked bodies with extensions and trailers; pipelined requests; bare LF line ends', () => {
  const two = 'POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;name=x\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n' +
    'GET /b HTTP/1.0\nConnection: keep-alive\n\n';
  for (const step of [Infinity, 1, 5]) {
    const [a, b] = parse('request', two, step);
    assert.equal(a.body, 'hello world');
    assert.deepEqual(a.trailers, ['X-Trailer', 't']);
    assert.deepEqual([b.head.method, b.head.url, b.head.versionMinor, b.head.keepAlive, b.body], ['GET', '/b', 0, true, '']);
  }
  // HTTP/1.0 closes by default, HTTP/1.1 with Connection: close; then nothing more is parsed.
  const closing = parse('request', 'GET / HTTP/1.1\r\nConnection: close\r\n\r\nGET /ignored HTTP/1.1\r\n\r\n');
  assert.deepEqual(closing.map((m) => [m.head.url, m.head.keepAlive]), [['/', false]]);
});

test('responses: by length, chunked, to the end of the connection, and with no body (HEAD, 204, 304, 1xx)', () => {
  assert.equal(parse('response', 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc')[0].body, 'abc');
  const [eof] = parse('response', 'HTTP/1.1 200 OK\r\n\r\nuntil the end', 4, { eof: true });
  assert.deepEqual([eof.head.statusCode, eof.head.statusMessage, eof.body, eof.head.keepAlive], [200, 'OK', 'until the end', false]);
  const [head] = parse('response', 'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n', Infinity, { noBody: true });
  assert.equal(head.body, '');
  const [cont, nc] = parse('response', 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n');
  assert.deepEqual([cont.head.statusCode, nc.head.statusCode, nc.head.statusMessage], [100, 204, 'No Content']);
  // A response cut short of its length is an error at EOF.
  assert.equal(code(() => parse('response', 'HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nabc', Infinity, { eof: true })), 'HPE_INVALID_EOF_STATE');
});

test('framing conflicts and malformed heads are errors (no request smuggling)', () => {
  const bad: [string, string][] = [
    ['POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n', 'HPE_UNEXPECTED_CONTENT_LENGTH'],
    ['POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n', 'HPE_UNEXPECTED_CONTENT_LENGTH'],
    ['POST / HTTP/1.1\r\nContent-Length: 3x\r\n\r\n', 'HPE_INVALID_CONTENT_LENGTH'],
    ['POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n', 'HPE_INVALID_CONTENT_LENGTH'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n', 'HPE_INVALID_TRANSFER_ENCODING'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 'HPE_INVALID_CHUNK_SIZE'],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX', 'HPE_STRICT'],
    ['GET / HTTP/1.1\r\nBad Name: x\r\n\r\n', 'HPE_INVALID_HEADER_TOKEN'],
    ['GET / HTTP/1.1\r\nX: a\r\n folded\r\n\r\n', 'HPE_INVALID_HEADER_TOKEN'],
    ['GET / HTTP/1.1\r\nX: a\x01b\r\n\r\n', 'HPE_INVALID_HEADER_TOKEN'],
    ['G(T / HTTP/1.1\r\n\r\n', 'HPE_INVALID_METHOD'],
    ['GET / HTTP/2.0\r\n\r\n', 'HPE_INVALID_VERSION'],
    ['GET / FTP/1.1\r\n\r\n', 'HPE_INVALID_VERSION'],
  ];
  for (const [msg, want] of bad) assert.equal(code(() => parse('request', msg)), want, JSON.stringify(msg));
  assert.equal(code(() => parse('response', 'HTTP/1.1 2000 OK\r\n\r\n')), 'HPE_INVALID_CONSTANT');
});

test('a head larger than the limit is refused, whole or trickled', () => {
  const huge = `GET / HTTP/1.1\r\nX-Big: ${'a'.repeat(MAX_HEADER_SIZE)}\r\n\r\n`;
  assert.equal(code(() => parse('request', huge)), 'HPE_HEADER_OVERFLOW');
  assert.equal(code(() => parse('request', huge.slice(0, -4), 1000)), 'HPE_HEADER_OVERFLOW');
  assert.equal(code(() => parse('request', `GET / HTTP/1.1\r\nX: ${'a'.repeat(MAX_HEADER_SIZE - 100)}\r\n\r\n`)), 'no error');
});

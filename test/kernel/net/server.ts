// A local HTTP server for the network tests (no internet needed): fixed
// routes, deterministic bodies, and a log of what it saw (aborted requests).

import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface TestServer {
  port: number;
  /** `http://127.0.0.1:PORT` (or `http://[::1]:PORT`) */
  base: string;
  /** TCP connections accepted so far. */
  connections: number;
  /** Requests whose client went away before the response ended, by path. */
  aborted: string[];
  /** Paths requested, in order. */
  seen: string[];
  close(): Promise<void>;
}

const MB = 1024 * 1024;

/** Deterministic bytes: chunk i of size n. */
function pattern(n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + 7) & 0xff;
  return b;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((ok, fail) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => ok(Buffer.concat(parts)));
    req.on('error', fail);
  });
}

/** Headers the tests echo: the ones the client was told to send, never its own User-Agent. */
const ECHOED = /^(x-|authorization$|referer$|content-type$|content-length$|range$|accept-encoding$)/;

async function route(s: TestServer, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', s.base);
  const p = url.pathname;
  s.seen.push(p);
  res.on('close', () => {
    if (!res.writableFinished) s.aborted.push(p);
  });
  if (p === '/hello') {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'X-Test': 'yes' });
    return void res.end('hello\n');
  }
  if (p === '/echo') {
    const body = await readBody(req);
    const headers = Object.entries(req.headers).filter(([k]) => ECHOED.test(k)).sort();
    const text = `${req.method} ${url.search}\n${headers.map(([k, v]) => `${k}: ${v}`).join('\n')}\n${body.length} ${createHash('sha256').update(body).digest('hex')}\n`;
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    return void res.end(req.method === 'HEAD' ? undefined : text);
  }
  if (p === '/form') {
    // A multipart/form-data body, part by part (the boundary is random, so it is not echoed).
    const body = await readBody(req);
    const type = req.headers['content-type'] ?? '';
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(type)?.[1];
    const out: string[] = [`${req.method} ${boundary ? 'multipart/form-data' : type}`];
    if (boundary) {
      const parts = body.toString('latin1').split(`--${boundary}`);
      out.push(`closing: ${JSON.stringify(parts.at(-1))}`);
      for (const part of parts.slice(1, -1)) {
        const cut = part.indexOf('\r\n\r\n');
        const data = Buffer.from(part.slice(cut + 4, -2), 'latin1');
        out.push(`${JSON.stringify(part.slice(0, cut))} ${data.length} ${createHash('sha256').update(data).digest('hex').slice(0, 16)}`);
      }
    }
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    return void res.end(out.join('\n') + '\n');
  }
  if (p.startsWith('/status/')) {
    const code = Number(p.slice(8));
    res.writeHead(code, { 'Content-Type': 'text/plain' });
    return void res.end(`status ${code}\n`);
  }
  if (p.startsWith('/chain/')) {
    const n = Number(p.slice(7));
    if (n > 0) {
      res.writeHead(302, { Location: `/chain/${n - 1}` });
      return void res.end();
    }
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    return void res.end('end of chain\n');
  }
  if (p === '/redirect') {
    res.writeHead(Number(url.searchParams.get('code') ?? 302), { Location: url.searchParams.get('to') ?? '/hello' });
    return void res.end();
  }
  if (p === '/big') {
    const total = Number(url.searchParams.get('mb') ?? 1) * MB;
    const chunk = pattern(MB);
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(total) });
    let sent = 0;
    const more = () => {
      while (sent < total) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end();
    };
    return more();
  }
  if (p === '/slow') {
    const t = setTimeout(() => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('late\n');
    }, Number(url.searchParams.get('ms') ?? 3000));
    res.on('close', () => clearTimeout(t));
    return;
  }
  if (p === '/drip') {
    // Headers at once, then a byte a second: a download that never ends by itself.
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    const t = setInterval(() => res.write('.'), 1000);
    res.write('.');
    res.on('close', () => clearInterval(t));
    return;
  }
  if (p === '/gzip') {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' });
    return void res.end(gzipSync(Buffer.from('compressed hello\n'.repeat(100))));
  }
  if (p.startsWith('/files/')) {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '13' });
    return void res.end('file content\n');
  }
  if (p === '/range') {
    const whole = Buffer.from('0123456789abcdefghij');
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (m) {
      const from = Number(m[1]);
      if (from >= whole.length) {
        res.writeHead(416);
        return void res.end();
      }
      res.writeHead(206, { 'Content-Range': `bytes ${from}-${whole.length - 1}/${whole.length}`, 'Content-Length': String(whole.length - from) });
      return void res.end(whole.subarray(from));
    }
    res.writeHead(200, { 'Content-Length': String(whole.length) });
    return void res.end(whole);
  }
  res.writeHead(404, { 'Content-Type': 'text/plain' });
  res.end('not found\n');
}

/** A server on `host` (the loopback by default; `::1` for IPv6). */
export async function startServer(host = '127.0.0.1'): Promise<TestServer> {
  const s = { port: 0, base: '', connections: 0, aborted: [] as string[], seen: [] as string[], close: async () => {} } as TestServer;
  const server: Server = createServer((req, res) => {
    route(s, req, res).catch((e: unknown) => {
      res.writeHead(500);
      res.end(String(e));
    });
  });
  server.on('connection', () => s.connections++);
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, host, ok);
  });
  s.port = (server.address() as AddressInfo).port;
  s.base = `http://${host.includes(':') ? `[${host}]` : host}:${s.port}`;
  s.close = () =>
    new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    });
  return s;
}

/** A port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((ok) => server.close(() => ok()));
  return port;
}

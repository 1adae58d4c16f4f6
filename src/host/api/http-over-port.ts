// One HTTP/1.1 exchange over a connection into the VM (a browser preview:
// the service worker hands the page a fetch, the page speaks HTTP to the VM's
// server). The client is the kernel's own (kernel/net/http1.ts, which serves
// the VM's loopback URLs); this side only makes the request one a proxy would
// send — Host as localhost:PORT, no hop-by-hop headers — and drops those from
// the answer. No DOM: the same code runs, and is tested, on Node.

import { exchange } from '../../kernel/net/http1.js';

/** What an exchange needs of a connection (PortConnection). */
export interface ByteConnection {
  read(): Promise<Uint8Array>;
  write(data: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

export interface HttpRequest {
  method: string;
  /** The request target: path and query ('/index.html?x=1'). */
  target: string;
  headers: [string, string][];
  body: Uint8Array | null;
}

export interface HttpResponse {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: AsyncGenerator<Uint8Array, void, undefined>;
}

/** Headers of one hop, not forwarded (RFC 9110, 7.6.1), and the ones the client sets itself. */
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host', 'content-length']);
const endToEnd = (headers: [string, string][]) => headers.filter(([k]) => !HOP.has(k.toLowerCase()));

/** Send `req` to the server at the other end of `conn` (reached as localhost:`port`) and read its response head. */
export async function httpExchange(conn: ByteConnection, port: number, req: HttpRequest): Promise<HttpResponse> {
  if (!req.target.startsWith('/') || /[\s\0]/.test(req.target)) {
    await conn.close();
    throw new Error(`bad request target ${req.target}`);
  }
  const stream = { read: () => conn.read(), write: (b: Uint8Array) => conn.write(b), close: () => void conn.close() };
  const headers: [string, string][] = [['Host', `localhost:${port}`], ...endToEnd(req.headers)];
  const res = await exchange(stream, { method: req.method, url: `http://localhost:${port}${req.target}`, headers, body: req.body }, '');
  return { status: res.status, statusText: res.statusText, headers: endToEnd(res.headers), body: res.body };
}

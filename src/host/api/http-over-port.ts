// One HTTP/1.1 exchange over a connection into the VM (a browser preview:
// the service worker hands the page a fetch, the page speaks HTTP to the VM's
// server). The request goes as its line, headers and body with
// `Connection: close`; the response's status line and headers are parsed, and
// its body comes as it arrives (Content-Length, chunked, or until the server
// closes). No DOM: the same code runs, and is tested, on Node.

import { concatBytes } from '../../abi/bytes.js';

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

/** Headers of one hop, not forwarded (RFC 9110, 7.6.1), and the ones this side sets itself. */
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host', 'content-length']);
/** A response head this long without its end is not HTTP. */
const MAX_HEAD = 64 * 1024;

const enc = new TextEncoder();
const latin1 = new TextDecoder('latin1');

export class HttpError extends Error {}

/** Send `req` to the server at the other end of `conn` (reached as localhost:`port`) and read its response head. */
export async function httpExchange(conn: ByteConnection, port: number, req: HttpRequest): Promise<HttpResponse> {
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(req.method)) throw new HttpError(`bad method ${req.method}`);
  if (!req.target.startsWith('/') || /[\s\0]/.test(req.target)) throw new HttpError(`bad request target ${req.target}`);
  const lines = [`${req.method} ${req.target} HTTP/1.1`, `Host: localhost:${port}`];
  for (const [k, v] of req.headers) if (!HOP.has(k.toLowerCase()) && !/[\r\n]/.test(k + v)) lines.push(`${k}: ${v}`);
  if (req.body || !['GET', 'HEAD'].includes(req.method)) lines.push(`Content-Length: ${req.body?.byteLength ?? 0}`);
  lines.push('Connection: close', '', '');
  try {
    await conn.write(concatBytes([enc.encode(lines.join('\r\n')), req.body ?? new Uint8Array(0)]));
    return await response(new Reader(conn), req.method);
  } catch (e) {
    await conn.close();
    throw e;
  }
}

async function response(r: Reader, method: string): Promise<HttpResponse> {
  for (;;) {
    const head = await r.head();
    const [statusLine, ...fields] = head.split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(statusLine);
    if (!m) throw new HttpError(`not an HTTP response: ${JSON.stringify(statusLine.slice(0, 80))}`);
    const status = Number(m[1]);
    if (status >= 100 && status < 200) continue; // 100 Continue and the like: the answer follows
    const headers = fields.map((f): [string, string] => {
      const colon = f.indexOf(':');
      if (colon <= 0) throw new HttpError(`bad header line ${JSON.stringify(f.slice(0, 80))}`);
      return [f.slice(0, colon).trim(), f.slice(colon + 1).trim()];
    });
    const get = (name: string) => headers.find(([k]) => k.toLowerCase() === name)?.[1];
    const noBody = method === 'HEAD' || status === 204 || status === 304;
    const chunked = /(^|,)\s*chunked\s*$/i.test(get('transfer-encoding') ?? '');
    const length = get('content-length');
    if (!chunked && length !== undefined && !/^\d+$/.test(length)) throw new HttpError(`bad Content-Length ${length}`);
    const body = noBody ? r.none() : chunked ? r.chunked() : length !== undefined ? r.exactly(Number(length)) : r.untilEnd();
    return { status, statusText: m[2] ?? '', headers: headers.filter(([k]) => !HOP.has(k.toLowerCase())), body };
  }
}

/** Where ASCII `mark` starts in the first `limit` bytes of `b`, or -1. */
function find(b: Uint8Array, mark: string, limit: number): number {
  const end = Math.min(b.byteLength, limit) - mark.length;
  outer: for (let i = 0; i <= end; i++) {
    for (let j = 0; j < mark.length; j++) if (b[i + j] !== mark.charCodeAt(j)) continue outer;
    return i;
  }
  return -1;
}

/** The response's bytes, read as needed; the connection closes when the body is done or abandoned. */
class Reader {
  private buf: Uint8Array = new Uint8Array(0);
  private eof = false;

  constructor(private readonly conn: ByteConnection) {}

  private async more(): Promise<boolean> {
    if (this.eof) return false;
    const b = await this.conn.read();
    if (!b.byteLength) {
      this.eof = true;
      return false;
    }
    this.buf = this.buf.byteLength ? concatBytes([this.buf, b]) : b;
    return true;
  }

  private take(n: number): Uint8Array {
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }

  /** Up to the end of a line (CRLF) or of a head (CRLF CRLF), as text. */
  private async until(mark: string, max: number): Promise<string> {
    for (;;) {
      const at = find(this.buf, mark, max + mark.length);
      if (at >= 0) return latin1.decode(this.take(at + mark.length)).slice(0, at);
      if (this.buf.byteLength > max) throw new HttpError('the response head is too long');
      if (!(await this.more())) throw new HttpError('the server closed the connection before its response was complete');
    }
  }

  head(): Promise<string> {
    return this.until('\r\n\r\n', MAX_HEAD);
  }

  async *none(): AsyncGenerator<Uint8Array, void, undefined> {
    await this.conn.close();
    yield* [];
  }

  async *exactly(n: number): AsyncGenerator<Uint8Array, void, undefined> {
    try {
      while (n > 0) {
        if (!this.buf.byteLength && !(await this.more())) throw new HttpError('the server closed the connection before the body was complete');
        const b = this.take(Math.min(n, this.buf.byteLength));
        n -= b.byteLength;
        yield b;
      }
    } finally {
      await this.conn.close();
    }
  }

  async *untilEnd(): AsyncGenerator<Uint8Array, void, undefined> {
    try {
      if (this.buf.byteLength) yield this.take(this.buf.byteLength);
      while (await this.more()) yield this.take(this.buf.byteLength);
    } finally {
      await this.conn.close();
    }
  }

  async *chunked(): AsyncGenerator<Uint8Array, void, undefined> {
    try {
      for (;;) {
        const size = /^([0-9a-fA-F]+)(;.*)?$/.exec(await this.until('\r\n', 1024));
        if (!size) throw new HttpError('bad chunk size');
        let n = parseInt(size[1], 16);
        if (n === 0) {
          while ((await this.until('\r\n', MAX_HEAD)) !== ''); // trailers, dropped
          return;
        }
        while (n > 0) {
          if (!this.buf.byteLength && !(await this.more())) throw new HttpError('the server closed the connection inside a chunk');
          const b = this.take(Math.min(n, this.buf.byteLength));
          n -= b.byteLength;
          yield b;
        }
        if ((await this.until('\r\n', 2)) !== '') throw new HttpError('a chunk does not end with CRLF');
      }
    } finally {
      await this.conn.close();
    }
  }
}

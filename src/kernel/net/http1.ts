// An HTTP/1.1 client over a byte stream: the kernel's own, for requests it
// serves from the VM's sockets (net/loopback.ts) rather than the host's
// fetch. It writes the request line, the headers and the body (bytes with a
// Content-Length, or streamed chunked from a guest fd), and parses the
// response as RFC 9112 frames it: 1xx heads skipped, no body for HEAD, 204 and
// 304, chunked, Content-Length, or to the close. One request per connection
// (`Connection: close`): the VM's servers are a memory copy away, so keeping
// connections alive would buy nothing. A body cut short is an error, never a
// shorter answer.

import { concatBytes } from '../../abi/bytes.js';
import { Errno, SysError } from '../../abi/errno.js';
import { NetError, type HostRequest, type HostResponse } from './host.js';

/** A connection as the client uses it; read() is empty at the end. */
export interface ByteStream {
  read(): Promise<Uint8Array>;
  write(b: Uint8Array): Promise<void>;
  close(): void;
}

/** A response head longer than this is refused (curl allows 100 KB, Node 16 KiB). */
const MAX_HEAD = 64 * 1024;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[\r\n\0]/;
/** Past one byte: a header value is a byte string (one char per byte, as fetch's Headers), never text to encode. */
const NOT_BYTE = /[\u0100-\uffff]/;
const enc = new TextEncoder();
const SMALL = 64 * 1024;

/** Bytes as ISO-8859-1, how HTTP heads are read (Node's rawHeaders too). */
function latin1(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192));
  return s;
}

function protocolError(what: string): NetError {
  return new NetError(Errno.EPROTO, `Invalid HTTP response: ${what}`);
}

const has = (headers: [string, string][], name: string) => headers.some(([k]) => k.toLowerCase() === name);

/**
 * The request head, and whether the body goes chunked. Headers are sent as
 * the guest gave them (Host first when it gave none), byte for byte: values
 * are byte strings, as fetch's. A name that is not a token or a value with
 * CR, LF or NUL is EINVAL, so no request can smuggle another into the
 * connection; so is a value with a char past 0xFF (it names no byte).
 */
export function requestHead(req: Pick<HostRequest, 'method' | 'url' | 'headers' | 'body'>): { head: Uint8Array; chunked: boolean } {
  if (!TOKEN.test(req.method)) throw new SysError(Errno.EINVAL, `http: bad method '${req.method}'`);
  for (const [k, v] of req.headers) {
    if (!TOKEN.test(k) || BAD_VALUE.test(v) || NOT_BYTE.test(v)) throw new SysError(Errno.EINVAL, `http: bad header '${k.slice(0, 40)}'`);
  }
  const u = new URL(req.url);
  const headers = [...req.headers];
  if (!has(headers, 'host')) headers.unshift(['Host', u.host]);
  const body = req.body;
  let chunked = false;
  if (!has(headers, 'content-length') && !has(headers, 'transfer-encoding')) {
    if (body instanceof Uint8Array) headers.push(['Content-Length', String(body.byteLength)]);
    else if (body) {
      headers.push(['Transfer-Encoding', 'chunked']);
      chunked = true;
    } else if (['POST', 'PUT', 'PATCH'].includes(req.method)) headers.push(['Content-Length', '0']);
  }
  if (!has(headers, 'connection')) headers.push(['Connection', 'close']);
  const text = `${req.method} ${u.pathname}${u.search} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  // The URL's path and query are ASCII (the URL parser percent-encodes the rest).
  return { head: Uint8Array.from(text, (ch) => ch.charCodeAt(0)), chunked };
}

/** What the server sent, read as the parser needs it: lines, then runs of body bytes. */
class Input {
  private buf: Uint8Array = new Uint8Array(0);
  private eof = false;

  constructor(private readonly conn: ByteStream) {}

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

  /** The next line without its CRLF (or bare LF); null at the end of the stream. `max` bounds its length. */
  async line(max: number): Promise<string | null> {
    for (let from = 0; ; ) {
      const nl = this.buf.indexOf(10, from);
      if (nl >= 0) {
        const end = nl > 0 && this.buf[nl - 1] === 13 ? nl - 1 : nl;
        const s = latin1(this.buf.subarray(0, end));
        this.buf = this.buf.subarray(nl + 1);
        return s;
      }
      if (this.buf.byteLength > max) throw protocolError(`a line longer than ${max} bytes`);
      from = this.buf.byteLength;
      if (!(await this.more())) return null;
    }
  }

  /** Up to `max` bytes (what is buffered, else one read); empty at the end. */
  async some(max: number): Promise<Uint8Array> {
    if (!this.buf.byteLength && !(await this.more())) return this.buf;
    const out = this.buf.subarray(0, max);
    this.buf = this.buf.subarray(out.byteLength);
    return out;
  }
}

interface Head {
  status: number;
  statusText: string;
  httpVersion: string;
  headers: [string, string][];
}

async function readHead(input: Input): Promise<Head | null> {
  let budget = MAX_HEAD;
  const next = async (): Promise<string | null> => {
    const l = await input.line(budget);
    if (l !== null) budget -= l.length + 2;
    if (budget < 0) throw protocolError(`a head larger than ${MAX_HEAD} bytes`);
    return l;
  };
  const first = await next();
  if (first === null) return null;
  const m = /^HTTP\/1\.([01]) (\d{3})(?: (.*))?$/.exec(first);
  if (!m) throw protocolError(`'${first.slice(0, 60)}' is not an HTTP/1.x status line`);
  const headers: [string, string][] = [];
  for (;;) {
    const l = await next();
    if (l === null) throw new NetError(Errno.ECONNRESET, 'the server closed the connection in the middle of the response head');
    if (l === '') break;
    // obs-fold: a continuation of the previous header's value.
    if ((l[0] === ' ' || l[0] === '\t') && headers.length) {
      headers[headers.length - 1][1] += ` ${l.trim()}`;
      continue;
    }
    const colon = l.indexOf(':');
    if (colon <= 0 || !TOKEN.test(l.slice(0, colon))) throw protocolError(`bad header line '${l.slice(0, 60)}'`);
    headers.push([l.slice(0, colon), l.slice(colon + 1).trim()]);
  }
  return { status: Number(m[2]), statusText: m[3] ?? '', httpVersion: `1.${m[1]}`, headers };
}

function values(headers: [string, string][], name: string): string[] {
  return headers.filter(([k]) => k.toLowerCase() === name).flatMap(([, v]) => v.split(',').map((s) => s.trim().toLowerCase()));
}

async function* sized(input: Input, length: number, short = (left: number) => new NetError(Errno.EIO, `transfer closed with ${left} bytes remaining to read`)): AsyncGenerator<Uint8Array> {
  for (let left = length; left > 0; ) {
    const b = await input.some(left);
    if (!b.byteLength) throw short(left);
    left -= b.byteLength;
    yield b;
  }
}

async function* toClose(input: Input): AsyncGenerator<Uint8Array> {
  for (let b = await input.some(Infinity); b.byteLength; b = await input.some(Infinity)) yield b;
}

const cut = () => new NetError(Errno.EIO, 'transfer closed with outstanding read data remaining');

async function* chunked(input: Input): AsyncGenerator<Uint8Array> {
  for (;;) {
    const line = await input.line(1024);
    if (line === null) throw cut();
    const hex = line.split(';')[0].trim();
    if (!/^[0-9a-f]{1,12}$/i.test(hex)) throw protocolError(`bad chunk size '${line.slice(0, 40)}'`);
    const size = parseInt(hex, 16);
    if (size === 0) {
      // Trailers, up to the empty line (a server closing instead has sent the whole body).
      for (let t = await input.line(MAX_HEAD); t !== null && t !== ''; t = await input.line(MAX_HEAD));
      return;
    }
    yield* sized(input, size, cut);
    const end = await input.line(2);
    if (end === null) throw cut();
    if (end !== '') throw protocolError('a chunk longer than its size');
  }
}

/** How the body is framed (RFC 9112 section 6.3). */
function bodyOf(input: Input, method: string, head: Head): AsyncGenerator<Uint8Array> | null {
  if (method === 'HEAD' || head.status === 204 || head.status === 304) return null;
  const te = values(head.headers, 'transfer-encoding');
  if (te.length) return te[te.length - 1] === 'chunked' ? chunked(input) : toClose(input);
  const lengths = new Set(values(head.headers, 'content-length'));
  if (lengths.size > 1) throw protocolError('conflicting Content-Length values');
  if (lengths.size === 1) {
    const [n] = lengths;
    if (!/^\d{1,15}$/.test(n)) throw protocolError(`bad Content-Length '${n.slice(0, 20)}'`);
    return Number(n) ? sized(input, Number(n)) : null;
  }
  return toClose(input);
}

/** Write the head and the body; chunked when the body is a stream of unknown length. */
async function send(conn: ByteStream, head: Uint8Array, body: HostRequest['body'], chunk: boolean): Promise<void> {
  if (!body) return conn.write(head);
  // A small body goes with the head: one wake-up of the server instead of two.
  if (body instanceof Uint8Array && body.byteLength <= SMALL) return conn.write(concatBytes([head, body]));
  await conn.write(head);
  if (body instanceof Uint8Array) return conn.write(body);
  for await (const c of body) {
    if (!c.byteLength) continue;
    if (chunk) await conn.write(enc.encode(`${c.byteLength.toString(16)}\r\n`));
    await conn.write(c);
    if (chunk) await conn.write(enc.encode('\r\n'));
  }
  if (chunk) await conn.write(enc.encode('0\r\n\r\n'));
}

/** A write that found the server gone: it may have answered already, so the response decides. */
const serverGone = (e: unknown) => e instanceof SysError && (e.errno === Errno.EPIPE || e.errno === Errno.ECONNRESET);

/**
 * One request on `conn`, which it owns from here: closed once the body is
 * read, on any error, and when the iterator is returned early.
 */
export async function exchange(conn: ByteStream, req: Pick<HostRequest, 'method' | 'url' | 'headers' | 'body'>, remote: string): Promise<HostResponse & { body: AsyncGenerator<Uint8Array> }> {
  let uploadError: unknown = null;
  try {
    const { head: out, chunked: chunk } = requestHead(req);
    // The upload runs beside the response: a server may answer before it has read the body.
    void send(conn, out, req.body, chunk).catch((e: unknown) => {
      if (serverGone(e)) return;
      uploadError = e;
      conn.close();
    });
    const input = new Input(conn);
    let head: Head | null;
    do {
      head = await readHead(input);
      if (!head) throw uploadError ?? new NetError(Errno.ECONNRESET, 'Empty reply from server');
    } while (head.status >= 100 && head.status < 200 && head.status !== 101);
    const body = bodyOf(input, req.method, head);
    if (!body) conn.close();
    return {
      ...head,
      url: req.url,
      remote,
      decoded: false,
      body: body ? closing(body, conn) : (async function* () {})(),
    };
  } catch (e) {
    conn.close();
    throw uploadError ?? e;
  }
}

async function* closing(body: AsyncGenerator<Uint8Array>, conn: ByteStream): AsyncGenerator<Uint8Array> {
  try {
    yield* body;
  } finally {
    conn.close();
  }
}

// The `http` module: HTTP/1.1 servers and clients over `net` sockets, with the
// message parser in http-parser.ts. A server connection parses requests one
// after another (keep-alive, pipelining) and writes the responses in request
// order; a response without a known length is sent chunked. The client opens
// one connection per request (no pooling: it sends `Connection: close`) to a
// server on the VM's loopback; anything else (and https) goes through the
// kernel's http syscall and the network policy (http-kernel.ts).

import { Buffer } from 'buffer';
import { AF_UNIX } from '../../abi/socket.js';
import { EventEmitter } from './events.js';
import { invalidArgType, nodeError } from './errors.js';
import { HttpParseError, HttpParser, type HttpHead } from './http-parser.js';
import { MessageBuffer, kernelExchange, kernelRequest, responseHead } from './http-kernel.js';
import { Server as NetServer, Socket } from './net.js';
import type { Rt } from './rt.js';
import { Readable, Writable } from './stream.js';

type Cb = (err?: Error | null) => void;
type Opts = Record<string, unknown>;
type HeaderValue = string | number | string[];
/** What an outgoing message writes its bytes to. */
interface Sink {
  readonly destroyed: boolean;
  write(data: Uint8Array | string, cb: () => void): unknown;
}

export const STATUS_CODES: Record<number, string> = {
  100: 'Continue', 101: 'Switching Protocols', 102: 'Processing', 103: 'Early Hints', 200: 'OK', 201: 'Created',
  202: 'Accepted', 203: 'Non-Authoritative Information', 204: 'No Content', 205: 'Reset Content', 206: 'Partial Content',
  207: 'Multi-Status', 208: 'Already Reported', 226: 'IM Used', 300: 'Multiple Choices', 301: 'Moved Permanently', 302: 'Found',
  303: 'See Other', 304: 'Not Modified', 305: 'Use Proxy', 307: 'Temporary Redirect', 308: 'Permanent Redirect',
  400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  406: 'Not Acceptable', 407: 'Proxy Authentication Required', 408: 'Request Timeout', 409: 'Conflict', 410: 'Gone',
  411: 'Length Required', 412: 'Precondition Failed', 413: 'Payload Too Large', 414: 'URI Too Long', 415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable', 417: 'Expectation Failed', 418: "I'm a Teapot", 421: 'Misdirected Request', 422: 'Unprocessable Entity',
  423: 'Locked', 424: 'Failed Dependency', 425: 'Too Early', 426: 'Upgrade Required', 428: 'Precondition Required',
  429: 'Too Many Requests', 431: 'Request Header Fields Too Large', 451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported', 506: 'Variant Also Negotiates', 507: 'Insufficient Storage', 508: 'Loop Detected',
  509: 'Bandwidth Limit Exceeded', 510: 'Not Extended', 511: 'Network Authentication Required',
};

export const METHODS = ['ACL', 'BIND', 'CHECKOUT', 'CONNECT', 'COPY', 'DELETE', 'GET', 'HEAD', 'LINK', 'LOCK', 'M-SEARCH', 'MERGE',
  'MKACTIVITY', 'MKCALENDAR', 'MKCOL', 'MOVE', 'NOTIFY', 'OPTIONS', 'PATCH', 'POST', 'PROPFIND', 'PROPPATCH', 'PURGE', 'PUT',
  'QUERY', 'REBIND', 'REPORT', 'SEARCH', 'SOURCE', 'SUBSCRIBE', 'TRACE', 'UNBIND', 'UNLINK', 'UNLOCK', 'UNSUBSCRIBE'];

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What Node refuses in a header value (checkInvalidHeaderChar): controls but tab, and anything past one byte (a value is written as latin1). */
const BAD_HEADER_CHAR = /[^\t\x20-\x7e\x80-\xff]/;
/** Headers whose duplicates Node drops (the first wins); others join with ', ' (cookie with '; ', set-cookie in an array). */
const SINGLE = new Set(['age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host', 'if-modified-since',
  'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'proxy-authorization', 'referer', 'retry-after', 'server', 'user-agent']);

function headersObject(raw: string[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (let i = 0; i < raw.length; i += 2) {
    const k = raw[i].toLowerCase();
    const v = raw[i + 1];
    const had = out[k];
    if (had === undefined) out[k] = k === 'set-cookie' ? [v] : v;
    else if (k === 'set-cookie') (had as string[]).push(v);
    else if (!SINGLE.has(k)) out[k] = `${had as string}${k === 'cookie' ? '; ' : ', '}${v}`;
  }
  return out;
}

/** A request (server side) or a response (client side): the head's fields and the body as a stream. */
export class IncomingMessage extends Readable {
  httpVersion = '1.1';
  httpVersionMajor = 1;
  httpVersionMinor = 1;
  method?: string;
  url = '';
  statusCode?: number;
  statusMessage?: string;
  headers: Record<string, string | string[]> = {};
  rawHeaders: string[] = [];
  trailers: Record<string, string | string[]> = {};
  rawTrailers: string[] = [];
  complete = false;
  aborted = false;
  upgrade = false;

  constructor(readonly socket: Socket) {
    super({ read: () => { if (socket.isPaused()) socket.resume(); } });
  }

  get connection(): Socket { return this.socket; }

  fill(h: HttpHead): void {
    this.httpVersionMajor = h.versionMajor;
    this.httpVersionMinor = h.versionMinor;
    this.httpVersion = `${h.versionMajor}.${h.versionMinor}`;
    this.rawHeaders = h.rawHeaders;
    this.headers = headersObject(h.rawHeaders);
    this.upgrade = h.upgrade;
  }

  /** A body piece; when the reader falls behind the socket stops reading (backpressure). */
  feed(chunk: Uint8Array): void {
    if (!this.push(Buffer.from(chunk))) this.socket.pause();
  }

  setTimeout(ms: number, cb?: () => void): this {
    this.socket.setTimeout(ms, cb);
    return this;
  }
}

/** What ServerResponse and ClientRequest share: headers, the head, and the body's framing. */
export class OutgoingMessage extends Writable {
  headersSent = false;
  sendDate = false;
  chunkedEncoding = false;
  useChunkedEncodingByDefault = true;
  shouldKeepAlive = true;
  socket: Socket | null = null;
  private fields = new Map<string, [string, HeaderValue]>();
  /** How the body is framed, once decided: by length, chunked, or none at all. */
  private framing: 'length' | 'chunked' | 'none' | null = null;
  /** Writes wait here until the socket may be written (connected, or this response's turn). */
  private held: [Uint8Array | string, Cb][] = [];
  private heldFinal: Cb | null = null;
  /** Where the message's bytes go once they may: the socket, or (a request through the kernel) a buffer. */
  private sink: Sink | null = null;
  private head = '';

  constructor() {
    // Not destroyed when finished: a request's socket lives on for its response.
    super({ autoDestroy: false });
  }

  get finished(): boolean { return this.writableEnded; }
  get connection(): Socket | null { return this.socket; }

  setHeader(name: string, value: HeaderValue): this {
    if (this.headersSent) throw nodeError(Error, 'ERR_HTTP_HEADERS_SENT', 'Cannot set headers after they are sent to the client');
    if (typeof name !== 'string' || !TOKEN.test(name)) throw nodeError(TypeError, 'ERR_INVALID_HTTP_TOKEN', `Header name must be a valid HTTP token ["${String(name)}"]`);
    if (value === undefined) throw nodeError(TypeError, 'ERR_HTTP_INVALID_HEADER_VALUE', `Invalid value "undefined" for header "${name}"`);
    for (const v of Array.isArray(value) ? value : [value]) {
      if (BAD_HEADER_CHAR.test(String(v))) throw nodeError(TypeError, 'ERR_INVALID_CHAR', `Invalid character in header content ["${name}"]`);
    }
    this.fields.set(name.toLowerCase(), [name, value]);
    return this;
  }
  appendHeader(name: string, value: HeaderValue): this {
    const had = this.fields.get(name.toLowerCase());
    if (!had) return this.setHeader(name, value);
    return this.setHeader(had[0], [...[had[1]].flat().map(String), ...[value].flat().map(String)]);
  }
  getHeader(name: string): HeaderValue | undefined { return this.fields.get(String(name).toLowerCase())?.[1]; }
  getHeaders(): Record<string, HeaderValue> {
    const o: Record<string, HeaderValue> = Object.create(null);
    for (const [k, [, v]] of this.fields) o[k] = v;
    return o;
  }
  getHeaderNames(): string[] { return [...this.fields.keys()]; }
  getRawHeaderNames(): string[] { return [...this.fields.values()].map(([n]) => n); }
  hasHeader(name: string): boolean { return this.fields.has(String(name).toLowerCase()); }
  removeHeader(name: string): void {
    if (this.headersSent) throw nodeError(Error, 'ERR_HTTP_HEADERS_SENT', 'Cannot remove headers after they are sent to the client');
    this.fields.delete(String(name).toLowerCase());
  }

  /** The first line of the head (the status line or request line). */
  protected startLine(): string { return ''; }
  /** Whether this message may have a body at all (a response to HEAD, 204 and 304 may not). */
  protected hasBody(): boolean { return true; }

  /** Fix the head: the framing from the headers set, or from `length` when the whole body is known. */
  protected storeHead(length: number | null): void {
    if (this.headersSent) return;
    this.headersSent = true;
    const te = String(this.getHeader('transfer-encoding') ?? '');
    if (!this.hasBody()) this.framing = 'none';
    else if (this.hasHeader('content-length')) this.framing = 'length';
    else if (te) this.framing = /chunked\s*$/i.test(te) ? 'chunked' : 'none';
    else if (length !== null && (length > 0 || this.useChunkedEncodingByDefault)) {
      this.setField('Content-Length', length);
      this.framing = 'length';
    } else if (length !== null) this.framing = 'none';
    else if (this.useChunkedEncodingByDefault && this.peerSpeaks11()) {
      this.setField('Transfer-Encoding', 'chunked');
      this.framing = 'chunked';
    } else {
      // An HTTP/1.0 peer and no length: the body ends when the connection does.
      this.framing = 'length';
      this.shouldKeepAlive = false;
    }
    this.chunkedEncoding = this.framing === 'chunked';
    if (!this.hasHeader('connection')) this.setField('Connection', this.shouldKeepAlive ? 'keep-alive' : 'close');
    else if (/close/i.test(String(this.getHeader('connection')))) this.shouldKeepAlive = false;
    if (this.sendDate && !this.hasHeader('date')) this.setField('Date', new Date().toUTCString());
    let head = this.startLine();
    for (const [name, value] of this.fields.values()) for (const v of Array.isArray(value) ? value : [value]) head += `${name}: ${v}\r\n`;
    this.head = head + '\r\n';
  }

  protected peerSpeaks11(): boolean { return true; }

  private setField(name: string, value: HeaderValue): void { this.fields.set(name.toLowerCase(), [name, value]); }

  override write(chunk: unknown, enc?: unknown, cb?: Cb): boolean {
    if (!this.headersSent && chunk !== undefined && !this.writableEnded) this.storeHead(null);
    return super.write(chunk, enc as string, cb);
  }

  override end(chunk?: unknown, enc?: unknown, cb?: Cb): this {
    if (typeof chunk === 'function') [cb, chunk] = [chunk as Cb, undefined];
    if (typeof enc === 'function') [cb, enc] = [enc as Cb, undefined];
    if (!this.headersSent) {
      const len = chunk === undefined || chunk === null ? 0 : typeof chunk === 'string' ? Buffer.byteLength(chunk, (enc as BufferEncoding) ?? 'utf8') : (chunk as Uint8Array).byteLength;
      this.storeHead(len);
    }
    if (chunk !== undefined && chunk !== null) super.write(chunk, enc as string);
    return super.end(cb);
  }

  flushHeaders(): void {
    this.storeHead(null);
    this.send('', () => {});
  }

  override _write(chunk: unknown, _enc: string, cb: Cb): void {
    let data = chunk as Uint8Array;
    if (this.framing === 'none') data = new Uint8Array(0);
    else if (this.framing === 'chunked' && data.byteLength) {
      const framed = Buffer.concat([Buffer.from(`${data.byteLength.toString(16)}\r\n`), data, Buffer.from('\r\n')]);
      data = framed;
    }
    this.send(data, cb);
  }

  override _final(cb: Cb): void {
    this.storeHead(0);
    if (!this.sink) { this.heldFinal = cb; return; }
    this.send(this.framing === 'chunked' ? '0\r\n\r\n' : '', (err) => {
      this.finishedSending();
      cb(err);
    });
  }

  /** The whole message is on the socket. */
  protected finishedSending(): void {}

  /** Write to the socket (the head first, once); held until the socket may be written. */
  private send(data: Uint8Array | string, cb: Cb): void {
    const s = this.sink;
    if (!s) { this.held.push([data, cb]); return; }
    if (this.head) {
      const head = this.head;
      this.head = '';
      data = typeof data === 'string' ? head + data : Buffer.concat([Buffer.from(head, 'latin1'), data]);
    }
    if (!data.length) { cb(); return; }
    if (s.destroyed) { cb(); return; }
    s.write(data, () => cb());
  }

  /** The socket may be written now (or the message goes to `sink`): what was held goes out. */
  attach(socket: Socket, sink: Sink = socket): void {
    this.socket = socket;
    this.sink = sink;
    for (const [d, cb] of this.held.splice(0)) this.send(d, cb);
    const f = this.heldFinal;
    this.heldFinal = null;
    if (f) this._final(f);
  }

  setTimeout(ms: number, cb?: () => void): this {
    if (cb) this.once('timeout', cb);
    this.socket?.setTimeout(ms, () => this.emit('timeout'));
    return this;
  }
}

export class ServerResponse extends OutgoingMessage {
  statusCode = 200;
  statusMessage?: string;
  override sendDate = true;

  constructor(readonly req: IncomingMessage, keepAlive: boolean) {
    super();
    this.shouldKeepAlive = keepAlive;
    this.once('finish', () => this.emit('close'));
  }

  writeHead(code: number, msg?: unknown, headers?: unknown): this {
    if (this.headersSent) throw nodeError(Error, 'ERR_HTTP_HEADERS_SENT', 'Cannot write headers after they are sent to the client');
    if (!Number.isInteger(code) || code < 100 || code > 999) throw nodeError(RangeError, 'ERR_HTTP_INVALID_STATUS_CODE', `Invalid status code: ${code}`);
    if (typeof msg !== 'string') [headers, msg] = [msg, undefined];
    this.statusCode = code;
    if (msg !== undefined) this.statusMessage = msg as string;
    if (Array.isArray(headers)) {
      const flat = Array.isArray(headers[0]) ? (headers as unknown[][]).flat() : headers;
      for (let i = 0; i < flat.length; i += 2) this.appendHeader(String(flat[i]), flat[i + 1] as HeaderValue);
    } else if (headers) for (const [k, v] of Object.entries(headers as Opts)) if (v !== undefined) this.setHeader(k, v as HeaderValue);
    this.storeHead(null);
    return this;
  }

  writeContinue(): void { this.socket?.write('HTTP/1.1 100 Continue\r\n\r\n'); }
  writeProcessing(): void { this.socket?.write('HTTP/1.1 102 Processing\r\n\r\n'); }

  protected override startLine(): string {
    const code = this.statusCode;
    return `HTTP/1.1 ${code} ${this.statusMessage ?? STATUS_CODES[code] ?? 'unknown'}\r\n`;
  }
  protected override hasBody(): boolean {
    return this.req.method !== 'HEAD' && this.statusCode !== 204 && this.statusCode !== 304 && this.statusCode >= 200;
  }
  protected override peerSpeaks11(): boolean { return this.req.httpVersionMinor >= 1; }
  protected override finishedSending(): void { this.emit('sent'); }
}

/** One server connection: parse requests, queue their responses in order, keep the connection alive or end it. */
function serveConnection(server: HttpServer, socket: Socket): void {
  const queue: ServerResponse[] = [];
  let req: IncomingMessage | null = null;
  const state = { idle: true };
  server.idle.set(socket, state);
  const next = () => {
    state.idle = queue.length === 0 && req === null;
    if (queue[0]) queue[0].attach(socket);
    else if (state.idle && (server.closing || socket.readableEnded)) socket.destroySoon();
    // An idle keep-alive connection is closed after keepAliveTimeout, as Node's server does.
    else if (state.idle) socket.setTimeout(server.keepAliveTimeout);
  };
  const parser = new HttpParser('request', {
    head(h) {
      const r = (req = new IncomingMessage(socket));
      r.fill(h);
      r.method = h.method;
      r.url = h.url;
      if (state.idle) socket.setTimeout(server.timeout);
      state.idle = false;
      const res = new ServerResponse(r, h.keepAlive && !server.closing);
      queue.push(res);
      res.once('sent', () => {
        queue.shift();
        if (!res.shouldKeepAlive) socket.destroySoon();
        else next();
      });
      if (queue.length === 1) res.attach(socket);
      const expect = String(r.headers.expect ?? '').toLowerCase();
      if (expect === '100-continue') {
        if (server.listenerCount('checkContinue')) server.emit('checkContinue', r, res);
        else { res.writeContinue(); server.emit('request', r, res); }
      } else server.emit('request', r, res);
    },
    body(chunk) { req?.feed(chunk); },
    end(trailers) {
      const r = req!;
      req = null;
      r.rawTrailers = trailers;
      r.trailers = headersObject(trailers);
      r.complete = true;
      r.push(null);
      if (!queue.length) next();
    },
  });
  socket.on('data', (chunk) => {
    const d = chunk as Uint8Array;
    try {
      parser.execute(d);
    } catch (e) {
      if (!(e instanceof HttpParseError)) throw e;
      const err = Object.assign(e, { rawPacket: Buffer.from(d) });
      if (server.listenerCount('clientError')) server.emit('clientError', err, socket);
      else {
        const code = e.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
        socket.write(`HTTP/1.1 ${code} ${STATUS_CODES[code]}\r\nConnection: close\r\n\r\n`);
        socket.destroySoon();
      }
    }
  });
  socket.on('end', () => {
    try { parser.finish(); } catch { /* a half-sent request: nothing to answer */ }
    if (state.idle || req) socket.destroySoon();
  });
  socket.on('error', (err) => {
    const e = err as Error;
    if (server.listenerCount('clientError')) server.emit('clientError', e, socket);
    else socket.destroy();
  });
  socket.on('close', () => {
    server.idle.delete(socket);
    if (req && !req.complete) {
      req.aborted = true;
      req.emit('aborted');
      req.destroy();
    }
    for (const res of queue) res.destroy();
  });
  socket.setTimeout(server.timeout);
  socket.on('timeout', () => {
    if (state.idle || !server.emit('timeout', socket)) socket.destroy();
  });
}

export class HttpServer extends NetServer {
  timeout = 0;
  keepAliveTimeout = 5000;
  headersTimeout = 60000;
  requestTimeout = 300000;
  maxHeadersCount: number | null = null;
  closing = false;
  /** Every connection with whether it is between requests (closeIdleConnections closes those). */
  readonly idle = new Map<Socket, { idle: boolean }>();

  constructor(rt: Rt, opts?: unknown, listener?: unknown) {
    // Server connections are half-open: a client may end its side and still read the response.
    super(rt, () => new Socket(rt, { allowHalfOpen: true }));
    if (typeof opts === 'function') listener = opts;
    if (typeof listener === 'function') this.on('request', listener as () => void);
    this.on('connection', (s) => serveConnection(this, s as Socket));
  }

  override close(cb?: Cb): this {
    this.closing = true;
    this.closeIdleConnections();
    super.close(cb);
    return this;
  }

  override listen(...args: unknown[]): this {
    this.closing = false;
    return super.listen(...args);
  }

  closeIdleConnections(): void {
    for (const [s, st] of this.idle) if (st.idle) s.destroy();
  }
  closeAllConnections(): void {
    for (const s of this.idle.keys()) s.destroy();
  }
  setTimeout(ms: number, cb?: () => void): this {
    this.timeout = ms;
    if (cb) this.on('timeout', cb);
    return this;
  }
}

/** Node's Agent is accepted for compatibility; the client does not pool connections. */
export class Agent extends EventEmitter {
  readonly options: Opts;
  keepAlive: boolean;
  maxSockets = Infinity;
  defaultPort = 80;
  protocol = 'http:';
  readonly sockets: Record<string, Socket[]> = {};
  readonly freeSockets: Record<string, Socket[]> = {};
  readonly requests: Record<string, ClientRequest[]> = {};
  constructor(opts: Opts = {}) {
    super();
    this.options = opts;
    this.keepAlive = !!opts.keepAlive;
  }
  destroy(): void {}
}

/** The names and addresses of the VM's own loopback, which the VM's sockets answer. */
const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|::1)$/;

/** Node's "socket hang up": the connection ended before a whole response. */
const hangUp = (): Error => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

export class ClientRequest extends OutgoingMessage {
  method: string;
  path: string;
  host: string;
  port: number;
  protocol = 'http:';
  res: IncomingMessage | null = null;
  aborted = false;
  reusedSocket = false;
  maxHeadersCount: number | null = null;
  /** Set when the request goes through the kernel's http syscall rather than a VM socket. */
  private kernel: MessageBuffer | null = null;
  private unixSocket = false;

  constructor(private rt: Rt, input: unknown, options?: unknown, cb?: unknown, expected: 'http:' | 'https:' = 'http:') {
    super();
    let o: Opts = {};
    if (typeof input === 'string' || input instanceof URL) {
      let u: URL;
      try { u = new URL(String(input)); } catch { throw nodeError(TypeError, 'ERR_INVALID_URL', 'Invalid URL'); }
      o = { protocol: u.protocol, hostname: u.hostname, port: u.port, path: u.pathname + u.search, auth: u.username ? `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}` : undefined };
      if (typeof options === 'function') [cb, options] = [options, undefined];
      if (options && typeof options === 'object') o = { ...o, ...(options as Opts) };
    } else if (input && typeof input === 'object') {
      o = { ...(input as Opts) };
      if (typeof options === 'function') cb = options;
    } else throw invalidArgType('options', 'of type string or an instance of URL', input);
    const protocol = String(o.protocol ?? expected);
    if (protocol !== expected) throw nodeError(TypeError, 'ERR_INVALID_PROTOCOL', `Protocol "${protocol}" not supported. Expected "${expected}"`);
    this.protocol = protocol;
    const defaultPort = Number((o.agent as Agent | undefined)?.defaultPort ?? o.defaultPort ?? (protocol === 'https:' ? 443 : 80));
    this.method = String(o.method ?? 'GET').toUpperCase();
    if (!TOKEN.test(this.method)) throw nodeError(TypeError, 'ERR_INVALID_HTTP_TOKEN', `Method must be a valid HTTP token ["${this.method}"]`);
    this.path = String(o.path ?? '/');
    // eslint-disable-next-line no-control-regex -- as Node: no controls or spaces in a path
    if (/[\x00-\x20]/.test(this.path)) throw nodeError(TypeError, 'ERR_UNESCAPED_CHARACTERS', 'Request path contains unescaped characters');
    this.host = String(o.hostname ?? o.host ?? 'localhost').replace(/^\[(.*)\]$/, '$1');
    this.port = o.port === undefined || o.port === '' || o.port === null ? defaultPort : Number(o.port);
    this.useChunkedEncodingByDefault = !['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT'].includes(this.method);
    this.shouldKeepAlive = false;
    const headers = o.headers as Opts | string[] | undefined;
    if (Array.isArray(headers)) for (let i = 0; i < headers.length; i += 2) this.appendHeader(headers[i], headers[i + 1]);
    else if (headers) for (const [k, v] of Object.entries(headers)) if (v !== undefined) this.setHeader(k, v as HeaderValue);
    if (o.setHost !== false && !this.hasHeader('host') && o.socketPath === undefined) {
      const h = this.host.includes(':') ? `[${this.host}]` : this.host;
      this.setHeader('Host', this.port === defaultPort ? h : `${h}:${this.port}`);
    }
    if (o.auth && !this.hasHeader('authorization')) this.setHeader('Authorization', `Basic ${Buffer.from(String(o.auth)).toString('base64')}`);
    if (typeof cb === 'function') this.once('response', cb as () => void);

    // Only a server on the VM's loopback is reached through a VM socket; https and anywhere else go through the kernel.
    // (A refused loopback connection falls back to the kernel: 'socket' gives the one in use then.)
    rt.loop.nextTick(() => this.emit('socket', this.socket), []);
    if (o.socketPath === undefined && (protocol === 'https:' || !LOOPBACK.test(this.host))) this.throughKernel();
    else {
      const net = rt.builtin('net') as { connect(o: Opts): Socket };
      this.unixSocket = o.socketPath !== undefined;
      const socket = net.connect(this.unixSocket ? { path: o.socketPath } : { host: this.host, port: this.port, family: o.family });
      this.socket = socket;
      socket.once('connect', () => this.attach(socket));
      this.readResponse(socket);
    }
    if (typeof o.timeout === 'number') this.setTimeout(o.timeout);
  }

  protected override startLine(): string { return `${this.method} ${this.path} HTTP/1.1\r\n`; }

  /** From here the message goes to a buffer, and when it ends, through the kernel's http syscall. */
  private throughKernel(): void {
    const socket = new Socket(this.rt);
    this.kernel = new MessageBuffer();
    this.attach(socket, this.kernel);
  }

  /** The whole request is written: send it, then read the response from the syscall's fd on the request's socket. */
  protected override finishedSending(): void {
    const buffer = this.kernel;
    if (!buffer) return;
    this.rt.loop.nextTick(() => {
      if (this.destroyed) return;
      const socket = this.socket!;
      let res;
      try {
        const host = this.host.includes(':') ? `[${this.host}]` : this.host;
        const origin = `${this.protocol}//${host}${this.port === (this.protocol === 'https:' ? 443 : 80) ? '' : `:${this.port}`}`;
        res = kernelExchange(this.rt.sys, kernelRequest(buffer.bytes(), origin));
      } catch (e) {
        socket.destroy();
        this.emit('error', e);
        this.emit('close');
        return;
      }
      socket.adopt(res.fd, true, { family: AF_UNIX, address: '', port: 0 });
      const msg = new IncomingMessage(socket);
      msg.fill(responseHead(res));
      msg.statusCode = res.status;
      msg.statusMessage = res.statusText;
      this.res = msg;
      let done = false;
      socket.on('data', (chunk) => msg.feed(chunk as Uint8Array));
      socket.on('end', () => {
        done = true;
        msg.complete = true;
        msg.push(null);
        socket.destroy();
      });
      socket.on('error', (err) => msg.destroy(err as Error));
      socket.on('close', () => {
        if (done || msg.destroyed) return;
        msg.aborted = true;
        msg.emit('aborted');
        msg.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
      });
      // As Node's: the request closes after its response has ended (or failed).
      msg.once('close', () => this.emit('close'));
      if (!this.emit('response', msg)) msg.resume();
    }, []);
  }

  private readResponse(socket: Socket): void {
    let res: IncomingMessage | null = null;
    let done = false;
    const parser = new HttpParser('response', {
      head: (h) => {
        if (h.statusCode < 200) {
          // 1xx: an interim response; the real one follows.
          this.emit(h.statusCode === 100 ? 'continue' : 'information', { statusCode: h.statusCode, statusMessage: h.statusMessage, headers: headersObject(h.rawHeaders), rawHeaders: h.rawHeaders });
          return true;
        }
        res = new IncomingMessage(socket);
        res.fill(h);
        res.statusCode = h.statusCode;
        res.statusMessage = h.statusMessage;
        this.res = res;
        if (!this.emit('response', res)) res.resume();
        return this.method === 'HEAD';
      },
      body: (chunk) => res?.feed(chunk),
      end: (trailers) => {
        if (!res) return;
        done = true;
        res.rawTrailers = trailers;
        res.trailers = headersObject(trailers);
        res.complete = true;
        res.push(null);
        socket.end();
      },
    });
    socket.on('data', (chunk) => {
      const d = chunk as Uint8Array;
      try {
        parser.execute(d);
      } catch (e) {
        if (!(e instanceof HttpParseError)) throw e;
        socket.destroy(Object.assign(e, { bytesParsed: 0 }));
      }
    });
    socket.on('end', () => {
      try { parser.finish(); } catch { /* reported as a hang-up when the socket closes */ }
    });
    socket.on('error', (err) => {
      const e = err as Error & { code?: string };
      if (socket !== this.socket) return;
      // Nothing listens there in the VM: the kernel decides whether the host's own loopback may answer (decision 0070).
      if (!res && e.code === 'ECONNREFUSED' && !this.unixSocket) return this.throughKernel();
      if (!res) this.emit('error', e);
      else if (!done) res.destroy(e);
    });
    socket.on('close', (hadError) => {
      if (socket !== this.socket) return;
      if (res && !done) {
        res.aborted = true;
        res.emit('aborted');
        res.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
      } else if (!res && !hadError && !this.aborted) this.emit('error', hangUp());
      this.emit('close');
    });
  }

  abort(): void {
    this.aborted = true;
    this.emit('abort');
    this.destroy();
  }

  override destroy(err?: Error | null): this {
    this.socket?.destroy(err ?? undefined);
    return super.destroy(err);
  }
}

export function makeHttp(rt: Rt) {
  class Server extends HttpServer {
    constructor(opts?: unknown, listener?: unknown) { super(rt, opts, listener); }
  }
  class Request extends ClientRequest {
    constructor(input: unknown, options?: unknown, cb?: unknown) { super(rt, input, options, cb); }
  }
  const request = (input: unknown, options?: unknown, cb?: unknown) => new Request(input, options, cb);
  const globalAgent = new Agent({ keepAlive: true });
  return {
    STATUS_CODES,
    METHODS,
    Agent,
    globalAgent,
    ClientRequest: Request,
    IncomingMessage,
    OutgoingMessage,
    ServerResponse,
    Server,
    createServer: (opts?: unknown, listener?: unknown) => new Server(opts, listener),
    request,
    get: (input: unknown, options?: unknown, cb?: unknown) => {
      const r = request(input, options, cb);
      r.end();
      return r;
    },
    maxHeaderSize: 16384,
    validateHeaderName: (name: string) => {
      if (typeof name !== 'string' || !TOKEN.test(name)) throw nodeError(TypeError, 'ERR_INVALID_HTTP_TOKEN', `Header name must be a valid HTTP token ["${String(name)}"]`);
    },
    validateHeaderValue: (name: string, value: unknown) => {
      if (value === undefined) throw nodeError(TypeError, 'ERR_HTTP_INVALID_HEADER_VALUE', `Invalid value "undefined" for header "${name}"`);
      if (BAD_HEADER_CHAR.test(String(value))) throw nodeError(TypeError, 'ERR_INVALID_CHAR', `Invalid character in header content ["${name}"]`);
    },
  };
}

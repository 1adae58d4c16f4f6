// The `net` module: TCP (the VM's loopback) and AF_UNIX stream sockets on the
// kernel's socket syscalls. Every fd is non-blocking and waits in the event
// loop's poll (decision 0064's plan): a listener for POLLIN to accept until
// EAGAIN, a connection for POLLIN to read and POLLOUT when a write found no
// room, a connect in progress for POLLOUT then SO_ERROR. A watched fd keeps
// the process alive, so a listening server or an open socket does, as in Node.

import { Buffer } from 'buffer';
import { IO_CHUNK } from '../../abi/channel.js';
import { Errno, SysError } from '../../abi/errno.js';
import {
  AF_INET, AF_INET6, AF_UNIX, IPPROTO_TCP, MSG_NOSIGNAL, SHUT_WR, SO_ERROR, SO_KEEPALIVE, SO_REUSEADDR, SOCK_CLOEXEC,
  SOCK_NONBLOCK, SOCK_STREAM, SOL_SOCKET, TCP_NODELAY, type SockAddr,
} from '../../abi/socket.js';
import { EventEmitter } from './events.js';
import { invalidArgType, netError, nodeError } from './errors.js';
import type { Timeout, Watcher } from './loop.js';
import type { Rt } from './rt.js';
import { Duplex } from './stream.js';

const POLLIN = 1, POLLOUT = 4;
type Cb = (err?: Error | null) => void;
type Opts = Record<string, unknown>;

const V4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
export const isIPv4 = (s: unknown): boolean => typeof s === 'string' && V4.test(s);
export const isIPv6 = (s: unknown): boolean => {
  if (typeof s !== 'string' || !s.includes(':') || !/^[0-9a-fA-F:.]+$/.test(s)) return false;
  const parts = s.split('::');
  if (parts.length > 2) return false;
  const groups = parts.flatMap((p) => (p ? p.split(':') : []));
  const last = groups[groups.length - 1];
  const v4tail = last !== undefined && last.includes('.');
  if (v4tail && !isIPv4(last)) return false;
  const n = groups.length + (v4tail ? 1 : 0);
  if (!groups.every((g, i) => (v4tail && i === groups.length - 1) || /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  return parts.length === 2 ? n < 8 : n === 8;
};
export const isIP = (s: unknown): number => (isIPv4(s) ? 4 : isIPv6(s) ? 6 : 0);

const familyName = (a: SockAddr): string => (a.family === AF_INET6 ? 'IPv6' : 'IPv4');

/** The addresses to try for a host, in order: `localhost` is 127.0.0.1 then ::1 (there is no resolver in the VM). */
function resolve(host: string): SockAddr[] | null {
  if (host === 'localhost' || host === '') return [{ family: AF_INET, address: '127.0.0.1', port: 0 }, { family: AF_INET6, address: '::1', port: 0 }];
  if (isIPv4(host)) return [{ family: AF_INET, address: host, port: 0 }];
  const h = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIPv6(h)) return [{ family: AF_INET6, address: h, port: 0 }];
  return null;
}

/** Node's error for a name it cannot look up. */
function notFound(host: string): Error {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { errno: -3008, code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: host });
}

function checkPort(p: unknown): number {
  const n = typeof p === 'string' && p.trim() !== '' ? Number(p) : p;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 65535) {
    throw nodeError(RangeError, 'ERR_SOCKET_BAD_PORT', `Port should be >= 0 and < 65536. Received ${typeof p === 'string' ? `type string ('${p}')` : String(p)}.`);
  }
  return n;
}

const errnoOf = (e: unknown): number => {
  if (e instanceof SysError) return e.errno;
  throw e;
};

/** Node's Socket: a Duplex over one socket fd. */
export class Socket extends Duplex {
  fd = -1;
  connecting = false;
  pending = true;
  bytesRead = 0;
  private sent = 0;
  /** The addresses, fetched when first asked for (two syscalls a connection would mostly not need). */
  private peer: SockAddr | null | undefined;
  private me: SockAddr | null | undefined;
  /** The server that accepted this connection (it counts its connections). */
  server: Server | null = null;
  private reader: Watcher | null = null;
  private writer: Watcher | null = null;
  /** The write under way: what is left of it, and its callback when all is sent. */
  private out: { data: Uint8Array; cb: Cb } | null = null;
  private finalCb: Cb | null = null;
  private refed = true;
  private idle: Timeout | null = null;
  private unix = false;
  private wantRead = false;

  constructor(private rt: Rt, opts: Opts = {}) {
    super({ allowHalfOpen: !!opts.allowHalfOpen, highWaterMark: opts.highWaterMark as number | undefined });
    // Without allowHalfOpen, the peer's end (once read) ends this side too.
    this.on('end', () => { if (!this.allowHalfOpen && this.writable) this.end(); });
  }

  /** Wrap an fd accept(2) answered (with the peer's address): connected and reading at once. */
  adopt(fd: number, unix: boolean, peer: SockAddr): this {
    this.fd = fd;
    this.unix = unix;
    this.peer = unix ? null : peer;
    this.established();
    return this;
  }

  private addr(which: 'peer' | 'me'): SockAddr | null {
    if (this[which] === undefined && this.fd >= 0 && !this.connecting) {
      if (this.unix) this[which] = null;
      else try { this[which] = which === 'peer' ? this.rt.sys.getpeername(this.fd) : this.rt.sys.getsockname(this.fd); } catch { return null; }
    }
    return this[which] ?? null;
  }
  get remoteAddress(): string | undefined { return this.addr('peer')?.address; }
  get remotePort(): number | undefined { return this.addr('peer')?.port; }
  get remoteFamily(): string | undefined { const a = this.addr('peer'); return a ? familyName(a) : undefined; }
  get localAddress(): string | undefined { return this.addr('me')?.address; }
  get localPort(): number | undefined { return this.addr('me')?.port; }
  get localFamily(): string | undefined { const a = this.addr('me'); return a ? familyName(a) : undefined; }

  get bytesWritten(): number { return this.sent; }
  get readyState(): string {
    if (this.connecting) return 'opening';
    if (this.destroyed || this.fd < 0) return 'closed';
    if (this.readable && this.writable) return 'open';
    return this.readable ? 'readOnly' : 'writeOnly';
  }

  connect(...args: unknown[]): this {
    let o: Opts;
    let cb: unknown;
    if (Array.isArray(args[0])) args = args[0] as unknown[]; // connect([options, cb]) from net.connect
    if (args[0] !== null && typeof args[0] === 'object') [o, cb] = [args[0] as Opts, args[1]];
    else if (typeof args[0] === 'string' && !/^\d+$/.test(args[0])) [o, cb] = [{ path: args[0] }, args[1]];
    else if (typeof args[1] === 'function') [o, cb] = [{ port: args[0] }, args[1]];
    else [o, cb] = [{ port: args[0], host: args[1] }, args[2]];
    if (typeof cb === 'function') this.once('connect', cb as () => void);
    if (this.fd >= 0 || this.connecting) throw netError(Errno.EISCONN, 'connect');
    this.connecting = true;
    if (o.path !== undefined) {
      this.unix = true;
      this.attempt([{ family: AF_UNIX, address: String(o.path), port: 0 }]);
      return this;
    }
    const port = checkPort(o.port);
    const host = o.host === undefined ? 'localhost' : String(o.host);
    const addrs = resolve(host);
    if (!addrs) {
      this.rt.loop.nextTick(() => this.destroy(notFound(host)), []);
      return this;
    }
    const family = Number(o.family ?? 0);
    const pick = family === 4 || family === 6 ? addrs.filter((a) => (a.family === AF_INET6) === (family === 6)) : addrs;
    this.attempt((pick.length ? pick : addrs).map((a) => ({ ...a, port })));
    return this;
  }

  /** Try each address until one connects; ECONNREFUSED moves on to the next (localhost's two), the first one's error is reported. */
  private attempt(addrs: SockAddr[], first?: [number, SockAddr]): void {
    const sys = this.rt.sys;
    const addr = addrs[0];
    const fail = (errno: number) => {
      this.closeFd();
      const [no, at] = first ?? [errno, addr];
      if (errno === Errno.ECONNREFUSED && addrs.length > 1) return this.attempt(addrs.slice(1), [no, at]);
      this.destroy(netError(no, 'connect', at.address, at.family === AF_UNIX ? undefined : at.port));
    };
    try {
      this.fd = sys.socket(addr.family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC);
    } catch (e) {
      const errno = errnoOf(e);
      this.rt.loop.nextTick(() => this.destroy(netError(errno, 'connect')), []);
      return;
    }
    try {
      sys.connect(this.fd, addr);
    } catch (e) {
      const errno = errnoOf(e);
      if (errno !== Errno.EINPROGRESS) {
        // Reported on the next tick, as Node does, so listeners added after connect() see it.
        this.rt.loop.nextTick(() => fail(errno), []);
        return;
      }
      this.writer = this.watch(POLLOUT, () => {
        this.unwatch('writer');
        const err = sys.getsockopt(this.fd, SOL_SOCKET, SO_ERROR);
        if (err) fail(err);
        else this.established();
      });
      return;
    }
    this.rt.loop.nextTick(() => this.established(), []);
  }

  /** Connected: addresses known, 'connect' and 'ready', reading starts, writes held back go out. */
  private established(): void {
    if (this.destroyed) return;
    const wasConnecting = this.connecting;
    this.connecting = false;
    this.pending = false;
    if (wasConnecting) {
      this.emit('connect');
      this.emit('ready');
    }
    if (this.out) this.flushOut();
    if (this.finalCb) this._final(this.finalCb);
    // Reading starts at once, as Node's does (a read asked for while connecting waited for this).
    if (this.wantRead) this._read();
    else this.read(0);
  }

  private watch(events: number, ready: (revents: number) => void): Watcher {
    const w: Watcher = { fd: this.fd, events, refed: this.refed, ready };
    this.rt.loop.watchers.add(w);
    return w;
  }

  private unwatch(which: 'reader' | 'writer'): void {
    const w = this[which];
    if (w) this.rt.loop.watchers.delete(w);
    this[which] = null;
  }

  override _read(): void {
    if (this.connecting) { this.wantRead = true; return; }
    if (this.fd < 0 || this.reader) return;
    this.reader = this.watch(POLLIN, () => this.pull());
  }

  /** The fd is readable: take what it holds (a few reads at most, so one busy peer cannot starve the rest). */
  private pull(): void {
    for (let i = 0; i < 4 && this.reader; i++) {
      let data: Uint8Array;
      try {
        data = this.rt.sys.read(this.fd);
      } catch (e) {
        const errno = errnoOf(e);
        if (errno !== Errno.EAGAIN) this.destroy(netError(errno, 'read'));
        return;
      }
      this.idle?.refresh();
      if (data.byteLength === 0) {
        this.unwatch('reader');
        this.push(null);
        return;
      }
      this.bytesRead += data.byteLength;
      if (!this.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength))) {
        this.unwatch('reader');
        return;
      }
      // A short read took everything queued: poll says when more comes (saves a syscall answering EAGAIN).
      if (data.byteLength < IO_CHUNK) return;
    }
  }

  override _write(chunk: unknown, _enc: string, cb: Cb): void {
    this.out = { data: chunk as Uint8Array, cb };
    if (!this.connecting) this.flushOut();
  }

  /** Send what is left of the current write; without room, wait for POLLOUT. */
  private flushOut(): void {
    const out = this.out!;
    while (out.data.byteLength) {
      let n: number;
      try {
        n = this.rt.sys.sendto(this.fd, out.data, MSG_NOSIGNAL);
      } catch (e) {
        const errno = errnoOf(e);
        if (errno === Errno.EAGAIN) {
          this.writer ??= this.watch(POLLOUT, () => this.flushOut());
          return;
        }
        this.unwatch('writer');
        this.out = null;
        out.cb(netError(errno, 'write'));
        return;
      }
      this.sent += n;
      out.data = out.data.subarray(n);
    }
    this.idle?.refresh();
    this.unwatch('writer');
    this.out = null;
    out.cb();
  }

  override _final(cb: Cb): void {
    if (this.connecting) { this.finalCb = cb; return; }
    this.finalCb = null;
    try {
      if (this.fd >= 0) this.rt.sys.shutdown(this.fd, SHUT_WR);
    } catch { /* the peer is gone; closing says the rest */ }
    cb();
  }

  override _destroy(err: Error | null, cb: Cb): void {
    this.connecting = false;
    this.closeFd();
    this.idle?.close();
    this.idle = null;
    this.server?.dropConnection(this);
    cb(err);
  }

  private closeFd(): void {
    this.unwatch('reader');
    this.unwatch('writer');
    if (this.fd < 0) return;
    try { this.rt.sys.close(this.fd); } catch { /* already closed */ }
    this.fd = -1;
  }

  /** 'close' carries hadError, as Node's socket's does. */
  override emit(name: string | symbol, ...args: unknown[]): boolean {
    if (name === 'close' && args.length === 0) return super.emit('close', this.errored !== null);
    return super.emit(name, ...args);
  }

  address(): { address: string; family: string; port: number } | Record<string, never> {
    const a = this.addr('me');
    return a ? { address: a.address, family: familyName(a), port: a.port } : {};
  }

  setTimeout(ms: number, cb?: () => void): this {
    this.idle?.close();
    this.idle = null;
    if (cb) this.once('timeout', cb);
    if (ms > 0) this.idle = this.rt.loop.setTimer(() => this.emit('timeout'), ms, [], false).unref();
    return this;
  }

  setNoDelay(on = true): this { return this.opt(IPPROTO_TCP, TCP_NODELAY, on); }
  setKeepAlive(on = false): this { return this.opt(SOL_SOCKET, SO_KEEPALIVE, on); }
  private opt(level: number, name: number, on: boolean): this {
    if (this.fd >= 0 && !this.unix) try { this.rt.sys.setsockopt(this.fd, level, name, on ? 1 : 0); } catch { /* as Node: ignored */ }
    return this;
  }

  ref(): this { return this.setRef(true); }
  unref(): this { return this.setRef(false); }
  private setRef(on: boolean): this {
    this.refed = on;
    for (const w of [this.reader, this.writer]) if (w) w.refed = on;
    return this;
  }

  /** End the writing side, then close once everything is sent. */
  destroySoon(): void {
    if (this.writable) this.end();
    if (this.writableFinished) this.destroy();
    else this.once('finish', () => this.destroy());
  }
  resetAndDestroy(): this { return this.destroy(); }
}

/** Node's Server: a listening socket that emits 'connection' with a Socket per accepted fd. */
export class Server extends EventEmitter {
  listening = false;
  maxConnections?: number;
  private fd = -1;
  private acceptor: Watcher | null = null;
  private path: string | null = null;
  private unix = false;
  private refed = true;
  private closeWaiters = 0;
  readonly connections = new Set<Socket>();

  constructor(protected rt: Rt, private makeSocket: () => Socket, opts?: unknown, listener?: unknown) {
    super();
    if (typeof opts === 'function') listener = opts;
    if (typeof listener === 'function') this.on('connection', listener as () => void);
  }

  listen(...args: unknown[]): this {
    const cb = typeof args[args.length - 1] === 'function' ? (args.pop() as () => void) : undefined;
    let o: Opts;
    if (args[0] !== null && typeof args[0] === 'object') o = args[0] as Opts;
    else if (typeof args[0] === 'string' && !/^\d+$/.test(args[0])) o = { path: args[0], backlog: args[1] };
    else o = { port: args[0], host: typeof args[1] === 'string' ? args[1] : undefined, backlog: typeof args[1] === 'number' ? args[1] : args[2] };
    if (this.listening) throw nodeError(Error, 'ERR_SERVER_ALREADY_LISTEN', 'Listen method has been called more than once without closing.');
    if (cb) this.once('listening', cb);
    const backlog = typeof o.backlog === 'number' ? o.backlog : 511;
    let addr: SockAddr;
    if (o.path !== undefined) addr = { family: AF_UNIX, address: String(o.path), port: 0 };
    else {
      const port = o.port === undefined || o.port === null ? 0 : checkPort(o.port);
      const host = o.host === undefined || o.host === null ? '::' : String(o.host);
      const found = resolve(host);
      if (!found) {
        this.rt.loop.nextTick(() => this.emit('error', notFound(host)), []);
        return this;
      }
      addr = { ...found[0], port };
    }
    const sys = this.rt.sys;
    try {
      this.fd = sys.socket(addr.family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (addr.family !== AF_UNIX) sys.setsockopt(this.fd, SOL_SOCKET, SO_REUSEADDR, 1);
      sys.bind(this.fd, addr);
      sys.listen(this.fd, backlog);
    } catch (e) {
      const errno = errnoOf(e);
      if (this.fd >= 0) try { sys.close(this.fd); } catch { /* nothing to undo */ }
      this.fd = -1;
      this.rt.loop.nextTick(() => this.emit('error', netError(errno, 'listen', addr.address, addr.family === AF_UNIX ? undefined : addr.port)), []);
      return this;
    }
    this.unix = addr.family === AF_UNIX;
    this.path = addr.family === AF_UNIX && !addr.address.startsWith('\0') ? addr.address : null;
    this.listening = true;
    this.acceptor = { fd: this.fd, refed: this.refed, ready: () => this.acceptAll() };
    this.rt.loop.watchers.add(this.acceptor);
    this.rt.loop.nextTick(() => this.emit('listening'), []);
    return this;
  }

  /** Accept until EAGAIN (at most a batch per wake-up, so the loop stays fair). */
  private acceptAll(): void {
    for (let i = 0; i < 128 && this.listening; i++) {
      let fd: number, peer: SockAddr;
      try {
        [fd, peer] = this.rt.sys.accept(this.fd, SOCK_NONBLOCK | SOCK_CLOEXEC);
      } catch (e) {
        const errno = errnoOf(e);
        if (errno !== Errno.EAGAIN) this.emit('error', netError(errno, 'accept'));
        return;
      }
      if (this.maxConnections !== undefined && this.connections.size >= this.maxConnections) {
        try { this.rt.sys.close(fd); } catch { /* gone */ }
        continue;
      }
      const s = this.makeSocket();
      s.server = this;
      this.connections.add(s);
      s.adopt(fd, this.unix, peer);
      this.emit('connection', s);
    }
  }

  /** A connection closed: a closing server ends when its last one does. */
  dropConnection(s: Socket): void {
    if (!this.connections.delete(s)) return;
    if (!this.listening && this.closeWaiters && this.connections.size === 0) this.finishClose();
  }

  close(cb?: Cb): this {
    if (!this.listening) {
      if (cb) this.rt.loop.nextTick(() => cb(nodeError(Error, 'ERR_SERVER_NOT_RUNNING', 'Server is not running.')), []);
      return this;
    }
    if (cb) this.once('close', () => cb());
    this.listening = false;
    if (this.acceptor) this.rt.loop.watchers.delete(this.acceptor);
    this.acceptor = null;
    try { this.rt.sys.close(this.fd); } catch { /* already closed */ }
    this.fd = -1;
    // As libuv: a unix listener removes its socket file.
    if (this.path) try { this.rt.sys.unlink(this.path); } catch { /* removed already */ }
    this.closeWaiters++;
    if (this.connections.size === 0) this.finishClose();
    return this;
  }

  private finishClose(): void {
    this.closeWaiters = 0;
    this.rt.loop.nextTick(() => this.emit('close'), []);
  }

  address(): string | { address: string; family: string; port: number } | null {
    if (!this.listening) return null;
    if (this.path) return this.path;
    const a = this.rt.sys.getsockname(this.fd);
    if (a.family === AF_UNIX) return a.address;
    return { address: a.address, family: familyName(a), port: a.port };
  }

  getConnections(cb: (err: Error | null, n: number) => void): this {
    this.rt.loop.nextTick(() => cb(null, this.connections.size), []);
    return this;
  }

  ref(): this { return this.setRef(true); }
  unref(): this { return this.setRef(false); }
  private setRef(on: boolean): this {
    this.refed = on;
    if (this.acceptor) this.acceptor.refed = on;
    return this;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return new Promise((r) => { if (this.listening) this.close(() => r()); else r(); });
  }
}

export function makeNet(rt: Rt) {
  class NetSocket extends Socket {
    constructor(opts?: Opts) { super(rt, opts ?? {}); }
  }
  class NetServer extends Server {
    constructor(opts?: unknown, listener?: unknown) { super(rt, () => new NetSocket(typeof opts === 'object' && opts ? (opts as Opts) : {}), opts, listener); }
  }
  const connect = (...args: unknown[]): Socket => {
    const o = args[0] !== null && typeof args[0] === 'object' ? (args[0] as Opts) : {};
    if (args[0] === undefined) throw invalidArgType('options', 'an object', undefined);
    const s = new NetSocket(o);
    if (typeof o.timeout === 'number') s.setTimeout(o.timeout);
    return s.connect(args);
  };
  return {
    Socket: NetSocket,
    Stream: NetSocket,
    Server: NetServer,
    createServer: (opts?: unknown, listener?: unknown) => new NetServer(opts, listener),
    connect,
    createConnection: connect,
    isIP,
    isIPv4,
    isIPv6,
    getDefaultAutoSelectFamily: () => true,
    setDefaultAutoSelectFamily: () => {},
  };
}

export type NetModule = ReturnType<typeof makeNet>;

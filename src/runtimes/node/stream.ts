// The `stream` module: Readable, Writable, Duplex, Transform, PassThrough,
// pipeline and finished — a small implementation of Node's state machines
// (flowing vs paused, highWaterMark backpressure with 'drain', end/finish/close
// ordering, destroy with 'error' then 'close', async iteration).

import { Buffer } from 'buffer';
import { EventEmitter } from './events.js';
import { nodeError } from './errors.js';
import { tick } from './tick.js';

type Cb = (err?: Error | null) => void;
type Chunk = unknown;

interface ReadableOpts {
  read?: (this: Readable, size: number) => void;
  destroy?: (this: Readable, err: Error | null, cb: Cb) => void;
  highWaterMark?: number;
  objectMode?: boolean;
  readableObjectMode?: boolean;
  encoding?: string;
  autoDestroy?: boolean;
  emitClose?: boolean;
}

interface WritableOpts {
  write?: (this: Writable, chunk: Chunk, enc: string, cb: Cb) => void;
  writev?: unknown;
  final?: (this: Writable, cb: Cb) => void;
  destroy?: (this: Writable, err: Error | null, cb: Cb) => void;
  highWaterMark?: number;
  objectMode?: boolean;
  writableObjectMode?: boolean;
  decodeStrings?: boolean;
  defaultEncoding?: string;
  autoDestroy?: boolean;
  emitClose?: boolean;
}

const chunkLen = (c: Chunk, obj: boolean): number => (obj ? 1 : (c as { length: number }).length ?? 1);

interface Destroyable {
  errored: Error | null;
  closed: boolean;
  _destroy(err: Error | null, cb: Cb): void;
  emit(event: string, ...args: unknown[]): boolean;
}

/** The rest of destroy(), readable or writable side: the stream's _destroy, then 'error' (if any) and 'close' on a later tick. */
function finishDestroy(s: Destroyable, err: Error | null | undefined): void {
  s._destroy(err ?? null, (e) => {
    tick(() => {
      if (e) { s.errored = e; s.emit('error', e); }
      s.closed = true;
      s.emit('close');
    });
  });
}

export class Stream extends EventEmitter {
  pipe<T extends Writable>(dest: T, opts?: { end?: boolean }): T {
    return Readable.prototype.pipe.call(this as unknown as Readable, dest, opts) as T;
  }
}

export class Readable extends Stream {
  readable = true;
  destroyed = false;
  readableEnded = false;
  readableFlowing: boolean | null = null;
  readableObjectMode: boolean;
  readableHighWaterMark: number;
  readableEncoding: string | null = null;
  closed = false;
  errored: Error | null = null;
  protected rbuf: Chunk[] = [];
  private rlen = 0;
  private ended = false;
  private reading = false;
  private flowScheduled = false;
  private endEmitted = false;
  private autoDestroyR: boolean;
  private decoder: TextDecoder | null = null;

  constructor(opts: ReadableOpts = {}) {
    super();
    this.readableObjectMode = !!(opts.objectMode || opts.readableObjectMode);
    this.readableHighWaterMark = opts.highWaterMark ?? (this.readableObjectMode ? 16 : 16384);
    this.autoDestroyR = opts.autoDestroy ?? true;
    if (opts.read) this._read = opts.read;
    if (opts.destroy) this._destroy = opts.destroy as never;
    if (opts.encoding) this.setEncoding(opts.encoding);
  }

  get readableLength(): number { return this.rlen; }

  _read(_size: number): void {
    throw nodeError(Error, 'ERR_METHOD_NOT_IMPLEMENTED', 'The _read() method is not implemented');
  }

  push(chunk: Chunk, encoding?: string): boolean {
    if (chunk === null) {
      this.ended = true;
      this.reading = false;
      this.schedule();
      return false;
    }
    if (this.ended) {
      this.destroy(nodeError(Error, 'ERR_STREAM_PUSH_AFTER_EOF', 'stream.push() after EOF'));
      return false;
    }
    if (!this.readableObjectMode) {
      if (typeof chunk === 'string') chunk = Buffer.from(chunk, (encoding ?? 'utf8') as BufferEncoding);
      else if (chunk instanceof Uint8Array && !Buffer.isBuffer(chunk)) chunk = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      if (this.decoder) chunk = this.decoder.decode(chunk as Uint8Array, { stream: true });
      if ((chunk as { length: number }).length === 0) { this.reading = false; return true; }
    }
    this.rbuf.push(chunk);
    this.rlen += chunkLen(chunk, this.readableObjectMode);
    this.reading = false;
    if (this.listenerCount('readable')) tick(() => this.emit('readable'));
    this.schedule();
    return this.rlen < this.readableHighWaterMark;
  }

  unshift(chunk: Chunk): void {
    this.rbuf.unshift(chunk);
    this.rlen += chunkLen(chunk, this.readableObjectMode);
  }

  setEncoding(enc: string): this {
    this.decoder = new TextDecoder(enc === 'utf-8' || enc === 'utf8' ? 'utf-8' : enc);
    this.readableEncoding = enc;
    return this;
  }

  override on(name: string | symbol, l: (...a: unknown[]) => unknown): this {
    super.on(name, l);
    if (name === 'data' && this.readableFlowing !== false) this.resume();
    if (name === 'readable') { this.readableFlowing = false; this.maybeRead(); if (this.rlen || this.ended) tick(() => this.emit('readable')); }
    return this;
  }
  override addListener(name: string | symbol, l: (...a: unknown[]) => unknown): this { return this.on(name, l); }

  resume(): this {
    this.readableFlowing = true;
    this.schedule();
    return this;
  }

  pause(): this {
    this.readableFlowing = false;
    return this;
  }

  isPaused(): boolean { return this.readableFlowing === false; }

  read(n?: number): Chunk | null {
    if (this.rbuf.length === 0) {
      if (this.ended) this.finishRead();
      else this.maybeRead();
      return null;
    }
    let out: Chunk;
    if (this.readableObjectMode) out = this.rbuf.shift();
    else if (this.decoder) { out = (this.rbuf as string[]).join(''); this.rbuf = []; }
    else {
      const all = Buffer.concat(this.rbuf as Uint8Array[]);
      if (n !== undefined && n < all.length) { out = all.subarray(0, n); this.rbuf = [all.subarray(n)]; }
      else { out = all; this.rbuf = []; }
    }
    this.rlen -= chunkLen(out, this.readableObjectMode);
    if (this.rbuf.length === 0 && this.ended) tick(() => this.finishRead());
    else this.maybeRead();
    return out;
  }

  private maybeRead(): void {
    if (this.reading || this.ended || this.destroyed || this.rlen >= this.readableHighWaterMark) return;
    this.reading = true;
    try {
      this._read(this.readableHighWaterMark);
    } catch (e) {
      this.destroy(e as Error);
    }
  }

  private schedule(): void {
    if (this.flowScheduled) return;
    this.flowScheduled = true;
    tick(() => {
      this.flowScheduled = false;
      this.flow();
    });
  }

  private flow(): void {
    if (this.destroyed) return;
    while (this.readableFlowing && this.rbuf.length) {
      const c = this.rbuf.shift();
      this.rlen -= chunkLen(c, this.readableObjectMode);
      this.emit('data', c);
    }
    if (this.rbuf.length === 0 && this.ended) {
      if (this.readableFlowing || this.listenerCount('readable') === 0 && this.readableFlowing !== false) tick(() => this.finishRead());
      else if (this.listenerCount('readable')) this.emit('readable');
      return;
    }
    if (this.readableFlowing) this.maybeRead();
  }

  private finishRead(): void {
    if (this.endEmitted || this.destroyed) return;
    this.endEmitted = true;
    this.readableEnded = true;
    this.readable = false;
    this.emit('end');
    if (this.autoDestroyR && (!(this instanceof Duplex) || (this as unknown as Writable).writableFinished || !(this as unknown as Duplex).writable)) this.destroy();
  }

  _destroy(err: Error | null, cb: Cb): void { cb(err); }

  destroy(err?: Error | null): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.readable = false;
    finishDestroy(this, err);
    return this;
  }

  override pipe<T extends Writable>(dest: T, opts: { end?: boolean } = {}): T {
    const onData = (c: Chunk) => { if (dest.write(c) === false) { this.pause(); dest.once('drain', () => this.resume()); } };
    this.on('data', onData);
    if (opts.end !== false) this.once('end', () => { if (!isStdio(dest)) dest.end(); });
    this.once('close', () => this.removeListener('data', onData));
    (this as unknown as { pipes: Writable[] }).pipes = [...((this as unknown as { pipes?: Writable[] }).pipes ?? []), dest];
    dest.emit('pipe', this);
    this.resume();
    return dest;
  }

  unpipe(dest?: Writable): this {
    this.removeAllListeners('data');
    this.pause();
    if (dest) dest.emit('unpipe', this);
    return this;
  }

  wrap(): this { return this; }

  [Symbol.asyncIterator](): AsyncIterableIterator<Chunk> {
    const queue: Chunk[] = [];
    let ended = false;
    let error: unknown = null;
    let wake: (() => void) | null = null;
    const poke = () => { const w = wake; wake = null; w?.(); };
    this.on('data', (c) => { queue.push(c); this.pause(); poke(); });
    this.once('end', () => { ended = true; poke(); });
    this.once('error', (e) => { error = e; poke(); });
    this.once('close', () => { ended = true; poke(); });
    const it: AsyncIterableIterator<Chunk> = {
      next: async () => {
        for (;;) {
          if (queue.length) return { value: queue.shift(), done: false };
          if (error) throw error;
          if (ended) return { value: undefined, done: true };
          this.resume();
          await new Promise<void>((r) => (wake = r));
        }
      },
      return: async () => { this.destroy(); return { value: undefined, done: true }; },
      [Symbol.asyncIterator]: () => it,
    };
    return it;
  }

  static from(iterable: Iterable<Chunk> | AsyncIterable<Chunk>, opts: ReadableOpts = {}): Readable {
    if (typeof iterable === 'string' || iterable instanceof Uint8Array) {
      const one = iterable;
      return new Readable({ objectMode: true, ...opts, read() { this.push(one); this.push(null); } });
    }
    const it = Symbol.asyncIterator in iterable ? (iterable as AsyncIterable<Chunk>)[Symbol.asyncIterator]() : (iterable as Iterable<Chunk>)[Symbol.iterator]();
    return new Readable({
      objectMode: true,
      ...opts,
      read() {
        Promise.resolve(it.next()).then((r) => this.push(r.done ? null : r.value), (e: Error) => this.destroy(e));
      },
    });
  }
}

const isStdio = (s: unknown): boolean => !!(s as { _isStdio?: boolean })._isStdio;

export class Writable extends Stream {
  writable = true;
  destroyed = false;
  writableEnded = false;
  writableFinished = false;
  writableObjectMode: boolean;
  writableHighWaterMark: number;
  writableNeedDrain = false;
  closed = false;
  errored: Error | null = null;
  private wq: [Chunk, string, Cb | undefined][] = [];
  private wlen = 0;
  private writing = false;
  private ending = false;
  private decodeStrings: boolean;
  private autoDestroyW: boolean;
  private finalCbs: Cb[] = [];

  constructor(opts: WritableOpts = {}) {
    super();
    Writable.initW(this, opts);
    this.writableObjectMode = !!(opts.objectMode || opts.writableObjectMode);
    this.writableHighWaterMark = opts.highWaterMark ?? (this.writableObjectMode ? 16 : 16384);
    this.decodeStrings = opts.decodeStrings !== false;
    this.autoDestroyW = opts.autoDestroy ?? true;
  }

  static initW(self: Writable, opts: WritableOpts): void {
    if (opts.write) self._write = opts.write;
    if (opts.final) self._final = opts.final;
    if (opts.destroy) self._destroy = opts.destroy as never;
  }

  get writableLength(): number { return this.wlen; }

  _write(_c: Chunk, _e: string, _cb: Cb): void {
    throw nodeError(Error, 'ERR_METHOD_NOT_IMPLEMENTED', 'The _write() method is not implemented');
  }
  _final(cb: Cb): void { cb(); }
  _destroy(err: Error | null, cb: Cb): void { cb(err); }

  write(chunk: Chunk, enc?: string | Cb, cb?: Cb): boolean {
    if (typeof enc === 'function') { cb = enc; enc = undefined; }
    let encoding = (enc as string | undefined) ?? 'utf8';
    if (this.ending || this.destroyed) {
      const e = nodeError(Error, this.destroyed ? 'ERR_STREAM_DESTROYED' : 'ERR_STREAM_WRITE_AFTER_END',
        this.destroyed ? 'Cannot call write after a stream was destroyed' : 'write after end');
      tick(() => { cb?.(e); this.emit('error', e); });
      return false;
    }
    if (!this.writableObjectMode) {
      if (chunk === null) throw nodeError(TypeError, 'ERR_STREAM_NULL_VALUES', 'May not write null values to stream');
      if (typeof chunk === 'string' && this.decodeStrings) { chunk = Buffer.from(chunk, encoding as BufferEncoding); encoding = 'buffer'; }
      else if (chunk instanceof Uint8Array) encoding = 'buffer';
      else if (typeof chunk !== 'string') {
        throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "chunk" argument must be of type string or an instance of Buffer or Uint8Array. Received ${typeof chunk}`);
      }
    }
    this.wq.push([chunk, encoding, cb]);
    this.wlen += chunkLen(chunk, this.writableObjectMode);
    const ok = this.wlen < this.writableHighWaterMark;
    if (!ok) this.writableNeedDrain = true;
    this.drainQueue();
    return ok;
  }

  private drainQueue(): void {
    while (!this.writing && this.wq.length && !this.destroyed) {
      const [chunk, enc, cb] = this.wq.shift()!;
      this.writing = true;
      let sync = true;
      let done = false;
      const after = (err?: Error | null) => {
        if (done) return;
        done = true;
        this.writing = false;
        this.wlen -= chunkLen(chunk, this.writableObjectMode);
        if (err) {
          tick(() => cb?.(err));
          this.destroy(err);
          return;
        }
        const finish = () => {
          cb?.(null);
          if (this.wlen === 0 && this.writableNeedDrain) { this.writableNeedDrain = false; this.emit('drain'); }
          if (!sync) this.drainQueue();
          this.maybeFinish();
        };
        if (sync) tick(finish);
        else finish();
      };
      this._write(chunk, enc, after);
      sync = false;
    }
  }

  end(chunk?: Chunk | Cb, enc?: string | Cb, cb?: Cb): this {
    if (typeof chunk === 'function') { cb = chunk as Cb; chunk = undefined; }
    if (typeof enc === 'function') { cb = enc; enc = undefined; }
    if (chunk !== undefined && chunk !== null) this.write(chunk, enc as string | undefined);
    if (cb) {
      if (this.writableFinished) tick(cb);
      else this.finalCbs.push(cb);
    }
    if (this.ending) return this;
    this.ending = true;
    this.writableEnded = true;
    this.writable = false;
    tick(() => this.maybeFinish());
    return this;
  }

  private finalizing = false;
  private maybeFinish(): void {
    if (!this.ending || this.writing || this.wq.length || this.finalizing || this.writableFinished || this.destroyed) return;
    this.finalizing = true;
    this._final((err) => {
      if (err) { this.destroy(err); return; }
      tick(() => {
        this.writableFinished = true;
        for (const f of this.finalCbs.splice(0)) f();
        this.emit('finish');
        const r = this as unknown as Readable;
        if (this.autoDestroyW && (!(this instanceof Duplex) || r.readableEnded || !r.readable)) this.destroy();
      });
    });
  }

  cork(): void {}
  uncork(): void {}
  setDefaultEncoding(): this { return this; }

  destroy(err?: Error | null): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.writable = false;
    finishDestroy(this, err);
    return this;
  }
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- Duplex is both, as in Node
export interface Duplex extends Pick<Writable, 'write' | 'end' | 'cork' | 'uncork' | 'writable' | 'writableEnded' | 'writableFinished' |
  'writableObjectMode' | 'writableHighWaterMark' | 'writableNeedDrain' | 'writableLength' | 'setDefaultEncoding'> {
  _write(c: Chunk, e: string, cb: Cb): void;
  _final(cb: Cb): void;
}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see above
export class Duplex extends Readable {
  allowHalfOpen: boolean;
  constructor(opts: ReadableOpts & WritableOpts & { allowHalfOpen?: boolean } = {}) {
    super(opts);
    const w = new Writable(opts) as unknown as Record<string, unknown>;
    for (const k of Object.keys(w)) if (!(k in this)) (this as unknown as Record<string, unknown>)[k] = w[k];
    const self = this as unknown as Record<string, unknown>;
    for (const k of ['writable', 'writableEnded', 'writableFinished', 'writableObjectMode', 'writableHighWaterMark', 'writableNeedDrain',
      'wq', 'wlen', 'writing', 'ending', 'decodeStrings', 'autoDestroyW', 'finalCbs', 'finalizing']) self[k] = w[k];
    Writable.initW(this as unknown as Writable, opts);
    this.allowHalfOpen = opts.allowHalfOpen !== false;
  }
}
for (const k of Object.getOwnPropertyNames(Writable.prototype)) {
  if (k === 'constructor' || k === 'destroy' || k === '_destroy') continue;
  if (!Object.hasOwn(Duplex.prototype, k)) Object.defineProperty(Duplex.prototype, k, Object.getOwnPropertyDescriptor(Writable.prototype, k)!);
}
Object.defineProperty(Writable, Symbol.hasInstance, {
  value: (x: unknown) => x instanceof Duplex || Function.prototype[Symbol.hasInstance].call(Writable, x),
});

type TransformCb = (err?: Error | null, data?: Chunk) => void;

export class Transform extends Duplex {
  constructor(opts: ReadableOpts & WritableOpts & { transform?: (this: Transform, c: Chunk, e: string, cb: TransformCb) => void; flush?: (this: Transform, cb: TransformCb) => void } = {}) {
    super(opts);
    if (opts.transform) this._transform = opts.transform;
    if (opts.flush) this._flush = opts.flush;
  }
  _transform(_c: Chunk, _e: string, _cb: TransformCb): void {
    throw nodeError(Error, 'ERR_METHOD_NOT_IMPLEMENTED', 'The _transform() method is not implemented');
  }
  _flush(cb: TransformCb): void { cb(); }
  override _write(c: Chunk, e: string, cb: Cb): void {
    this._transform(c, e, (err, data) => {
      if (data !== undefined && data !== null) this.push(data);
      cb(err);
    });
  }
  override _final(cb: Cb): void {
    this._flush((err, data) => {
      if (data !== undefined && data !== null) this.push(data);
      this.push(null);
      cb(err);
    });
  }
  override _read(): void {}
}

export class PassThrough extends Transform {
  override _transform(c: Chunk, _e: string, cb: TransformCb): void { cb(null, c); }
}

/** finished(stream, cb): called once on end/finish, or the first error or premature close. */
export function finished(s: Readable | Writable, opts: unknown, cb?: (e?: Error | null) => void): () => void {
  if (typeof opts === 'function') cb = opts as (e?: Error | null) => void;
  let done = false;
  const call = (e?: Error | null) => { if (!done) { done = true; cb!(e ?? null); } };
  const isR = s instanceof Readable;
  const isW = s instanceof Writable;
  let rDone = !isR || (s as Readable).readableEnded;
  let wDone = !isW || (s as Writable).writableFinished;
  const check = () => { if (rDone && wDone) call(); };
  s.on('end', () => { rDone = true; check(); });
  s.on('finish', () => { wDone = true; check(); });
  s.on('error', (e: unknown) => call(e as Error));
  s.on('close', () => { if (!(rDone && wDone)) call(nodeError(Error, 'ERR_STREAM_PREMATURE_CLOSE', 'Premature close')); });
  if (rDone && wDone) tick(check);
  return () => {};
}

/** pipeline(a, b, ..., cb): pipe each into the next; destroy all on the first error. */
export function pipeline(...args: unknown[]): Writable {
  const cb = typeof args[args.length - 1] === 'function' ? (args.pop() as Cb) : (e?: Error | null) => { if (e) throw e; };
  const streams = (Array.isArray(args[0]) ? args[0] : args) as (Readable | Writable | Iterable<Chunk>)[];
  const list = streams.map((s, i) => (i === 0 && !(s instanceof Stream) ? Readable.from(s as Iterable<Chunk>) : s)) as Readable[];
  let called = false;
  const fail = (e?: Error | null) => {
    if (called) return;
    called = true;
    if (e) for (const s of list) s.destroy();
    cb(e ?? undefined);
  };
  for (let i = 0; i < list.length - 1; i++) list[i].pipe(list[i + 1] as unknown as Writable);
  list.forEach((s, i) => {
    if (i < list.length - 1) s.on('error', (e: unknown) => fail(e as Error));
  });
  const last = list[list.length - 1];
  finished(last, (e?: Error | null) => fail(e));
  return last as unknown as Writable;
}

export const promises = {
  pipeline: (...s: unknown[]) => new Promise<void>((res, rej) => { pipeline(...s, (e?: Error | null) => (e ? rej(e) : res())); }),
  finished: (s: Readable | Writable) => new Promise<void>((res, rej) => { finished(s, (e?: Error | null) => (e ? rej(e) : res())); }),
};

export function makeStream(): unknown {
  const m = Stream as unknown as Record<string, unknown>;
  Object.assign(m, { Stream, Readable, Writable, Duplex, Transform, PassThrough, pipeline, finished, promises });
  return Stream;
}

// The `zlib` module on fflate: gzip, deflate (zlib wrapper) and raw deflate,
// sync, callback and stream forms. The stream classes (Gzip, Gunzip, ...,
// Unzip) stream through fflate's incremental engines and have Node's
// `_processChunk(chunk, flushFlag)` and `_handle`, which minizlib (node-tar,
// so npm) drives directly. No brotli.

import { Buffer } from 'buffer';
import * as fflate from 'fflate';
import { nodeError } from './errors.js';
import { Transform } from './stream.js';

type Codec = (d: Uint8Array, level?: number) => Uint8Array;
type Level = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

const Z = {
  Z_NO_FLUSH: 0, Z_PARTIAL_FLUSH: 1, Z_SYNC_FLUSH: 2, Z_FULL_FLUSH: 3, Z_FINISH: 4, Z_BLOCK: 5, Z_TREES: 6,
  Z_OK: 0, Z_STREAM_END: 1, Z_NEED_DICT: 2, Z_ERRNO: -1, Z_STREAM_ERROR: -2, Z_DATA_ERROR: -3, Z_MEM_ERROR: -4, Z_BUF_ERROR: -5, Z_VERSION_ERROR: -6,
  Z_NO_COMPRESSION: 0, Z_BEST_SPEED: 1, Z_BEST_COMPRESSION: 9, Z_DEFAULT_COMPRESSION: -1,
  Z_FILTERED: 1, Z_HUFFMAN_ONLY: 2, Z_RLE: 3, Z_FIXED: 4, Z_DEFAULT_STRATEGY: 0, ZLIB_VERNUM: 4865,
  Z_MIN_WINDOWBITS: 8, Z_MAX_WINDOWBITS: 15, Z_DEFAULT_WINDOWBITS: 15, Z_MIN_CHUNK: 64, Z_MAX_CHUNK: Infinity, Z_DEFAULT_CHUNK: 16384,
  Z_MIN_MEMLEVEL: 1, Z_MAX_MEMLEVEL: 9, Z_DEFAULT_MEMLEVEL: 8, Z_MIN_LEVEL: -1, Z_MAX_LEVEL: 9, Z_DEFAULT_LEVEL: -1,
};

const toBytes = (d: unknown): Uint8Array => {
  if (typeof d === 'string') return Buffer.from(d);
  if (ArrayBuffer.isView(d)) return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
  if (d instanceof ArrayBuffer) return new Uint8Array(d);
  throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "buffer" argument must be of type string or an instance of Buffer, TypedArray, DataView, or ArrayBuffer. Received ${d === null ? 'null' : typeof d}`);
};

const lvl = (o?: { level?: number }): Level | undefined => (o?.level === undefined || o.level < 0 ? undefined : (Math.min(9, o.level) as Level));

/** fflate's error as zlib's: truncated input is Z_BUF_ERROR, anything else Z_DATA_ERROR. */
function zlibError(e: unknown): Error {
  const f = e as { code?: number; message?: string };
  const eof = f.code === 0;
  const msg = eof ? 'unexpected end of file' : /invalid (gzip|zlib) data|invalid header/.test(f.message ?? '') ? 'incorrect header check' : (f.message ?? 'invalid data');
  return Object.assign(new Error(msg), { code: eof ? 'Z_BUF_ERROR' : 'Z_DATA_ERROR', errno: eof ? -5 : -3 });
}

function run(codec: Codec, data: unknown, o?: { level?: number }): Buffer {
  const input = toBytes(data);
  let out: Uint8Array;
  try {
    out = codec(input, lvl(o));
  } catch (e) {
    throw zlibError(e);
  }
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

const CODECS: Record<string, Codec> = {
  gzip: (d, l) => fflate.gzipSync(d, { level: l as Level }),
  gunzip: (d) => fflate.gunzipSync(d),
  deflate: (d, l) => fflate.zlibSync(d, { level: l as Level }),
  inflate: (d) => fflate.unzlibSync(d),
  deflateRaw: (d, l) => fflate.deflateSync(d, { level: l as Level }),
  inflateRaw: (d) => fflate.inflateSync(d),
  unzip: (d) => (d[0] === 0x1f && d[1] === 0x8b ? fflate.gunzipSync(d) : fflate.unzlibSync(d)),
};

interface Engine { push(c: Uint8Array, final?: boolean): void; flush?(): void; ondata: fflate.FlateStreamHandler }

/** The incremental engine behind each stream class. */
const ENGINES: Record<string, (level?: Level) => Engine> = {
  Gzip: (level) => new fflate.Gzip({ level }),
  Gunzip: () => new fflate.Gunzip(),
  Deflate: (level) => new fflate.Zlib({ level }),
  Inflate: () => new fflate.Unzlib(),
  DeflateRaw: (level) => new fflate.Deflate({ level }),
  InflateRaw: () => new fflate.Inflate(),
  // Node's Unzip takes gzip or zlib; fflate's Decompress tells them apart by their headers.
  Unzip: () => new fflate.Decompress(),
};

interface ZlibOpts { level?: number; flush?: number; finishFlush?: number }

const EMPTY = new Uint8Array(0);
/** Marks an empty write as a flush request. */
const FLUSH = Symbol('flushFlag');

/** One zlib stream: a Transform whose chunks go through an incremental fflate engine. */
class ZlibStream extends Transform {
  bytesWritten = 0;
  /** Node's native handle; minizlib swaps its close() around each _processChunk call. */
  _handle: { close(): void } | null = { close: () => undefined };
  private engine!: Engine;
  private out: Uint8Array[] = [];
  private finished = false;
  private level: Level | undefined;
  private flushFlag: number;
  private finishFlushFlag: number;

  constructor(private mode: string, opts: ZlibOpts = {}) {
    super(opts as ConstructorParameters<typeof Transform>[0]);
    this.level = lvl(opts);
    this.flushFlag = opts.flush ?? Z.Z_NO_FLUSH;
    this.finishFlushFlag = opts.finishFlush ?? Z.Z_FINISH;
    this.reset();
  }

  reset(): void {
    this.engine = ENGINES[this.mode](this.level);
    this.engine.ondata = (d, final) => {
      if (d.length) this.out.push(d);
      if (final) this.finished = true;
    };
    this.finished = false;
  }

  /** Feed one chunk and return what comes out now (all of it, with Z_FINISH). */
  _processChunk(chunk: unknown, flushFlag: number, cb?: (e: Error | null, r?: Buffer) => void): Buffer | undefined {
    let r: Buffer;
    try {
      const bytes = toBytes(chunk);
      this.bytesWritten += bytes.length;
      if (!this.finished) {
        this.engine.push(bytes, flushFlag === Z.Z_FINISH);
        if ((flushFlag === Z.Z_SYNC_FLUSH || flushFlag === Z.Z_FULL_FLUSH) && !this.finished) this.engine.flush?.();
      }
      r = Buffer.concat(this.out);
      this.out = [];
    } catch (e) {
      this.out = [];
      if (cb) return void cb(zlibError(e));
      throw zlibError(e);
    }
    if (cb) return void cb(null, r);
    return r;
  }

  override _transform(c: unknown, _e: string, cb: (e?: Error | null, d?: unknown) => void): void {
    let r: Buffer;
    try {
      r = this._processChunk(c, (c as { [FLUSH]?: number })[FLUSH] ?? this.flushFlag)!;
    } catch (e) {
      return cb(e as Error);
    }
    cb(null, r.length ? r : undefined);
  }

  override _flush(cb: (e?: Error | null, d?: unknown) => void): void {
    let r: Buffer;
    try {
      r = this._processChunk(EMPTY, this.finishFlushFlag)!;
    } catch (e) {
      return cb(e as Error);
    }
    cb(null, r.length ? r : undefined);
  }

  /** flush([kind], [cb]): emit what is buffered so far (Z_FULL_FLUSH by default), in order with the writes, as Node does. */
  flush(kind?: number | (() => void), cb?: () => void): void {
    if (typeof kind === 'function') [cb, kind] = [kind, undefined];
    this.write(Object.assign(Buffer.alloc(0), { [FLUSH]: kind ?? Z.Z_FULL_FLUSH }), () => cb?.());
  }

  params(level: number, _strategy: number, cb?: () => void): void {
    this.level = lvl({ level });
    cb?.();
  }

  close(cb?: () => void): void {
    this._handle?.close();
    this._handle = null;
    if (cb) this.once('close', cb);
    this.destroy();
  }
}

export function makeZlib(nextTick: (cb: (...a: unknown[]) => void, args: unknown[]) => void): Record<string, unknown> {
  const z: Record<string, unknown> = { constants: { ...Z }, ...Z };
  for (const [name, codec] of Object.entries(CODECS)) {
    const cap = name[0].toUpperCase() + name.slice(1);
    const Cls = class extends ZlibStream {
      constructor(o?: ZlibOpts) { super(cap, o); }
    };
    Object.defineProperty(Cls, 'name', { value: cap });
    // finishFlush other than Z_FINISH (zlib's way to read a stream that has not ended) goes through the engine.
    z[`${name}Sync`] = (d: unknown, o?: ZlibOpts) =>
      (o?.finishFlush !== undefined && o.finishFlush !== Z.Z_FINISH ? new Cls(o)._processChunk(d, o.finishFlush)! : run(codec, d, o));
    z[name] = (d: unknown, o: unknown, cb?: unknown) => {
      if (typeof o === 'function') cb = o;
      let r: Buffer;
      try {
        r = run(codec, d, o as { level?: number });
      } catch (e) {
        return nextTick(cb as (...a: unknown[]) => void, [e]);
      }
      nextTick(cb as (...a: unknown[]) => void, [null, r]);
    };
    z[cap] = Cls;
    z[`create${cap}`] = (o?: ZlibOpts) => new Cls(o);
  }
  return z;
}

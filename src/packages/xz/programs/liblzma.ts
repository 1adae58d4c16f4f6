// liblzma (XZ Utils' library) compiled to WebAssembly — the build node-liblzma
// ships — driven through its C API: lzma_easy_encoder / lzma_stream_decoder /
// lzma_code over an lzma_stream in the module's memory. The module is tiny
// (one import, emscripten_resize_heap) so this glue replaces emscripten's.
// Its exports are named by the minifier: EXPORTS maps them, and a test checks
// the map against the glue file shipped beside the wasm.

import type { Sys } from '../../../libc/sys.js';

/** Minified export name → C function, for node-liblzma 5.1.3's liblzma.wasm (xz 5.8). */
export const EXPORTS = {
  memory: 'b',
  ctors: 'c',
  lzma_version_string: 'e',
  lzma_code: 'f',
  lzma_end: 'g',
  lzma_easy_encoder: 'm',
  lzma_auto_decoder: 'o',
  lzma_stream_decoder: 'r',
  malloc: 's',
  free: 't',
} as const;

export const LZMA_OK = 0;
export const LZMA_STREAM_END = 1;
export const LZMA_MEM_ERROR = 5;
export const LZMA_MEMLIMIT_ERROR = 6;
export const LZMA_FORMAT_ERROR = 7;
export const LZMA_OPTIONS_ERROR = 8;
export const LZMA_DATA_ERROR = 9;
export const LZMA_BUF_ERROR = 10;

export const LZMA_RUN = 0;
export const LZMA_FINISH = 3;

export const CHECKS = { none: 0, crc32: 1, crc64: 4, sha256: 10 } as const;
export const LZMA_PRESET_EXTREME = 0x80000000;
/** Decoder flags: go on after the first stream (as xz does), and report unsupported checks. */
export const LZMA_CONCATENATED = 0x08;

type Fn = (...a: (number | bigint)[]) => number;

interface Lib {
  memory: WebAssembly.Memory;
  f: Record<keyof typeof EXPORTS, Fn>;
}

const CACHE = Symbol.for('agentos.xz.liblzma');

/** One instance per process: liblzma keeps no global state between streams. */
export function loadLiblzma(sys: Sys, path: string): Lib {
  const g = globalThis as unknown as Record<symbol, Lib | undefined>;
  const hit = g[CACHE];
  if (hit) return hit;
  const module = new WebAssembly.Module(sys.readFile(path) as Uint8Array<ArrayBuffer>);
  let memory: WebAssembly.Memory | null = null;
  const resize = (requested: number): number => {
    const have = memory!.buffer.byteLength;
    if (requested >>> 0 <= have) return 1;
    try {
      memory!.grow(Math.ceil(((requested >>> 0) - have) / 65536));
      return 1;
    } catch {
      return 0;
    }
  };
  const inst = new WebAssembly.Instance(module, { a: { a: resize } });
  const ex = inst.exports as Record<string, unknown>;
  memory = ex[EXPORTS.memory] as WebAssembly.Memory;
  const f = {} as Lib['f'];
  for (const [name, key] of Object.entries(EXPORTS)) if (name !== 'memory') f[name as keyof typeof EXPORTS] = ex[key] as Fn;
  f.ctors();
  const lib = { memory, f };
  g[CACHE] = lib;
  return lib;
}

export function versionString(lib: Lib): string {
  const p = lib.f.lzma_version_string();
  const b = new Uint8Array(lib.memory.buffer);
  let e = p;
  while (b[e]) e++;
  return new TextDecoder().decode(b.subarray(p, e));
}

/** sizeof(lzma_stream) on wasm32, and the offsets of the fields used. */
const STREAM_SIZE = 88;
const NEXT_IN = 0;
const AVAIL_IN = 4;
const NEXT_OUT = 16;
const AVAIL_OUT = 20;

const IN_SIZE = 1 << 16;
const OUT_SIZE = 1 << 17;

export class LzmaError extends Error {
  constructor(readonly code: number) {
    super(`liblzma error ${code}`);
  }
}

/** A coder: bytes in, bytes out, through lzma_code. */
export class Coder {
  private readonly strm: number;
  private readonly inBuf: number;
  private readonly outBuf: number;
  private ended = false;

  private constructor(private readonly lib: Lib, init: (strm: number) => number) {
    const f = lib.f;
    this.strm = f.malloc(STREAM_SIZE);
    this.inBuf = f.malloc(IN_SIZE);
    this.outBuf = f.malloc(OUT_SIZE);
    if (!this.strm || !this.inBuf || !this.outBuf) throw new LzmaError(LZMA_MEM_ERROR);
    new Uint8Array(lib.memory.buffer, this.strm, STREAM_SIZE).fill(0);
    const r = init(this.strm);
    if (r !== LZMA_OK) {
      this.close();
      throw new LzmaError(r);
    }
  }

  static encoder(lib: Lib, preset: number, check: number): Coder {
    return new Coder(lib, (s) => lib.f.lzma_easy_encoder(s, preset >>> 0, check));
  }

  static decoder(lib: Lib, memlimit: bigint, auto: boolean): Coder {
    const fn = auto ? lib.f.lzma_auto_decoder : lib.f.lzma_stream_decoder;
    return new Coder(lib, (s) => fn(s, memlimit, LZMA_CONCATENATED));
  }

  private view(): DataView {
    return new DataView(this.lib.memory.buffer);
  }

  /**
   * Feed `data` (finish: no more input follows) and hand each piece of output
   * to `out`. Returns true once the coder reports the end of the stream.
   */
  code(data: Uint8Array, finish: boolean, out: (b: Uint8Array) => void): boolean {
    let off = 0;
    let stalled = 0;
    for (;;) {
      const v = this.view();
      if (v.getUint32(this.strm + AVAIL_IN, true) === 0 && off < data.length) {
        const n = Math.min(IN_SIZE, data.length - off);
        new Uint8Array(this.lib.memory.buffer, this.inBuf, n).set(data.subarray(off, off + n));
        off += n;
        v.setUint32(this.strm + NEXT_IN, this.inBuf, true);
        v.setUint32(this.strm + AVAIL_IN, n, true);
      }
      const pending = v.getUint32(this.strm + AVAIL_IN, true);
      if (pending === 0 && off >= data.length && !finish) return false;
      v.setUint32(this.strm + NEXT_OUT, this.outBuf, true);
      v.setUint32(this.strm + AVAIL_OUT, OUT_SIZE, true);
      const r = this.lib.f.lzma_code(this.strm, finish && off >= data.length ? LZMA_FINISH : LZMA_RUN);
      const produced = OUT_SIZE - this.view().getUint32(this.strm + AVAIL_OUT, true);
      if (produced) out(new Uint8Array(this.lib.memory.buffer, this.outBuf, produced).slice());
      if (r === LZMA_STREAM_END) return true;
      if (r !== LZMA_OK) throw new LzmaError(r);
      // liblzma says LZMA_BUF_ERROR after two calls without progress; never spin past that.
      stalled = produced === 0 && this.view().getUint32(this.strm + AVAIL_IN, true) === pending ? stalled + 1 : 0;
      if (stalled > 2) throw new LzmaError(LZMA_BUF_ERROR);
    }
  }

  /** Input the coder has not consumed (after the end of the stream). */
  get leftover(): number {
    return this.view().getUint32(this.strm + AVAIL_IN, true);
  }

  close(): void {
    if (this.ended) return;
    this.ended = true;
    const f = this.lib.f;
    f.lzma_end(this.strm);
    f.free(this.strm);
    f.free(this.inBuf);
    f.free(this.outBuf);
  }
}

// The `zlib` module on fflate: gzip, deflate (zlib wrapper) and raw deflate,
// sync, callback and stream forms (streams buffer the whole input). No brotli.

import { Buffer } from 'buffer';
import { gunzipSync, gzipSync, inflateSync, deflateSync, unzlibSync, zlibSync } from 'fflate';
import { nodeError } from './errors.js';
import { Transform } from './stream.js';

type Codec = (d: Uint8Array, level?: number) => Uint8Array;

const toBytes = (d: unknown): Uint8Array => {
  if (typeof d === 'string') return Buffer.from(d);
  if (ArrayBuffer.isView(d)) return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
  if (d instanceof ArrayBuffer) return new Uint8Array(d);
  throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "buffer" argument must be of type string or an instance of Buffer, TypedArray, DataView, or ArrayBuffer. Received ${d === null ? 'null' : typeof d}`);
};

type Level = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
const lvl = (o?: { level?: number }): Level | undefined => (o?.level === undefined || o.level < 0 ? undefined : (Math.min(9, o.level) as Level));

function run(codec: Codec, data: unknown, o?: { level?: number }): Buffer {
  const input = toBytes(data);
  let out: Uint8Array;
  try {
    out = codec(input, lvl(o));
  } catch (e) {
    const err = new Error((e as Error).message === 'invalid gzip data' ? 'incorrect header check' : 'invalid stored block lengths') as Error & { code: string; errno: number };
    err.code = 'Z_DATA_ERROR';
    err.errno = -3;
    throw err;
  }
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

const CODECS: Record<string, Codec> = {
  gzip: (d, l) => gzipSync(d, { level: l as Level }),
  gunzip: (d) => gunzipSync(d),
  deflate: (d, l) => zlibSync(d, { level: l as Level }),
  inflate: (d) => unzlibSync(d),
  deflateRaw: (d, l) => deflateSync(d, { level: l as Level }),
  inflateRaw: (d) => inflateSync(d),
  unzip: (d) => (d[0] === 0x1f && d[1] === 0x8b ? gunzipSync(d) : unzlibSync(d)),
};

export function makeZlib(nextTick: (cb: (...a: unknown[]) => void, args: unknown[]) => void): Record<string, unknown> {
  const z: Record<string, unknown> = {
    constants: { Z_NO_FLUSH: 0, Z_FINISH: 4, Z_OK: 0, Z_STREAM_END: 1, Z_DATA_ERROR: -3, Z_BEST_SPEED: 1, Z_BEST_COMPRESSION: 9, Z_DEFAULT_COMPRESSION: -1 },
  };
  for (const [name, codec] of Object.entries(CODECS)) {
    const cap = name[0].toUpperCase() + name.slice(1);
    z[`${name}Sync`] = (d: unknown, o?: { level?: number }) => run(codec, d, o);
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
    z[`create${cap}`] = (o?: { level?: number }) => {
      const parts: Uint8Array[] = [];
      return new Transform({
        transform(c, _e, cb) { parts.push(c as Uint8Array); cb(); },
        flush(cb) {
          try {
            cb(null, run(codec, Buffer.concat(parts), o));
          } catch (e) {
            cb(e as Error);
          }
        },
      });
    };
  }
  return z;
}

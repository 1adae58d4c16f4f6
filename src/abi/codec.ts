// Compact binary encoding for syscall arguments and results.
//
// Values cross the SharedArrayBuffer as tagged bytes, so file data travels as
// raw bytes (one copy each way, 8-aligned) and small requests cost no JSON parsing.
// Supported: null/undefined, booleans, numbers, strings, Uint8Array, arrays and
// plain objects with string keys. Strings are byte strings (abi/bytestr.ts):
// bytes that are not UTF-8 cross as themselves, so names are bytes end to end.
//
// The kernel decodes bytes a hostile process wrote, so the decoder checks every
// length against the bytes present and bounds nesting: a malformed message is a
// CodecError (the kernel's EINVAL), never an out-of-range read or a runaway loop.

import { decodeBytes, encodeBytes } from './bytestr.js';

export type Value = null | undefined | boolean | number | string | Uint8Array | Value[] | { [k: string]: Value };

const T_NULL = 0, T_FALSE = 1, T_TRUE = 2, T_INT = 3, T_F64 = 4, T_STR = 5, T_BYTES = 6, T_ARR = 7, T_OBJ = 8,
  T_UNDEF = 9;

/**
 * Byte payloads start 8-aligned (relative to the buffer, which the channel
 * keeps aligned): V8 copies into and out of a SharedArrayBuffer a word at a
 * time only when aligned, and byte by byte (several times slower) otherwise.
 */
const padTo8 = (pos: number): number => -pos & 7;

/** Thrown when a value does not fit the buffer; callers chunk data below capacity. */
export class CodecOverflow extends Error {}

/** Thrown when bytes are not a well-formed value: a bad tag, a length past the end, too deep. */
export class CodecError extends Error {}

/** Deepest nesting of arrays and objects a message may have (real syscalls use 3). */
export const MAX_DEPTH = 32;

export class Encoder {
  private view: DataView;
  pos = 0;

  constructor(private buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  reset(): void {
    this.pos = 0;
  }

  private need(n: number): void {
    if (this.pos + n > this.buf.byteLength) throw new CodecOverflow(`syscall message exceeds ${this.buf.byteLength} bytes`);
  }

  value(v: Value): void {
    if (v === null) return this.tag(T_NULL);
    switch (typeof v) {
      case 'undefined':
        return this.tag(T_UNDEF);
      case 'boolean':
        return this.tag(v ? T_TRUE : T_FALSE);
      case 'number':
        if ((v | 0) === v) {
          this.need(5);
          this.buf[this.pos++] = T_INT;
          this.view.setInt32(this.pos, v, true);
          this.pos += 4;
        } else {
          this.need(9);
          this.buf[this.pos++] = T_F64;
          this.view.setFloat64(this.pos, v, true);
          this.pos += 8;
        }
        return;
      case 'string':
        this.tag(T_STR);
        return this.string(v);
      case 'object':
        if (v instanceof Uint8Array) {
          const pad = padTo8(this.pos + 5);
          this.need(5 + pad + v.byteLength);
          this.buf[this.pos++] = T_BYTES;
          this.view.setUint32(this.pos, v.byteLength, true);
          this.pos += 4 + pad;
          this.buf.set(v, this.pos);
          this.pos += v.byteLength;
          return;
        }
        if (Array.isArray(v)) {
          this.need(5);
          this.buf[this.pos++] = T_ARR;
          this.view.setUint32(this.pos, v.length, true);
          this.pos += 4;
          for (const item of v) this.value(item);
          return;
        }
        {
          const keys = Object.keys(v);
          this.need(5);
          this.buf[this.pos++] = T_OBJ;
          this.view.setUint32(this.pos, keys.length, true);
          this.pos += 4;
          for (const k of keys) {
            this.string(k);
            this.value(v[k]);
          }
        }
        return;
      default:
        throw new TypeError(`cannot encode ${typeof v}`);
    }
  }

  private tag(t: number): void {
    this.need(1);
    this.buf[this.pos++] = t;
  }

  /** Length-prefixed bytes (bytestr.ts); ASCII is written directly (paths are almost always ASCII). */
  private string(s: string): void {
    const n = s.length;
    this.need(4 + n);
    let p = this.pos + 4;
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c > 0x7f) break;
      this.buf[p++] = c;
    }
    if (i < n) {
      const rest = encodeBytes(s.slice(i));
      this.need(4 + i + rest.byteLength);
      this.buf.set(rest, p);
      p += rest.byteLength;
    }
    this.view.setUint32(this.pos, p - this.pos - 4, true);
    this.pos = p;
  }
}

export class Decoder {
  private view: DataView;
  /** End of the readable bytes: every length is checked against it. */
  readonly end: number;
  private depth = 0;
  pos = 0;

  /**
   * `copyBytes: false` returns byte values as views into `buf` (no copy): the
   * kernel uses this for request data, which the blocked caller cannot change.
   */
  constructor(
    private buf: Uint8Array,
    private readonly copyBytes = true,
  ) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.end = buf.byteLength;
  }

  private need(n: number): void {
    if (n > this.end - this.pos) throw new CodecError(`value truncated at byte ${this.pos}`);
  }

  private count(): number {
    this.need(4);
    const n = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return n;
  }

  value(): Value {
    this.need(1);
    const t = this.buf[this.pos++];
    switch (t) {
      case T_NULL:
        return null;
      case T_UNDEF:
        return undefined;
      case T_FALSE:
        return false;
      case T_TRUE:
        return true;
      case T_INT: {
        this.need(4);
        const v = this.view.getInt32(this.pos, true);
        this.pos += 4;
        return v;
      }
      case T_F64: {
        this.need(8);
        const v = this.view.getFloat64(this.pos, true);
        this.pos += 8;
        return v;
      }
      case T_STR:
        return this.string();
      case T_BYTES: {
        const n = this.count();
        this.need(padTo8(this.pos) + n);
        this.pos += padTo8(this.pos);
        // slice() copies into a fresh, unshared buffer the caller may keep.
        const v = this.copyBytes ? this.buf.slice(this.pos, this.pos + n) : this.buf.subarray(this.pos, this.pos + n);
        this.pos += n;
        return v;
      }
      case T_ARR: {
        // Each item takes at least a byte: a count beyond the bytes left is a lie, refused before allocating.
        const n = this.count();
        this.need(n);
        this.enter();
        const a: Value[] = new Array(n);
        for (let i = 0; i < n; i++) a[i] = this.value();
        this.depth--;
        return a;
      }
      case T_OBJ: {
        const n = this.count();
        if (n > (this.end - this.pos) / 5) throw new CodecError(`object of ${n} keys at byte ${this.pos}`);
        this.enter();
        const o: { [k: string]: Value } = {};
        for (let i = 0; i < n; i++) {
          const k = this.string();
          const v = this.value();
          // An own "__proto__" key stays data; assigning it would replace the object's prototype.
          if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
          else o[k] = v;
        }
        this.depth--;
        return o;
      }
      default:
        throw new CodecError(`bad tag ${t} at byte ${this.pos - 1}`);
    }
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) throw new CodecError(`values nested deeper than ${MAX_DEPTH}`);
  }

  private string(): string {
    const n = this.count();
    this.need(n);
    const start = this.pos;
    const end = start + n;
    this.pos = end;
    let s = '';
    for (let i = start; i < end; i++) {
      const c = this.buf[i];
      if (c > 0x7f) return s + decodeBytes(this.buf.slice(i, end)); // a copy: TextDecoder refuses shared memory
      s += String.fromCharCode(c);
    }
    return s;
  }
}

/** Encode a list of values; returns the byte length used. */
export function encodeInto(buf: Uint8Array, values: Value[]): number {
  const e = new Encoder(buf);
  for (const v of values) e.value(v);
  return e.pos;
}

/** Decode `len` bytes of values; throws CodecError when they are malformed (or `len` is out of range). */
export function decodeAll(buf: Uint8Array, len: number, copyBytes = true): Value[] {
  if (!(len >= 0 && len <= buf.byteLength)) throw new CodecError(`message length ${len} outside 0..${buf.byteLength}`);
  const d = new Decoder(buf.subarray(0, len), copyBytes);
  const out: Value[] = [];
  while (d.pos < d.end) out.push(d.value());
  return out;
}

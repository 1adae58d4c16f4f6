// Compact binary encoding for syscall arguments and results.
//
// Values cross the SharedArrayBuffer as tagged bytes, so file data travels as
// raw bytes (one copy each way, 8-aligned) and small requests cost no JSON parsing.
// Supported: null/undefined, booleans, numbers, strings, Uint8Array, arrays and
// plain objects with string keys.

export type Value = null | undefined | boolean | number | string | Uint8Array | Value[] | { [k: string]: Value };

const T_NULL = 0, T_FALSE = 1, T_TRUE = 2, T_INT = 3, T_F64 = 4, T_STR = 5, T_BYTES = 6, T_ARR = 7, T_OBJ = 8,
  T_UNDEF = 9;

const utf8enc = new TextEncoder();
const utf8dec = new TextDecoder();

/** A lone surrogate: the shell carries bytes that are not UTF-8 (in argv, env, names) as U+DC80..U+DCFF. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** UTF-8 that keeps lone surrogates (as the three bytes their code point would take: WTF-8). */
function wtf8Encode(s: string): Uint8Array {
  const out: number[] = [];
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    if (ch.length === 1 && c >= 0xd800 && c <= 0xdfff) out.push(0xed, 0xa0 | ((c >> 6) & 0x1f), 0x80 | (c & 0x3f));
    else for (const b of utf8enc.encode(ch)) out.push(b);
  }
  return Uint8Array.from(out);
}

/** The inverse of wtf8Encode (anything else that is not UTF-8 becomes U+FFFD, as TextDecoder does). */
function wtf8Decode(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; ) {
    const c = b[i];
    if (c === 0xed && i + 2 < b.length && b[i + 1] >= 0xa0 && b[i + 1] <= 0xbf && (b[i + 2] & 0xc0) === 0x80) {
      s += String.fromCharCode(0xd000 | ((b[i + 1] & 0x3f) << 6) | (b[i + 2] & 0x3f));
      i += 3;
      continue;
    }
    let j = i + 1;
    while (j < b.length && (b[j] & 0xc0) === 0x80 && j - i < 4) j++;
    s += utf8dec.decode(b.subarray(i, j));
    i = j;
  }
  return s;
}

/**
 * Byte payloads start 8-aligned (relative to the buffer, which the channel
 * keeps aligned): V8 copies into and out of a SharedArrayBuffer a word at a
 * time only when aligned, and byte by byte (several times slower) otherwise.
 */
const padTo8 = (pos: number): number => -pos & 7;

/** Thrown when a value does not fit the buffer; callers chunk data below capacity. */
export class CodecOverflow extends Error {}

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

  /** Length-prefixed UTF-8; ASCII is written directly (paths are almost always ASCII). */
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
      const tail = s.slice(i);
      const rest = LONE_SURROGATE.test(tail) ? wtf8Encode(tail) : utf8enc.encode(tail);
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
  }

  value(): Value {
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
        const v = this.view.getInt32(this.pos, true);
        this.pos += 4;
        return v;
      }
      case T_F64: {
        const v = this.view.getFloat64(this.pos, true);
        this.pos += 8;
        return v;
      }
      case T_STR:
        return this.string();
      case T_BYTES: {
        const n = this.view.getUint32(this.pos, true);
        this.pos += 4;
        this.pos += padTo8(this.pos);
        // slice() copies into a fresh, unshared buffer the caller may keep.
        const v = this.copyBytes ? this.buf.slice(this.pos, this.pos + n) : this.buf.subarray(this.pos, this.pos + n);
        this.pos += n;
        return v;
      }
      case T_ARR: {
        const n = this.view.getUint32(this.pos, true);
        this.pos += 4;
        const a: Value[] = new Array(n);
        for (let i = 0; i < n; i++) a[i] = this.value();
        return a;
      }
      case T_OBJ: {
        const n = this.view.getUint32(this.pos, true);
        this.pos += 4;
        const o: { [k: string]: Value } = {};
        for (let i = 0; i < n; i++) {
          const k = this.string();
          o[k] = this.value();
        }
        return o;
      }
      default:
        throw new TypeError(`bad tag ${t} at ${this.pos - 1}`);
    }
  }

  private string(): string {
    const n = this.view.getUint32(this.pos, true);
    this.pos += 4;
    const start = this.pos;
    const end = start + n;
    this.pos = end;
    let s = '';
    for (let i = start; i < end; i++) {
      const c = this.buf[i];
      if (c > 0x7f) {
        const tail = this.buf.slice(i, end);
        const d = utf8dec.decode(tail);
        // U+FFFD may stand for an encoded lone surrogate (or be a real one: wtf8Decode keeps those).
        return s + (d.includes('\ufffd') ? wtf8Decode(tail) : d);
      }
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

export function decodeAll(buf: Uint8Array, len: number, copyBytes = true): Value[] {
  const d = new Decoder(buf.subarray(0, len), copyBytes);
  const out: Value[] = [];
  while (d.pos < len) out.push(d.value());
  return out;
}

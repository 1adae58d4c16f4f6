// The fast path of the JSON reader: recursive descent over a buffer that
// (probably) holds a whole value. It gives up — leaving the value to the
// jq-faithful state machine — on anything unusual (errors, NaN, odd
// numbers), and reports when the buffer ends before the value does.

import { numberLiteral } from './number.js';
import { unescapeJson } from './json-escape.js';
import type { JObject, Json } from './value.js';

export const NEED_MORE = 1;
export const GIVE_UP = 2;

/** Thrown inside the descent to bail out. */
class Bail {
  constructor(readonly why: number) {}
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f]/;

export class FastParser {
  private s = '';
  private i = 0;
  private eof = false;
  /** Newlines skipped and the index after the last one. */
  newlines = 0;
  lastNewline = -1;

  /** Parse one value at i: the value and its end, or NEED_MORE / GIVE_UP. */
  parse(s: string, i: number, eof: boolean): { v: Json; end: number } | number {
    this.s = s;
    this.i = i;
    this.eof = eof;
    this.newlines = 0;
    this.lastNewline = -1;
    try {
      const v = this.value(true);
      return { v, end: this.i };
    } catch (e) {
      if (e instanceof Bail) return e.why;
      throw e;
    }
  }

  private ws(): number {
    const s = this.s;
    let i = this.i;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0d) i++;
      else if (c === 0x0a) {
        this.newlines++;
        this.lastNewline = ++i;
      } else {
        this.i = i;
        if (i >= s.length) throw new Bail(this.eof ? GIVE_UP : NEED_MORE);
        return c;
      }
    }
  }

  private value(top: boolean): Json {
    const c = top ? this.s.charCodeAt(this.i) : this.ws();
    if (c === 0x7b) return this.object();
    if (c === 0x5b) return this.array();
    if (c === 0x22) return this.string();
    return this.scalar(top);
  }

  private object(): JObject {
    const m: JObject = new Map();
    this.i++;
    let c = this.ws();
    if (c === 0x7d) {
      this.i++;
      return m;
    }
    for (;;) {
      if (c !== 0x22) throw new Bail(GIVE_UP);
      const k = this.key(this.string());
      if (this.ws() !== 0x3a) throw new Bail(GIVE_UP);
      this.i++;
      m.set(k, this.value(false));
      c = this.ws();
      this.i++;
      if (c === 0x7d) return m;
      if (c !== 0x2c) throw new Bail(GIVE_UP);
      c = this.ws();
    }
  }

  private array(): Json[] {
    const a: Json[] = [];
    this.i++;
    if (this.ws() === 0x5d) {
      this.i++;
      return a;
    }
    for (;;) {
      a.push(this.value(false));
      const c = this.ws();
      this.i++;
      if (c === 0x5d) return a;
      if (c !== 0x2c) throw new Bail(GIVE_UP);
    }
  }

  /** Object keys repeat: keep one copy of each (up to a bound). */
  private readonly keys = new Map<string, string>();
  private key(k: string): string {
    const hit = this.keys.get(k);
    if (hit !== undefined) return hit;
    if (this.keys.size < 4096) this.keys.set(k, k);
    return k;
  }

  private string(): string {
    const s = this.s;
    const start = this.i + 1;
    let k = s.indexOf('"', start);
    let escaped = false;
    for (;;) {
      if (k < 0) throw new Bail(this.eof ? GIVE_UP : NEED_MORE);
      let b = 0;
      while (s.charCodeAt(k - 1 - b) === 0x5c) b++;
      if (b > 0) escaped = true;
      if ((b & 1) === 0) break;
      k = s.indexOf('"', k + 1);
    }
    this.i = k + 1;
    const raw = s.slice(start, k);
    if (CONTROL.test(raw)) throw new Bail(GIVE_UP);
    if (!escaped && raw.indexOf('\\') < 0) return raw;
    const r = unescapeJson(raw);
    if (typeof r !== 'string') throw new Bail(GIVE_UP);
    return r;
  }

  /** Numbers and true/false/null: the token runs to the next delimiter. */
  private scalar(top: boolean): Json {
    const s = this.s;
    const start = this.i;
    let i = start;
    let c = s.charCodeAt(i);
    let v: Json | undefined;
    if (c === 0x74 && s.startsWith('true', i)) {
      v = true;
      i += 4;
    } else if (c === 0x66 && s.startsWith('false', i)) {
      v = false;
      i += 5;
    } else if (c === 0x6e && s.startsWith('null', i)) {
      v = null;
      i += 4;
    } else {
      // The common canonical number: digits, maybe a fraction, no exponent.
      const neg = c === 0x2d;
      if (neg) c = s.charCodeAt(++i);
      let m = 0;
      let sig = 0;
      let scale = 0;
      let ok = c >= 0x30 && c <= 0x39;
      if (c === 0x30) c = s.charCodeAt(++i);
      else
        while (c >= 0x30 && c <= 0x39) {
          m = m * 10 + (c - 0x30);
          sig++;
          c = s.charCodeAt(++i);
        }
      if (ok && c === 0x2e) {
        c = s.charCodeAt(++i);
        ok = c >= 0x30 && c <= 0x39;
        let last = 0;
        while (c >= 0x30 && c <= 0x39) {
          m = m * 10 + (c - 0x30);
          if (m !== 0) sig++;
          scale++;
          last = c;
          c = s.charCodeAt(++i);
        }
        if (last === 0x30 || scale - sig > 5) ok = false;
      }
      if (ok && sig <= 15 && !(c === 0x65 || c === 0x45 || c === 0x2e)) {
        const d = scale ? m / 10 ** scale : m;
        const a = d;
        if (a === 0 ? sig === 0 : a >= 1e-4 && a < 1e16) v = neg ? -d : d;
      }
      if (v === undefined) {
        while (i < s.length && !isDelimiter(s.charCodeAt(i))) i++;
        const t = s.slice(start, i);
        const c0 = t.charCodeAt(0);
        if (!((c0 >= 0x30 && c0 <= 0x39) || c0 === 0x2d)) throw new Bail(GIVE_UP);
        const n = numberLiteral(t);
        if (n === null || n !== n) throw new Bail(GIVE_UP);
        v = n;
      }
    }
    if (i >= s.length) {
      if (!this.eof) throw new Bail(NEED_MORE);
    } else {
      c = s.charCodeAt(i);
      if (!isDelimiter(c)) throw new Bail(GIVE_UP);
      // A top-level value must end where jq's parser would end it cleanly.
      if (top && (c === 0x2c || c === 0x5d || c === 0x7d || c === 0x3a || c === 0x1e)) throw new Bail(GIVE_UP);
    }
    this.i = i;
    return v;
  }
}

/** Characters that end a number or literal. */
function isDelimiter(c: number): boolean {
  return (
    c === 0x2c || c === 0x5d || c === 0x7d || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x3a ||
    c === 0x22 || c === 0x5b || c === 0x7b || c === 0x1e
  );
}

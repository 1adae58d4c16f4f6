// Reading JSON the way jq's parser does: a stream of texts separated by
// whitespace (or nothing, `1"a"[]`), fed in chunks as they arrive and
// yielding each top-level value as soon as it is complete. The state machine
// follows jq's (literal tokens end at the next non-literal character, values
// go on a stack of open containers and keys), so malformed input fails with
// jq's messages at jq's line and column. Strings and tokens are scanned in
// bulk for speed.

import { ParseError, unescapeJson } from './json-escape.js';
import { FastParser } from './json-fast.js';
import { numberLiteral } from './number.js';
import type { JObject, Json } from './value.js';

export { ParseError, unescapeJson };


const NONE = Symbol('none');
const WAIT = Symbol('wait');
type Slot = Json | typeof NONE;
type Frame = Json[] | JObject | Key;

/** An object key waiting for its value (strings on the stack are keys). */
class Key {
  constructor(readonly k: string) {}
}

/** Characters that end a literal token: whitespace, quote and structure. */
const DELIM = new Uint8Array(128);
for (const c of ' \t\r\n"[]{}:,') DELIM[c.charCodeAt(0)] = 1;
const isDelim = (c: number): boolean => c < 128 && DELIM[c] === 1;

export interface ReaderOptions {
  /** RFC 7464 mode (--seq): RS separates texts and a truncated text is skipped with a warning. */
  seq?: boolean;
  /** Called with "ignoring parse error" messages in seq mode. */
  warn?: (msg: string) => void;
}

export class JsonReader {
  private buf = '';
  private pos = 0;
  private readonly stack: Frame[] = [];
  private next: Slot = NONE;
  /** A literal token scanned but not yet ended (it ends at the next delimiter). */
  private tok: string | null = null;
  private eof = false;
  /** jq's position: line counts from 1, column is characters since the last newline. */
  private line = 1;
  private col = 0;
  /** Index in buf where the current line starts (-1: in an earlier chunk). */
  private lineStart = 0;
  /** The character at pos was already counted (a value was emitted just before it). */
  private counted = false;
  /** Newlines consumed when the last value was emitted, counting the rest of its line (jq reads by line). */
  lineNo = 0;
  /** Text fed but not yet joined to buf. */
  private pending: string[] = [];
  private pendingLen = 0;
  private readonly fast = new FastParser();

  constructor(private readonly opts: ReaderOptions = {}) {}

  feed(text: string): void {
    this.pending.push(text);
    this.pendingLen += text.length;
  }

  /** Make buf hold everything unread. */
  private join(): void {
    if (this.pendingLen === 0 && this.pending.length === 0) return;
    const rest = this.buf.slice(this.pos);
    this.lineStart = this.lineStart >= this.pos ? this.lineStart - this.pos : -1;
    this.buf = rest + this.pending.join('');
    this.pending = [];
    this.pendingLen = 0;
    this.pos = 0;
  }

  end(): void {
    this.eof = true;
  }

  /** The next complete value; undefined when more input is needed (or at the end). */
  read(): Json | undefined {
    for (;;) {
      try {
        return this.step();
      } catch (e) {
        if (!(e instanceof ParseError) || !this.opts.seq) throw e;
        this.opts.warn?.(`ignoring parse error: ${e.msg}`);
        this.resync();
      }
    }
  }

  /** After an error in --seq mode: drop everything up to the next RS. */
  private resync(): void {
    this.stack.length = 0;
    this.next = NONE;
    this.tok = null;
    const k = this.buf.indexOf('\x1e', this.pos);
    this.pos = k < 0 ? this.buf.length : k;
  }

  private step(): Json | undefined {
    if (this.stack.length === 0 && this.next === NONE && this.tok === null && !this.counted && !this.opts.seq) {
      this.join();
      const v = this.fastValue();
      if (v !== undefined) return v === WAIT ? undefined : v;
    } else this.join();
    const s = this.buf;
    const n = s.length;
    let i = this.pos;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (!isDelim(c) && c !== 0x1e) {
        let j = i + 1;
        while (j < n && !isDelim(s.charCodeAt(j)) && s.charCodeAt(j) !== 0x1e) j++;
        if (j === n && !this.eof) break;
        if (this.tok !== null) this.tok += s.slice(i, j);
        else this.tok = s.slice(i, j);
        this.col += j - i;
        i = j;
        continue;
      }
      if (this.counted) this.counted = false;
      else if (c === 0x0a) {
        this.line++;
        this.col = 0;
        this.lineStart = i + 1;
      } else this.col++;
      if (this.tok !== null) {
        this.literal(i, false);
        // A finished top-level scalar is emitted before the character after it
        // is handled; a closer or separator there fails, and the value is lost.
        if (this.next !== NONE && this.stack.length === 0) {
          if (c === 0x5d || c === 0x7d || c === 0x3a || c === 0x2c) this.next = NONE;
          else if (c === 0x22 || c === 0x5b || c === 0x7b) {
            this.counted = true;
            return this.emit(i, false);
          }
        }
      }
      if (c === 0x22) {
        const j = this.stringEnd(i + 1);
        if (j < 0) {
          if (this.eof) return this.unfinishedString(i);
          this.counted = true;
          break;
        }
        this.value(this.string(i, j), j);
        i = j + 1;
      } else {
        if (c === 0x1e) {
          if (!this.opts.seq) this.fail('Invalid numeric literal', i);
          if (this.stack.length || this.next !== NONE) {
            this.stack.length = 0;
            this.next = NONE;
            this.opts.warn?.(`ignoring parse error: Unfinished abandoned text at line ${this.line}, column ${this.col}`);
          }
        } else if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0d) this.token(c, i);
        i++;
      }
      if (this.next !== NONE && this.stack.length === 0) return this.emit(i, c === 0x0a);
    }
    this.pos = i;
    if (!this.eof) return undefined;
    if (this.tok !== null) {
      if (this.opts.seq) {
        this.tok = null;
        this.opts.warn?.(`ignoring parse error: Unfinished abandoned text at EOF at line ${this.line}, column ${this.col}`);
        return undefined;
      }
      this.literal(i, true);
    }
    if (this.next !== NONE && this.stack.length === 0) return this.emit(i, false);
    if (this.stack.length) {
      if (this.opts.seq) {
        this.stack.length = 0;
        this.next = NONE;
        this.opts.warn?.(`ignoring parse error: Unfinished abandoned text at EOF at line ${this.line}, column ${this.col}`);
        return undefined;
      }
      this.fail('Unfinished JSON term', i, true);
    }
    return undefined;
  }

  /** Try the fast path on the next value: the value, WAIT for more input, or undefined to use the state machine. */
  private fastValue(): Json | typeof WAIT | undefined {
    const s = this.buf;
    let i = this.pos;
    for (; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 0x0a) {
        this.line++;
        this.col = 0;
        this.lineStart = i + 1;
      } else if (c === 0x20 || c === 0x09 || c === 0x0d) this.col++;
      else break;
    }
    this.pos = i;
    if (i === s.length) return this.eof ? undefined : WAIT;
    const r = this.fast.parse(s, i, this.eof);
    // Unusual text, or a value not yet complete: the state machine takes it from here.
    if (typeof r === 'number') return undefined;
    if (this.fast.newlines) {
      this.line += this.fast.newlines;
      this.lineStart = this.fast.lastNewline;
      this.col = r.end - this.fast.lastNewline;
    } else this.col += r.end - i;
    this.next = r.v;
    return this.emit(r.end, false);
  }

  private emit(i: number, atNewline: boolean): Json {
    const v = this.next as Json;
    this.next = NONE;
    this.pos = i;
    // jq reads its input a line at a time: the rest of this line is already read.
    this.lineNo = this.line - 1 + (!atNewline && this.buf.indexOf('\n', i) >= 0 ? 1 : 0);
    return v;
  }

  /** Index of the closing quote of a string whose body starts at `from`, or -1. */
  private stringEnd(from: number): number {
    const s = this.buf;
    for (let k = s.indexOf('"', from); k >= 0; k = s.indexOf('"', k + 1)) {
      let b = 0;
      while (s.charCodeAt(k - 1 - b) === 0x5c) b++;
      if ((b & 1) === 0) return k;
    }
    return -1;
  }

  /** The string between quotes at i and j, unescaped and checked. */
  private string(i: number, j: number): string {
    const s = this.buf;
    const raw = s.slice(i + 1, j);
    if (raw.includes('\n')) {
      this.line += raw.split('\n').length - 1;
      this.lineStart = i + 1 + raw.lastIndexOf('\n') + 1;
      this.col = j - this.lineStart + 1;
    } else this.col += j - i;
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f]/.test(raw)) this.fail('Invalid string: control characters from U+0000 through U+001F must be escaped', j);
    if (!raw.includes('\\')) return raw;
    const r = unescapeJson(raw);
    if (r instanceof ParseError) this.fail(r.msg, j);
    return r as string;
  }

  private unfinishedString(i: number): never {
    const rest = this.buf.slice(i + 1);
    const nl = rest.lastIndexOf('\n');
    if (nl >= 0) {
      this.line += rest.split('\n').length - 1;
      this.col = rest.length - nl - 1;
    } else this.col += rest.length;
    this.pos = this.buf.length;
    this.fail('Unfinished string', this.buf.length, true);
  }

  /** End the pending literal token: true/false/null/nan or a number. */
  private literal(i: number, atEof: boolean): void {
    const t = this.tok!;
    this.tok = null;
    let v: Json | undefined;
    const c = t.charCodeAt(0);
    if (c === 0x74 /* t */ || c === 0x66 /* f */ || (c === 0x6e /* n */ && t !== 'nan')) {
      const want = c === 0x74 ? 'true' : c === 0x66 ? 'false' : 'null';
      if (t !== want) this.fail('Invalid literal', i, atEof);
      v = c === 0x74 ? true : c === 0x66 ? false : null;
    } else {
      v = parseNumberToken(t);
      if (v === undefined) this.fail('Invalid numeric literal', i, atEof);
    }
    this.value(v, i);
  }

  private value(v: Json, i: number): void {
    if (this.next !== NONE) this.fail('Expected separator between values', i);
    this.next = v;
  }

  private token(c: number, i: number): void {
    const st = this.stack;
    const top = st.length ? st[st.length - 1] : undefined;
    switch (c) {
      case 0x5b: // [
        if (this.next !== NONE) this.fail('Expected separator between values', i);
        st.push([]);
        return;
      case 0x7b: // {
        if (this.next !== NONE) this.fail('Expected separator between values', i);
        st.push(new Map());
        return;
      case 0x3a: // :
        if (this.next === NONE) this.fail("Expected string key before ':'", i);
        if (!(top instanceof Map)) this.fail("':' not as part of an object", i);
        if (typeof this.next !== 'string') this.fail('Object keys must be strings', i);
        st.push(new Key(this.next as string));
        this.next = NONE;
        return;
      case 0x2c: // ,
        if (this.next === NONE) this.fail("Expected value before ','", i);
        if (top === undefined) this.fail("',' not as part of an object or array", i);
        if (Array.isArray(top)) top.push(this.next as Json);
        else if (top instanceof Key) {
          st.pop();
          (st[st.length - 1] as JObject).set(top.k, this.next as Json);
        } else this.fail('Objects must consist of key:value pairs', i);
        this.next = NONE;
        return;
      case 0x5d: // ]
        if (!Array.isArray(top)) this.fail("Unmatched ']'", i);
        if (this.next !== NONE) top.push(this.next as Json);
        else if (top.length) this.fail('Expected another array element', i);
        st.pop();
        this.next = top;
        return;
      case 0x7d: // }
        if (top === undefined) this.fail("Unmatched '}'", i);
        if (this.next !== NONE) {
          if (!(top instanceof Key)) this.fail('Objects must consist of key:value pairs', i);
          st.pop();
          (st[st.length - 1] as JObject).set(top.k, this.next as Json);
        } else {
          if (!(top instanceof Map)) this.fail("Unmatched '}'", i);
          if (top.size) this.fail('Expected another key-value pair', i);
        }
        this.next = st.pop() as JObject;
        return;
    }
  }

  private fail(msg: string, i: number, atEof = false): never {
    // Columns count bytes, as jq's do.
    const from = this.lineStart < 0 ? 0 : this.lineStart;
    const extra = utf8Extra(this.buf.slice(from, Math.min(i + 1, this.buf.length)));
    throw new ParseError(`${msg}${atEof ? ' at EOF' : ''} at line ${this.line}, column ${this.col + extra}`);
  }
}

/** Bytes beyond one per character in the UTF-8 form of s. */
function utf8Extra(s: string): number {
  let extra = 0;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c >= 0x80) extra += c < 0x800 ? 1 : c >= 0xd800 && c <= 0xdbff ? 1 : c >= 0xdc00 && c <= 0xdfff ? 1 : 2;
  }
  return extra;
}

const SPECIAL = /^[+-]?(nan|inf|infinity)$/i;

/** A number token as jq reads it (leading zeros, `.5`, `1.`, NaN and infinities allowed); undefined if invalid. */
export function parseNumberToken(t: string): Json | undefined {
  const v = numberLiteral(t[0] === '+' ? t.slice(1) : t);
  if (v !== null) return v;
  if (SPECIAL.test(t)) return /nan/i.test(t) ? NaN : t[0] === '-' ? -Infinity : Infinity;
  return undefined;
}

/** Parse one complete text (fromjson, --argjson, --jsonargs); errors say "at EOF" like jq's. */
export function parseJsonText(text: string): Json {
  const r = new JsonReader();
  r.feed(text);
  r.end();
  const v = r.read();
  if (v === undefined) return null;
  if (r.read() !== undefined) throw new ParseError('Unexpected extra JSON values');
  return v;
}

/** Every value of a complete text (--slurpfile). */
export function parseJsonAll(text: string): Json[] {
  const r = new JsonReader();
  r.feed(text);
  r.end();
  const out: Json[] = [];
  for (let v = r.read(); v !== undefined; v = r.read()) out.push(v);
  return out;
}

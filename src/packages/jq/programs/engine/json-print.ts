// Serialising values the way jq prints them: compact or indented (spaces or a
// tab), keys optionally sorted, optional ASCII-only escapes and jq's ANSI
// colours (JQ_COLORS order: null:false:true:numbers:strings:arrays:objects:keys).

import { fmtNumber } from './number.js';
import { compareStrings, Lit, type JObject, type Json } from './value.js';

export interface PrintOptions {
  /** Spaces per level; 0 is compact. */
  indent: number;
  tab: boolean;
  sortKeys: boolean;
  ascii: boolean;
  /** Colour escape sequences (without ESC[ and m) or null for none. */
  colors: string[] | null;
}

/** jq 1.7.1's default colours. */
export const DEFAULT_COLORS = ['0;90', '0;37', '0;37', '0;37', '0;32', '1;37', '1;37', '34;1'];

// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const ESCAPES = /["\\\u0000-\u001f\u007f]/g;
// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\u0000-\u007f]/;
const SHORT: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r', '\b': '\\b', '\f': '\\f' };

const hex4 = (c: number): string => '\\u' + c.toString(16).padStart(4, '0');
const escapeOne = (ch: string): string => SHORT[ch] ?? hex4(ch.charCodeAt(0));

/** A string as a JSON string literal, escaped like jq. */
export function quoteString(s: string, ascii = false): string {
  let body = NEEDS_ESCAPE.test(s) ? s.replace(ESCAPES, escapeOne) : s;
  if (ascii && NON_ASCII.test(body)) {
    let out = '';
    for (let i = 0; i < body.length; i++) {
      const c = body.charCodeAt(i);
      out += c < 0x80 ? body[i] : hex4(c);
    }
    body = out;
  }
  return `"${body}"`;
}

/** Compact JSON text of a value (tojson, tostring, error messages). */
export function toJson(v: Json): string {
  switch (typeof v) {
    case 'string':
      return quoteString(v);
    case 'number':
      return fmtNumber(v);
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (v === null) return 'null';
  if (v instanceof Lit) return v.s;
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) s += (i ? ',' : '') + toJson(v[i]);
    return s + ']';
  }
  let s = '{';
  let first = true;
  for (const [k, x] of v) {
    s += (first ? '' : ',') + quoteString(k) + ':' + toJson(x);
    first = false;
  }
  return s + '}';
}

/** Formats values per the options; one instance per output configuration. */
export class Printer {
  private readonly unit: string;
  private readonly col: string[] | null;

  constructor(private readonly o: PrintOptions) {
    this.unit = o.tab ? '\t' : ' '.repeat(o.indent);
    this.col = o.colors ? o.colors.map((c) => `\x1b[${c}m`) : null;
  }

  get plain(): boolean {
    return !this.o.sortKeys && !this.o.ascii && !this.col && this.unit === '';
  }

  format(v: Json): string {
    if (this.plain) return toJson(v);
    return this.col ? this.colored(v, '') : this.pretty(v, '');
  }

  private str(s: string): string {
    return quoteString(s, this.o.ascii);
  }

  private keys(o: JObject): string[] {
    const ks = [...o.keys()];
    return this.o.sortKeys ? ks.sort(compareStrings) : ks;
  }

  private pretty(v: Json, ind: string): string {
    if (typeof v === 'string') return this.str(v);
    if (v === null || typeof v !== 'object' || v instanceof Lit) return toJson(v);
    const nl = this.unit ? '\n' : '';
    const inner = ind + this.unit;
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      let s = '[';
      for (let i = 0; i < v.length; i++) s += (i ? ',' : '') + nl + inner + this.pretty(v[i], inner);
      return s + nl + ind + ']';
    }
    if (v.size === 0) return '{}';
    let s = '{';
    let first = true;
    const sep = this.unit ? ': ' : ':';
    for (const k of this.keys(v)) {
      s += (first ? '' : ',') + nl + inner + this.str(k) + sep + this.pretty(v.get(k)!, inner);
      first = false;
    }
    return s + nl + ind + '}';
  }

  /** jq's coloured layout: every token wrapped in its colour and a reset, as jv_dump_term emits them. */
  private colored(v: Json, ind: string): string {
    const c = this.col!;
    const RESET = '\x1b[0m';
    let color: string;
    if (v === null) color = c[0];
    else if (v === false) color = c[1];
    else if (v === true) color = c[2];
    else if (typeof v === 'number' || v instanceof Lit) color = c[3];
    else if (typeof v === 'string') color = c[4];
    else if (Array.isArray(v)) color = c[5];
    else color = c[6];
    if (v === null || typeof v !== 'object' || v instanceof Lit) {
      return color + (typeof v === 'string' ? this.str(v) : toJson(v)) + RESET;
    }
    const nl = this.unit ? '\n' : '';
    const inner = ind + this.unit;
    let s = color;
    if (Array.isArray(v)) {
      if (v.length === 0) return s + '[]' + RESET;
      s += '[';
      for (let i = 0; i < v.length; i++) s += (i ? ',' : '') + nl + inner + this.colored(v[i], inner) + color;
      return s + nl + ind + color + ']' + RESET;
    }
    if (v.size === 0) return s + '{}' + RESET;
    s += '{';
    let first = true;
    for (const k of this.keys(v)) {
      s += (first ? '' : ',') + nl + inner + RESET + c[7] + this.str(k) + RESET + color + ':' + (this.unit ? ' ' : '') + RESET;
      s += this.colored(v.get(k)!, inner) + color;
      first = false;
    }
    return s + nl + ind + color + '}' + RESET;
  }
}

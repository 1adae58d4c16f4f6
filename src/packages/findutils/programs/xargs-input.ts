// How xargs splits its input into arguments: blank-separated words with
// quotes and backslashes (the default), whole lines (-I), or items ended by a
// delimiter with no quoting at all (-0, -d).

import type { Sys } from '../../../libc/sys.js';
import { chunks, latin1 } from '../../../userland/lib/index.js';

/** Bad quoting: the message and the items parsed before it (GNU still runs those). */
export class InputError extends Error {
  constructor(msg: string, readonly items: Item[]) {
    super(msg);
  }
}

const quoteError = (q: string, items: Item[]) =>
  new InputError(`unmatched ${q === "'" ? 'single' : 'double'} quote; by default quotes are special to xargs unless you use the -0 option`, items);

/** One argument and whether a line ended right after it (for -L). */
export interface Item {
  arg: string;
  eol: boolean;
}

/** Read all input as latin1 text (byte-transparent; re-encoded on output by the caller). */
export function readAllText(sys: Sys, fd: number): string {
  let s = '';
  for (const b of chunks(sys, fd)) s += latin1(b);
  return s;
}

/** -0 / -d: split on the delimiter; a final empty item is dropped. */
export function splitDelim(text: string, delim: string): Item[] {
  const parts = text.split(delim);
  if (parts[parts.length - 1] === '') parts.pop();
  return parts.map((arg) => ({ arg, eol: true }));
}

const isBlank = (c: string): boolean => c === ' ' || c === '\t';

/**
 * Default parsing. `lines`: -I mode, one argument per line (leading blanks
 * dropped, inner blanks kept). A line ending in a blank continues (for -L).
 * `eof`: -E string ending the input.
 */
export function splitWords(text: string, lines: boolean, eof: string | undefined): Item[] {
  const out: Item[] = [];
  let cur = '';
  let have = false;
  let quote = '';
  const push = (eol: boolean) => {
    if (have) out.push({ arg: cur, eol });
    else if (eol && out.length && !lines) out[out.length - 1].eol = true;
    cur = '';
    have = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
      else if (c === '\n') throw quoteError(quote, out);
      else cur += c;
      continue;
    }
    if (c === '\n') {
      const trailingBlank = i > 0 && isBlank(text[i - 1]) && !lines;
      if (eof !== undefined && have && cur === eof) return out;
      push(!trailingBlank);
      continue;
    }
    if (isBlank(c) && (!lines || !have)) {
      if (lines) continue;
      if (eof !== undefined && have && cur === eof) return out;
      push(false);
      continue;
    }
    if (c === '\\' && i + 1 < text.length) {
      cur += text[++i];
      have = true;
    } else if (c === "'" || c === '"') {
      quote = c;
      have = true;
    } else {
      cur += c;
      have = true;
    }
  }
  if (quote) throw quoteError(quote, out);
  if (eof !== undefined && have && cur === eof) return out;
  push(true);
  return out;
}

/** -d's delimiter: a character or an escape (\n, \t, \0, \x41, \012). */
export function parseDelim(d: string): string | null {
  if (d.length === 1) return d;
  const esc: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v', '\\': '\\', '0': '\0' };
  if (d.length === 2 && d[0] === '\\' && d[1] in esc) return esc[d[1]];
  let m = /^\\x([0-9a-fA-F]{1,2})$/.exec(d);
  if (m) return String.fromCharCode(parseInt(m[1], 16));
  m = /^\\([0-7]{1,3})$/.exec(d);
  if (m) return String.fromCharCode(parseInt(m[1], 8));
  return null;
}

// What tput and clear share: finding the terminal's entry, the screen size
// ncurses would report, terminfo's parameter language (tparm) and output
// without padding (there is no baud rate to pad for).

import type { Cmd } from '../../../userland/lib/index.js';
import { winsize } from '../../../userland/lib/index.js';
import { BOOL_CAPS, NUM_CAPS, STR_CAPS, TERMINFO, type TermEntry } from './terminfo.js';

export const NCURSES_VERSION = 'ncurses 6.4.20221231';

export function entry(name: string): TermEntry | null {
  if (TERMINFO[name]) return TERMINFO[name];
  return Object.values(TERMINFO).find((e) => e.names.split('|').slice(0, -1).includes(name)) ?? null;
}

export type CapType = 'bool' | 'num' | 'str';

/** A capability's type: the standard names, then the entry's own extended ones; null if unknown. */
export function capType(e: TermEntry, name: string): CapType | null {
  if (BOOL_CAPS.has(name)) return 'bool';
  if (NUM_CAPS.has(name)) return 'num';
  if (STR_CAPS.has(name)) return 'str';
  if (e.bools.includes(name)) return 'bool';
  if (name in e.nums) return 'num';
  if (name in e.strs) return 'str';
  return null;
}

/**
 * lines and cols as ncurses computes them: the window size of a terminal on
 * stdout, stderr or stdin; then $LINES/$COLUMNS override it; then the entry's
 * values; else 24x80.
 */
export function screenSize(c: Cmd, e: TermEntry): { lines: number; cols: number } {
  let lines = 0;
  let cols = 0;
  for (const fd of [1, 2, 0]) {
    const w = winsize(c.sys, fd);
    if (w && w.rows > 0 && w.cols > 0) {
      lines = w.rows;
      cols = w.cols;
      break;
    }
  }
  const envNum = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : 0);
  lines = envNum(c.os.env.LINES) || lines || e.nums.lines || 24;
  cols = envNum(c.os.env.COLUMNS) || cols || e.nums.cols || 80;
  return { lines, cols };
}

/** Padding ($<5>, $<50/*>) only means something at a baud rate: dropped. */
export const unpad = (s: string): string => s.replace(/\$<[0-9.]*[*/]*>/g, '');

/** Bytes of a terminfo string (one char per byte). */
export const bytes = (s: string): Uint8Array => Uint8Array.from(s, (ch) => ch.charCodeAt(0) & 0xff);

/** The parameters a string uses (%p1..%p9), and which of them are strings (%s or %l). */
export function analyze(s: string): { count: number; strings: Set<number> } {
  let count = 0;
  const strings = new Set<number>();
  const re = /%p([1-9])(%[:+#-]*\d*(?:\.\d+)?s|%l)?/g;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    count = Math.max(count, Number(m[1]));
    if (m[2]) strings.add(Number(m[1]));
  }
  return { count, strings };
}

type Value = number | string;

/** terminfo's stack language: %p push a parameter, %d %s print, %? %t %e %; conditionals, arithmetic, variables. */
export function tparm(s: string, params: Value[]): string {
  const p: Value[] = Array.from({ length: 9 }, (_, i) => params[i] ?? 0);
  const stack: Value[] = [];
  const vars: Record<string, Value> = {};
  const pop = (): Value => stack.pop() ?? 0;
  const num = (): number => {
    const v = pop();
    return typeof v === 'number' ? v : 0;
  };
  let out = '';
  let i = 0;
  /** Skip to the %e or %; closing the current conditional level (or to %; only). */
  const skip = (toElse: boolean) => {
    let depth = 0;
    while (i < s.length) {
      if (s[i] === '%' && i + 1 < s.length) {
        const ch = s[i + 1];
        i += 2;
        if (ch === '?') depth++;
        else if (ch === ';') {
          if (depth === 0) return;
          depth--;
        } else if (ch === 'e' && depth === 0 && toElse) return;
      } else i++;
    }
  };
  while (i < s.length) {
    const ch = s[i++];
    if (ch !== '%') {
      out += ch;
      continue;
    }
    const fmt = /^:?([-+# 0]*)(\d*)(?:\.(\d+))?([doxXsc])/.exec(s.slice(i));
    if (fmt && (fmt[1] || fmt[2] || fmt[3] !== undefined || 'doxXs'.includes(fmt[4]))) {
      i += fmt[0].length;
      out += format(fmt[1], fmt[2], fmt[3], fmt[4], pop());
      continue;
    }
    const op = s[i++];
    switch (op) {
      case '%': out += '%'; break;
      case 'c': out += String.fromCharCode(num() & 0xff); break;
      case 'p': stack.push(p[Number(s[i++]) - 1] ?? 0); break;
      case 'P': vars[s[i++]] = pop(); break;
      case 'g': stack.push(vars[s[i++]] ?? 0); break;
      case "'": stack.push(s.charCodeAt(i)); i += 2; break;
      case '{': {
        const end = s.indexOf('}', i);
        stack.push(Number(s.slice(i, end)) || 0);
        i = end + 1;
        break;
      }
      case 'l': stack.push(String(pop()).length); break;
      case '+': case '-': case '*': case '/': case 'm': case '&': case '|': case '^':
      case '=': case '>': case '<': case 'A': case 'O': {
        const b = num();
        const a = num();
        const r = {
          '+': a + b, '-': a - b, '*': a * b, '/': b ? Math.trunc(a / b) : 0, m: b ? a % b : 0, '&': a & b, '|': a | b,
          '^': a ^ b, '=': +(a === b), '>': +(a > b), '<': +(a < b), A: +(a !== 0 && b !== 0), O: +(a !== 0 || b !== 0),
        }[op];
        stack.push(r);
        break;
      }
      case '!': stack.push(+(num() === 0)); break;
      case '~': stack.push(~num()); break;
      case 'i':
        if (typeof p[0] === 'number') p[0]++;
        if (typeof p[1] === 'number') p[1]++;
        break;
      case '?': break;
      case 't': if (num() === 0) skip(true); break;
      case 'e': skip(false); break;
      case ';': break;
      default: out += `%${op ?? ''}`;
    }
  }
  return out;
}

function format(flags: string, width: string, prec: string | undefined, conv: string, v: Value): string {
  let body: string;
  if (conv === 's') body = String(v);
  else if (conv === 'c') body = String.fromCharCode(Number(v) & 0xff);
  else {
    const n = typeof v === 'number' ? v : 0;
    const radix = conv === 'o' ? 8 : conv === 'd' ? 10 : 16;
    body = Math.abs(n).toString(radix);
    if (conv === 'X') body = body.toUpperCase();
    if (prec !== undefined) body = body.padStart(Number(prec), '0');
    if (flags.includes('#') && n !== 0) body = (conv === 'o' ? '0' : conv === 'x' ? '0x' : conv === 'X' ? '0X' : '') + body;
    const sign = n < 0 ? '-' : flags.includes('+') && conv === 'd' ? '+' : flags.includes(' ') && conv === 'd' ? ' ' : '';
    body = sign + body;
    if (flags.includes('0') && !flags.includes('-') && width) body = sign + body.slice(sign.length).padStart(Number(width) - sign.length, '0');
  }
  if (conv === 's' && prec !== undefined) body = body.slice(0, Number(prec));
  const w = Number(width || 0);
  return flags.includes('-') ? body.padEnd(w) : body.padStart(w);
}

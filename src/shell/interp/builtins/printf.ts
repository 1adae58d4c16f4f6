// printf [-v VAR] FORMAT [ARG...] — the format is reused until the arguments run out.

import { expandWord } from '../../expand/index.js';
import { decodeEscapes } from '../../syntax/ansi.js';
import { parseSubscript } from '../../syntax/index.js';
import { expandContext } from '../context.js';
import { byteChar, encodeShell } from '../../bytes.js';
import type { Builtin } from './types.js';
import { ShellError } from '../vars.js';

/** A control character or a byte that is not UTF-8: what only $'...' can spell. */
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\x00-\x1f\x7f]|(?<![\ud800-\udbff])[\udc80-\udcff]/;

/** $'...' quoting (bash's ansic_quote): named escapes, else \NNN octal bytes. */
export function dollarQuote(s: string): string {
  const named: Record<string, string> = { '\n': 'n', '\t': 't', '\r': 'r', '\x1b': 'E', '\x07': 'a', '\b': 'b', '\f': 'f', '\v': 'v' };
  const body = s.replace(/[\\']/g, (c) => `\\${c}`).replace(new RegExp(UNPRINTABLE.source, 'g'), (c) => {
    const code = c.charCodeAt(0);
    return named[c] ? `\\${named[c]}` : `\\${(code >= 0xdc80 ? code - 0xdc00 : code).toString(8).padStart(3, '0')}`;
  });
  return `$'${body}'`;
}

/** Whether a string holds what only $'...' can spell. */
export const needsDollarQuote = (s: string): boolean => UNPRINTABLE.test(s);

function quote(s: string): string {
  if (s === '') return "''";
  if (/^[\w@%+=:,./-]+$/.test(s)) return s;
  // Other non-ASCII text stays as it is.
  if (needsDollarQuote(s)) return dollarQuote(s);
  return s.replace(/[^\w@%+=:,./\u0080-\uffff-]/g, (c) => `\\${c}`);
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** strftime(3) for %(...)T, in UTC (the VM has no time zone database). */
function strftime(fmt: string, d: Date): string {
  const p2 = (n: number, pad = '0') => String(n).padStart(2, pad);
  const yday = Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86400000) + 1;
  const h12 = d.getUTCHours() % 12 || 12;
  const conv = (c: string): string => {
    switch (c) {
      case 'Y': return String(d.getUTCFullYear());
      case 'C': return p2(Math.floor(d.getUTCFullYear() / 100));
      case 'y': return p2(d.getUTCFullYear() % 100);
      case 'm': return p2(d.getUTCMonth() + 1);
      case 'd': return p2(d.getUTCDate());
      case 'e': return p2(d.getUTCDate(), ' ');
      case 'H': return p2(d.getUTCHours());
      case 'k': return p2(d.getUTCHours(), ' ');
      case 'I': return p2(h12);
      case 'l': return p2(h12, ' ');
      case 'M': return p2(d.getUTCMinutes());
      case 'S': return p2(d.getUTCSeconds());
      case 'p': return d.getUTCHours() < 12 ? 'AM' : 'PM';
      case 'P': return d.getUTCHours() < 12 ? 'am' : 'pm';
      case 'j': return String(yday).padStart(3, '0');
      case 'a': return DAYS[d.getUTCDay()].slice(0, 3);
      case 'A': return DAYS[d.getUTCDay()];
      case 'b': case 'h': return MONTHS[d.getUTCMonth()].slice(0, 3);
      case 'B': return MONTHS[d.getUTCMonth()];
      case 'u': return String(d.getUTCDay() || 7);
      case 'w': return String(d.getUTCDay());
      case 's': return String(Math.floor(d.getTime() / 1000));
      case 'z': return '+0000';
      case 'Z': return 'UTC';
      case 'n': return '\n';
      case 't': return '\t';
      case '%': return '%';
      case 'D': return `${conv('m')}/${conv('d')}/${conv('y')}`;
      case 'F': return `${conv('Y')}-${conv('m')}-${conv('d')}`;
      case 'T': return `${conv('H')}:${conv('M')}:${conv('S')}`;
      case 'R': return `${conv('H')}:${conv('M')}`;
      case 'r': return `${conv('I')}:${conv('M')}:${conv('S')} ${conv('p')}`;
      case 'c': return `${conv('a')} ${conv('b')} ${conv('e')} ${conv('T')} ${conv('Y')}`;
      case 'x': return conv('D');
      case 'X': return conv('T');
      default: return `%${c}`;
    }
  };
  // An empty format is bash's default, %X.
  return (fmt || '%X').replace(/%(.)/g, (_, c: string) => conv(c));
}

export const printf: Builtin = (sh, argv) => {
  let args = argv.slice(1);
  let target: string | null = null;
  if (args[0] === '-v') {
    target = args[1];
    if (target === undefined) throw new ShellError('printf: -v: option requires an argument', 2);
    args = args.slice(2);
  }
  if (args[0] === '--') args = args.slice(1);
  if (args.length === 0) {
    sh.write(2, 'printf: usage: printf [-v var] format [arguments]\n');
    return 2;
  }
  const [format, ...rest] = args;
  let status = 0;
  let out = '';
  let i = 0;
  const next = (): string | undefined => (i < rest.length ? rest[i++] : undefined);
  const bad = (s: string) => {
    sh.error(`printf: ${s}: invalid number`);
    status = 1;
  };
  /** Float conversions' argument. */
  const num = (s: string | undefined): number => {
    if (s === undefined || s === '') return 0;
    if (/^['"]/.test(s)) return s.length > 1 ? s.codePointAt(1)! : 0;
    const v = Number(s.trim());
    if (!Number.isNaN(v)) return v;
    bad(s);
    const lead = /^\s*[+-]?(\d+\.?\d*|\.\d+)/.exec(s);
    return lead ? Number(lead[0]) : 0;
  };
  /** Integer conversions' argument, 64-bit like bash's intmax_t (decimal, 0x hex, 0 octal, 'c). */
  const int = (s: string | undefined): bigint => {
    if (s === undefined || s === '') return 0n;
    if (/^['"]/.test(s)) return BigInt(s.length > 1 ? s.codePointAt(1)! : 0);
    const m = /^\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)/.exec(s);
    if (!m) {
      bad(s);
      return 0n;
    }
    let v = BigInt(m[2].startsWith('0') && !/^0[xX]/.test(m[2]) && m[2].length > 1 ? `0o${m[2].slice(1)}` : m[2]);
    if (m[1] === '-') v = -v;
    if (m[0].length !== s.length) bad(s);
    else if (v > 0x7fffffffffffffffn || v < -0x8000000000000000n) {
      sh.error(`printf: warning: ${s}: Numerical result out of range`);
      status = 1;
      v = v < 0n ? -0x8000000000000000n : 0x7fffffffffffffffn;
    }
    return v;
  };
  do {
    const start = i;
    let stop = false;
    for (let p = 0; p < format.length && !stop; p++) {
      const c = format[p];
      if (c === '\\') {
        const m = /^\\([0-7]{1,3}|x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|.)/.exec(format.slice(p));
        const esc = m ? m[0] : '\\';
        out += esc === '\\c' ? '' : decodeEscapes(esc.startsWith('\\0') ? `\\${esc.slice(2) || '0'}` : esc, 'printf').text;
        if (esc === '\\c') stop = true;
        p += esc.length - 1;
        continue;
      }
      if (c !== '%') {
        out += c;
        continue;
      }
      const m = /^%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?(\([^)]*\)T|[diouxXfFeEgGcsbq%])/.exec(format.slice(p));
      if (!m) {
        const bad = format[p + 1] ?? '';
        throw new ShellError(`printf: \`${bad}': invalid format character`, 1);
      }
      p += m[0].length - 1;
      const [, flags, w, prec, conv] = m;
      if (conv === '%') {
        out += '%';
        continue;
      }
      const width = w === '*' ? Number(int(next())) : w ? Number(w) : 0;
      const precision = prec === undefined ? undefined : prec === '*' ? Number(int(next())) : Number(prec || 0);
      const arg = next();
      let s: string;
      switch (conv[0]) {
        case '(': {
          // %(fmt)T: strftime of the argument (seconds; empty or -1 now, -2 the shell's start).
          const t = arg === undefined || arg === '' ? -1n : int(arg);
          const ms = t === -1n ? Date.now() : t === -2n ? sh.startMs : Number(t) * 1000;
          s = strftime(conv.slice(1, -2), new Date(ms));
          if (precision !== undefined) s = s.slice(0, precision);
          break;
        }
        case 's':
          s = arg ?? '';
          if (precision !== undefined) s = s.slice(0, precision);
          break;
        case 'b': {
          const r = decodeEscapes(arg ?? '', 'b');
          s = r.text;
          if (r.stop) stop = true;
          break;
        }
        case 'q':
          s = quote(arg ?? '');
          break;
        case 'c':
          // The first byte, not the first character.
          s = arg ? byteChar(encodeShell(arg)[0]) : '';
          break;
        case 'd':
        case 'i': {
          const v = int(arg);
          s = (v < 0n ? -v : v).toString();
          if (precision !== undefined) s = s.padStart(precision, '0');
          s = (v < 0n ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '') + s;
          break;
        }
        case 'u':
        case 'o':
        case 'x':
        case 'X': {
          const v = BigInt.asUintN(64, int(arg));
          s = v.toString(conv === 'o' ? 8 : conv === 'u' ? 10 : 16);
          if (conv === 'X') s = s.toUpperCase();
          if (precision !== undefined) s = s.padStart(precision, '0');
          if (flags.includes('#') && v !== 0n) s = (conv === 'o' ? '0' : conv === 'x' ? '0x' : conv === 'X' ? '0X' : '') + s;
          break;
        }
        default: {
          const v = num(arg);
          const pr = precision ?? 6;
          if (conv === 'f' || conv === 'F') s = v.toFixed(pr) + (pr === 0 && flags.includes('#') ? '.' : '');
          else if (conv === 'e' || conv === 'E') s = v.toExponential(pr).replace(/e([+-])(\d)$/, 'e$10$2');
          else {
            const p2 = pr === 0 ? 1 : pr;
            const exp = v === 0 ? 0 : Math.floor(Math.log10(Math.abs(v)));
            s = exp < -4 || exp >= p2 ? v.toExponential(p2 - 1).replace(/e([+-])(\d)$/, 'e$10$2') : v.toPrecision(p2);
            if (!flags.includes('#')) s = s.replace(/(\.\d*?)0+(e|$)/, '$1$2').replace(/\.(e|$)/, '$1');
          }
          if (conv === 'E' || conv === 'G') s = s.toUpperCase();
          if (v >= 0 && flags.includes('+')) s = `+${s}`;
          else if (v >= 0 && flags.includes(' ')) s = ` ${s}`;
        }
      }
      if (s.length < width) {
        if (flags.includes('-')) s = s.padEnd(width);
        else if (flags.includes('0') && (/[fFeEgG]/.test(conv) || (/[diouxX]/.test(conv) && precision === undefined))) {
          const sign = /^[+\- ]/.test(s) ? s[0] : '';
          s = sign + s.slice(sign.length).padStart(width - sign.length, '0');
        } else s = s.padStart(width);
      }
      out += s;
    }
    if (stop || i === start) break;
  } while (i < rest.length);
  if (target !== null) {
    const m = /^([A-Za-z_]\w*)(?:\[(.*)\])?$/.exec(target);
    if (!m) throw new ShellError(`printf: \`${target}': not a valid identifier`, 2);
    if (m[2] !== undefined) sh.vars.setIndex(m[1], expandWord(parseSubscript(m[2]), expandContext(sh)), out);
    else sh.vars.set(m[1], out);
  } else {
    try {
      sh.out(out);
    } catch (e) {
      if (e instanceof ShellError) throw new ShellError(`printf: ${e.message}`, e.status);
      throw e;
    }
  }
  return status;
};

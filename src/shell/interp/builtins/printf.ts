// printf [-v VAR] FORMAT [ARG...] — the format is reused until the arguments run out.

import { expandWord } from '../../expand/index.js';
import { formatFloat, formatInteger, formatText, type Spec } from '../../../userland/lib/printf/convert.js';
import { charConstant, parseInteger } from '../../../userland/lib/printf/integer.js';
import { fromBigInt, parseLongDouble } from '../../../userland/lib/printf/long-double.js';
import { strftime } from '../../../userland/lib/strftime.js';
import { zoneFor } from '../../../userland/lib/tz.js';
import { decodeEscapes } from '../../syntax/ansi.js';
import { parseSubscript } from '../../syntax/index.js';
import { expandContext } from '../context.js';
import { byteChar, encodeShell } from '../../bytes.js';
import type { Builtin } from './types.js';
import { ShellError } from '../../errors.js';

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
  /** bash's sh_invalidnum: the message names what the number looked like. */
  const invalid = (s: string) => {
    sh.error(`printf: ${s}: ${/^0[0-9]/.test(s) ? 'invalid octal number' : /^0x/.test(s) ? 'invalid hex number' : 'invalid number'}`);
    status = 1;
  };
  /** A number argument as bash reads it: a character constant, or strto*(3) with the rest an error; out of range only warns. */
  const numeric = <T>(arg: string | undefined, fromChar: (code: number) => T, parse: (s: string) => { value: T; end: number; range: boolean }, zero: T): T => {
    if (arg === undefined) return zero;
    const ch = charConstant(arg);
    if (ch) return fromChar(ch.value);
    const r = parse(arg);
    if (r.end < arg.length) invalid(arg);
    else if (r.range) sh.error(`printf: warning: ${arg}: Numerical result out of range`);
    return r.value;
  };
  const int = (arg: string | undefined, unsigned = false): bigint => numeric(arg, BigInt, (s) => parseInteger(s, unsigned), 0n);
  const float = (arg: string | undefined) => numeric(arg, (c) => fromBigInt(BigInt(c)), parseLongDouble, fromBigInt(0n));
  /** A `*` width or precision: an int argument (bash takes the low 32 bits' worth as an int). */
  const star = (): number => Number(BigInt.asIntN(32, int(next())));
  /** What was formatted goes out (or into the -v variable), also when a bad format stops it. */
  const emit = (text: string): void => {
    if (target === null) {
      try {
        sh.out(text);
      } catch (e) {
        if (e instanceof ShellError) throw new ShellError(`printf: ${e.message}`, e.status);
        throw e;
      }
      return;
    }
    const m = /^([A-Za-z_]\w*)(?:\[(.*)\])?$/.exec(target);
    if (!m) throw new ShellError(`printf: \`${target}': not a valid identifier`, 2);
    if (m[2] !== undefined) sh.vars.setIndex(m[1], expandWord(parseSubscript(m[2]), expandContext(sh)), text);
    else sh.vars.set(m[1], text);
  };
  /** bash warns of \x, \u or \U without digits (and prints it as written). */
  const missingDigit = (esc: string) => sh.error(`printf: missing ${esc === '\\x' ? 'hex' : 'unicode'} digit for ${esc}`);
  const fail = (message: string): number => {
    sh.error(`printf: ${message}`);
    emit(out);
    return 1;
  };
  do {
    const start = i;
    let stop = false;
    for (let p = 0; p < format.length && !stop; p++) {
      const c = format[p];
      if (c === '\\') {
        const m = /^\\([0-7]{1,3}|x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|.)/.exec(format.slice(p));
        const esc = m ? m[0] : '\\';
        if (/^\\[xuU]$/.test(esc)) missingDigit(esc);
        out += esc === '\\c' ? '' : decodeEscapes(esc.startsWith('\\0') ? `\\${esc.slice(2) || '0'}` : esc, 'printf').text;
        if (esc === '\\c') stop = true;
        p += esc.length - 1;
        continue;
      }
      if (c !== '%') {
        out += c;
        continue;
      }
      if (format[p + 1] === '%') {
        out += '%';
        p++;
        continue;
      }
      // %[flags][width][.precision][length]conversion, as bash scans it.
      const m = /^%([-+ #0']*)(\*|\d*)(?:\.(\*|\d*))?([hjlLtz]*)/.exec(format.slice(p))!;
      const after = p + m[0].length;
      const letter = format[after];
      if (letter === undefined) return fail(`\`${format.slice(p)}': missing format character`);
      let conv = letter;
      let end = after;
      if (letter === '(') {
        const close = format.indexOf(')', after);
        if (close < 0 || format[close + 1] !== 'T') return fail(`\`${format.slice(p, close < 0 ? format.length : close + 2)}': invalid time format specification`);
        conv = format.slice(after, close + 2);
        end = close + 1;
      } else if (!/[diouxXfFeEgGaAcsbq]/.test(letter)) return fail(`\`${letter}': invalid format character`);
      p = end;
      const [, flags, w, prec] = m;
      const spec: Spec = { flags, conv: conv[0] === '(' ? 's' : conv };
      if (w) spec.width = w === '*' ? star() : Number(w);
      if (prec !== undefined) spec.precision = prec === '*' ? star() : Number(prec || 0);
      const arg = next();
      switch (conv[0]) {
        case '(': {
          // %(fmt)T: strftime of the argument (seconds; empty or -1 now, -2 the shell's start).
          const t = arg === undefined || arg === '' ? -1n : int(arg);
          const ms = t === -1n ? Date.now() : t === -2n ? sh.startMs : Number(t) * 1000;
          // In the shell's TZ (an IANA name or a POSIX rule, as date reads it); an empty format is bash's %X.
          // bash formats into a 128-byte buffer: a longer result is empty.
          const time = strftime(conv.slice(1, -2) || '%X', ms, zoneFor(sh.vars.get('TZ')));
          out += formatText(spec, new TextEncoder().encode(time).length >= 128 ? '' : time);
          break;
        }
        case 's':
          out += formatText(spec, arg ?? '');
          break;
        case 'b': {
          for (const m of (arg ?? '').matchAll(/\\(?:\\|([xuU])(?![0-9a-fA-F]))/g)) if (m[1]) missingDigit(`\\${m[1]}`);
          const r = decodeEscapes(arg ?? '', 'b');
          out += formatText(spec, r.text);
          if (r.stop) stop = true;
          break;
        }
        case 'q':
          out += formatText(spec, quote(arg ?? ''));
          break;
        case 'c':
          // The first byte, not the first character (bash); an empty argument is a NUL, as C's %c of '\0'.
          out += formatText({ ...spec, precision: undefined }, arg ? byteChar(encodeShell(arg)[0]) : '\0');
          break;
        case 'd':
        case 'i':
          out += formatInteger(spec, int(arg));
          break;
        case 'o':
        case 'u':
        case 'x':
        case 'X':
          out += formatInteger(spec, int(arg, true));
          break;
        default:
          out += formatFloat(spec, float(arg));
      }
    }
    if (stop || i === start) break;
  } while (i < rest.length);
  emit(out);
  return status;
};

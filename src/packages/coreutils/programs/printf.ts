// printf FORMAT [ARGUMENT]...: GNU printf, the program (for find -exec, xargs,
// env): the format is reused until the arguments run out. Conversions are C's
// (userland/lib/printf, shared with the shell's builtin); what differs from
// bash's builtin is GNU's: its escapes, its messages, %q's quoting, and no %()T.

import { formatFloat, formatInteger, formatText, type Spec } from '../../../userland/lib/printf/convert.js';
import { charConstant, parseInteger } from '../../../userland/lib/printf/integer.js';
import { fromBigInt, parseLongDouble } from '../../../userland/lib/printf/long-double.js';
import { command, quote, VERSION, type Cmd } from '../../../userland/lib/index.js';

const USAGE = `Usage: printf FORMAT [ARGUMENT]...
  or:  printf OPTION
Print ARGUMENT(s) according to FORMAT, or execute according to OPTION:

      --help     display this help and exit
      --version  output version information and exit

FORMAT controls the output as in C printf.  Interpreted sequences are:

  \\"      double quote
  \\\\      backslash
  \\a      alert (BEL)
  \\b      backspace
  \\c      produce no further output
  \\e      escape
  \\f      form feed
  \\n      new line
  \\r      carriage return
  \\t      horizontal tab
  \\v      vertical tab
  \\NNN    byte with octal value NNN (1 to 3 digits)
  \\xHH    byte with hexadecimal value HH (1 to 2 digits)
  \\uHHHH  Unicode (ISO/IEC 10646) character with hex value HHHH (4 digits)
  \\UHHHHHHHH  Unicode character with hex value HHHHHHHH (8 digits)
  %%      a single %
  %b      ARGUMENT as a string with '\\' escapes interpreted,
          except that octal escapes are of the form \\0 or \\0NNN
  %q      ARGUMENT is printed in a format that can be reused as shell input,
          escaping non-printable characters with the proposed POSIX $'' syntax.

and all C format specifications ending with one of diouxXfeEgGcs, with
ARGUMENTs converted to proper type first.  Variable widths are handled.
`;

/** A byte value from an escape: a character below 0x80, an escaped byte (abi/bytestr.ts) above. */
const byteChar = (v: number): string => String.fromCharCode(v < 0x80 ? v : 0xdc00 + v);

/** \c: no further output at all (GNU exits at once, successfully). */
class StopOutput {}

const SIMPLE: Record<string, string> = { '"': '"', '\\': '\\', a: '\x07', b: '\b', e: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

export const printf = command({ name: 'printf', usage: USAGE, rawArgs: true }, (c) => {
  let args = c.operands;
  // --help and --version only as the sole argument; then one leading "--" is skipped.
  if (args.length === 1 && args[0] === '--help') return void c.out.write(USAGE);
  if (args.length === 1 && args[0] === '--version') return void c.out.write(`printf (${VERSION})\n`);
  if (args[0] === '--') args = args.slice(1);
  if (args.length === 0) c.usage('missing operand');
  const [format, ...rest] = args;
  let i = 0;
  try {
    do {
      const used = formatOnce(c, format, rest, i);
      if (used === 0) break;
      i += used;
    } while (i < rest.length);
  } catch (e) {
    if (e instanceof StopOutput) return;
    throw e;
  }
  if (i < rest.length) c.warn(`warning: ignoring excess arguments, starting with ${quote(rest[i])}`);
});

/** One pass over the format; returns how many arguments it took. */
function formatOnce(c: Cmd, format: string, args: string[], from: number): number {
  let i = from;
  const next = (): string | undefined => (i < args.length ? args[i++] : undefined);
  for (let p = 0; p < format.length; p++) {
    const ch = format[p];
    if (ch === '\\') {
      p = escape(c, format, p, false);
      continue;
    }
    if (ch !== '%') {
      c.out.write(ch);
      continue;
    }
    if (format[p + 1] === '%') {
      c.out.write('%');
      p++;
      continue;
    }
    // %b and %q take no flags, width or precision (GNU's own limit).
    if (format[p + 1] === 'b' || format[p + 1] === 'q') {
      const arg = next();
      if (format[p + 1] === 'q') c.out.write(arg === undefined ? '' : shellQuote(arg));
      else if (arg !== undefined) escapeString(c, arg);
      p++;
      continue;
    }
    const m = /^%([-+ #0'I]*)(\*|\d*)(?:\.(\*|\d*))?([hjlLtz]*)/.exec(format.slice(p))!;
    const at = p + m[0].length;
    const conv = format[at] ?? '';
    const [, flags, w, prec] = m;
    if (!valid(conv, flags, prec !== undefined)) c.fail(`${format.slice(p, at + 1)}: invalid conversion specification`);
    p = at;
    const spec: Spec = { flags, conv };
    if (w) spec.width = w === '*' ? star(c, next(), 'field width') : Number(w);
    if (prec !== undefined) spec.precision = prec === '*' ? star(c, next(), 'precision') : Number(prec || 0);
    const arg = next();
    switch (conv) {
      case 's':
        c.out.write(formatText(spec, arg ?? ''));
        break;
      case 'c':
        c.out.write(formatText(spec, arg ? String.fromCodePoint(arg.codePointAt(0)!) : '\0'));
        break;
      case 'd':
      case 'i':
        c.out.write(formatInteger(spec, integer(c, arg, false)));
        break;
      case 'o':
      case 'u':
      case 'x':
      case 'X':
        c.out.write(formatInteger(spec, integer(c, arg, true)));
        break;
      default:
        c.out.write(formatFloat(spec, number(c, arg, parseLongDouble, (code) => fromBigInt(BigInt(code)), fromBigInt(0n))));
    }
  }
  return i - from;
}

/** GNU's table of what each flag (and a precision) allows. */
function valid(conv: string, flags: string, precision: boolean): boolean {
  if (!conv || !'aAcdeEfFgGiosuxX'.includes(conv)) return false;
  if (/['I]/.test(flags) && 'aAceEosxX'.includes(conv)) return false;
  if (flags.includes('#') && 'cdisu'.includes(conv)) return false;
  if (flags.includes('0') && 'cs'.includes(conv)) return false;
  return !(precision && conv === 'c');
}

/** A `*` width or precision: an int, or a fatal error. */
function star(c: Cmd, arg: string | undefined, what: string): number {
  const v = integer(c, arg, false);
  if (v > 0x7fffffffn || v < -0x80000000n) c.fail(`invalid ${what}: ${quote(arg ?? '')}`);
  return Number(v);
}

function integer(c: Cmd, arg: string | undefined, unsigned: boolean): bigint {
  return number(c, arg, (s) => parseInteger(s, unsigned), BigInt, 0n);
}

/** GNU's reading of a numeric argument: a character constant, or the whole string as a number; anything less is an error that still prints what was read. */
function number<T>(c: Cmd, arg: string | undefined, parse: (s: string) => { value: T; end: number; range: boolean }, fromChar: (code: number) => T, zero: T): T {
  if (arg === undefined) return zero;
  const ch = charConstant(arg);
  if (ch && arg.length > 1) {
    if (ch.rest) c.warn(`warning: ${ch.rest}: character(s) following character constant have been ignored`);
    return fromChar(ch.value);
  }
  const r = parse(arg);
  if (r.end < arg.length) c.error(`${quote(arg)}: ${r.end === 0 ? 'expected a numeric value' : 'value not completely converted'}`);
  else if (r.range) c.error(`${quote(arg)}: Numerical result out of range`);
  return r.end === 0 ? zero : r.value;
}

/**
 * One escape at `format[p]` (a backslash); writes it and returns the index
 * of its last character. `octal0`: %b's octal, \0NNN (and \NNN).
 */
function escape(c: Cmd, s: string, p: number, octal0: boolean): number {
  const d = s[p + 1];
  if (d === undefined) {
    c.out.write('\\');
    return p;
  }
  if (d === 'x') {
    const hex = /^[0-9a-fA-F]{1,2}/.exec(s.slice(p + 2))?.[0];
    if (!hex) c.fail('missing hexadecimal number in escape');
    c.out.write(byteChar(parseInt(hex, 16)));
    return p + 1 + hex.length;
  }
  if (d >= '0' && d <= '7') {
    const start = octal0 && d === '0' ? p + 2 : p + 1;
    const oct = /^[0-7]{0,3}/.exec(s.slice(start))![0];
    c.out.write(byteChar(parseInt(oct || '0', 8) & 0xff));
    return start + oct.length - 1;
  }
  if (d === 'c') throw new StopOutput();
  if (d in SIMPLE) {
    c.out.write(SIMPLE[d]);
    return p + 1;
  }
  if (d === 'u' || d === 'U') {
    const n = d === 'u' ? 4 : 8;
    const hex = s.slice(p + 2, p + 2 + n);
    if (hex.length < n || !/^[0-9a-fA-F]+$/.test(hex)) c.fail('missing hexadecimal number in escape');
    const cp = parseInt(hex, 16);
    // C99's universal character names: not below U+00A0 (but $ @ `), not a surrogate, not past U+10FFFF.
    if ((cp < 0xa0 && cp !== 0x24 && cp !== 0x40 && cp !== 0x60) || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) {
      c.fail(`invalid universal character name \\${d}${hex.toLowerCase().padStart(n, '0')}`);
    }
    c.out.write(String.fromCodePoint(cp));
    return p + 1 + n;
  }
  c.out.write('\\' + d);
  return p + 1;
}

/** %b: the argument with escapes interpreted (\c ends all output). */
function escapeString(c: Cmd, s: string): void {
  for (let p = 0; p < s.length; p++) {
    if (s[p] === '\\') p = escape(c, s, p, true);
    else c.out.write(s[p]);
  }
}

/** Characters a shell takes as they are (# and ~ only after the first). */
const SAFE = /^[A-Za-z0-9%+,\-./:@_{}\]#~\u0080-\uffff]*$/;
const NAMED: Record<string, string> = { '\x07': 'a', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't', '\v': 'v' };

/** %q as GNU's quotearg does it (shell-escape style): as is when safe, else '...' or "...", control characters as $'...'. */
function shellQuote(s: string): string {
  if (s === '') return "''";
  // eslint-disable-next-line no-control-regex
  const control = /[\x00-\x1f\x7f]/;
  if (!control.test(s)) {
    if (SAFE.test(s) && !/^[#~]/.test(s)) return s;
    if (!s.includes("'")) return `'${s}'`;
    if (!/[$`\\"!]/.test(s)) return `"${s}"`;
    return `'${s.replace(/'/g, "'\\''")}'`;
  }
  // eslint-disable-next-line no-control-regex
  const runs = s.match(/[\x00-\x1f\x7f]+|[^\x00-\x1f\x7f]+/g)!;
  let out = control.test(runs[0]) ? "''" : '';
  for (const run of runs) {
    if (!control.test(run)) out += `'${run.replace(/'/g, "'\\''")}'`;
    else out += `$'${[...run].map((ch) => `\\${NAMED[ch] ?? ch.charCodeAt(0).toString(8).padStart(3, '0')}`).join('')}'`;
  }
  return out;
}

// printf [-v VAR] FORMAT [ARG...] — the format is reused until the arguments run out.

import { decodeEscapes } from './escapes.js';
import type { Builtin } from './types.js';
import { ShellError } from '../vars.js';

function quote(s: string): string {
  if (s === '') return "''";
  if (/^[\w@%+=:,./-]+$/.test(s)) return s;
  if (/[\x00-\x1f\x7f]/.test(s)) {
    return `$'${s.replace(/[\\']/g, (c) => `\\${c}`).replace(/[\x00-\x1f\x7f]/g, (c) => {
      const named: Record<string, string> = { '\n': 'n', '\t': 't', '\r': 'r', '\x1b': 'E', '\x07': 'a', '\b': 'b', '\f': 'f', '\v': 'v' };
      return named[c] ? `\\${named[c]}` : `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`;
    })}'`;
  }
  return s.replace(/[^\w@%+=:,./-]/g, (c) => `\\${c}`);
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
  const num = (s: string | undefined, float: boolean): number => {
    if (s === undefined || s === '') return 0;
    if (/^['"]/.test(s)) return s.length > 1 ? s.codePointAt(1)! : 0;
    const t = s.trim();
    const v = float ? Number(t) : /^[+-]?0x[0-9a-f]+$/i.test(t) ? parseInt(t, 16) : /^[+-]?0[0-7]+$/.test(t) ? parseInt(t, 8) : Number(t);
    if (Number.isNaN(v) || (!float && !/^[+-]?(0x[0-9a-f]+|\d+)$/i.test(t))) {
      sh.write(2, `${sh.errorName}: printf: ${s}: invalid number\n`);
      status = 1;
      const lead = /^[+-]?\d+/.exec(t);
      return lead ? Number(lead[0]) : 0;
    }
    return v;
  };
  do {
    const start = i;
    let stop = false;
    for (let p = 0; p < format.length && !stop; p++) {
      const c = format[p];
      if (c === '\\') {
        const m = /^\\(0[0-7]{0,3}|[0-7]{1,3}|x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|.)/.exec(format.slice(p));
        const esc = m ? m[0] : '\\';
        out += esc === '\\c' ? '' : decodeEscapes(esc.startsWith('\\0') ? `\\${esc.slice(2) || '0'}` : esc, false).text;
        if (esc === '\\c') stop = true;
        p += esc.length - 1;
        continue;
      }
      if (c !== '%') {
        out += c;
        continue;
      }
      const m = /^%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?([diouxXfFeEgGcsbq%])/.exec(format.slice(p));
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
      const width = w === '*' ? num(next(), false) : w ? Number(w) : 0;
      const precision = prec === undefined ? undefined : prec === '*' ? num(next(), false) : Number(prec || 0);
      const arg = next();
      let s: string;
      switch (conv) {
        case 's':
          s = arg ?? '';
          if (precision !== undefined) s = s.slice(0, precision);
          break;
        case 'b': {
          const r = decodeEscapes(arg ?? '', true);
          s = r.text;
          if (r.stop) stop = true;
          break;
        }
        case 'q':
          s = quote(arg ?? '');
          break;
        case 'c':
          s = (arg ?? '').slice(0, 1);
          break;
        case 'd':
        case 'i': {
          const v = Math.trunc(num(arg, false));
          s = Math.abs(v).toString();
          if (precision !== undefined) s = s.padStart(precision, '0');
          s = (v < 0 ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '') + s;
          break;
        }
        case 'u':
        case 'o':
        case 'x':
        case 'X': {
          let v = Math.trunc(num(arg, false));
          if (v < 0) v = Number(BigInt.asUintN(64, BigInt(v)));
          s = v.toString(conv === 'o' ? 8 : conv === 'u' ? 10 : 16);
          if (conv === 'X') s = s.toUpperCase();
          if (precision !== undefined) s = s.padStart(precision, '0');
          if (flags.includes('#') && v !== 0) s = (conv === 'o' ? '0' : conv === 'x' ? '0x' : conv === 'X' ? '0X' : '') + s;
          break;
        }
        default: {
          const v = num(arg, true);
          const pr = precision ?? 6;
          if (conv === 'f' || conv === 'F') s = v.toFixed(pr);
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
        else if (flags.includes('0') && /[diouxXfFeEgG]/.test(conv) && precision === undefined) {
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
    if (m[2] !== undefined) sh.vars.setIndex(m[1], m[2], out);
    else sh.vars.set(m[1], out);
  } else sh.out(out);
  return status;
};

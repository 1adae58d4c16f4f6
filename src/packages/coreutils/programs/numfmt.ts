// numfmt [OPTION]... [NUMBER]...: convert numbers to and from human-readable
// form (coreutils 9.1): --from/--to si, iec, iec-i, auto; units, rounding,
// padding, printf-style --format, fields of lines from stdin.

import { command, lines, type Cmd } from '../../../userland/lib/index.js';
import { put, str } from './text.js';

const USAGE = `Usage: numfmt [OPTION]... [NUMBER]...
Reformat NUMBER(s), or the numbers from standard input if none are specified.

Mandatory arguments to long options are mandatory for short options too.
      --debug          print warnings about invalid input
  -d, --delimiter=X    use X instead of whitespace for field delimiter
      --field=FIELDS   replace the numbers in these input fields (default=1)
      --format=FORMAT  use printf style floating-point FORMAT
      --from=UNIT      auto-scale input numbers to UNITs; default is 'none'
      --from-unit=N    specify the input unit size (instead of the default 1)
      --grouping       use locale-defined grouping of digits
      --header[=N]     print (without converting) the first N header lines
      --invalid=MODE   failure mode for invalid numbers: abort (default),
                         fail, warn, ignore
      --padding=N      pad the output to N characters
      --round=METHOD   use METHOD for rounding when scaling: up, down,
                         from-zero (default), towards-zero, nearest
      --suffix=SUFFIX  add SUFFIX to output numbers, and accept optional
                         SUFFIX in input numbers
      --to=UNIT        auto-scale output numbers to UNITs; see UNIT below
      --to-unit=N      the output unit size (instead of the default 1)
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help     display this help and exit
      --version  output version information and exit
`;

type Scale = 'none' | 'auto' | 'si' | 'iec' | 'iec-i';
const SUFFIXES = 'KMGTPEZYRQ';

class Invalid extends Error {}

interface Opts {
  from: Scale;
  to: Scale;
  fromUnit: number;
  toUnit: number;
  round: string;
  suffix: string;
  padding: number;
  format: { pre: string; post: string; width: number; left: boolean; zero: boolean; prec: number } | null;
}

function roundBy(v: number, how: string): number {
  switch (how) {
    case 'up': return Math.ceil(v);
    case 'down': return Math.floor(v);
    case 'towards-zero': return Math.trunc(v);
    case 'nearest': return v < 0 ? -Math.round(-v) : Math.round(v);
    default: return v < 0 ? -Math.ceil(-v) : Math.ceil(v);
  }
}

/** printf("%.Nf"): round half to even when the binary value is exactly half (toFixed rounds it up). */
function fixed(v: number, prec: number): string {
  const m = 10 ** prec;
  const x = v * m;
  if (Number.isInteger(x * 2) && !Number.isInteger(x)) {
    const fl = Math.floor(x);
    return ((fl % 2 === 0 ? fl : fl + 1) / m).toFixed(prec);
  }
  return v.toFixed(prec);
}

function parseNumber(o: Opts, text: string): { v: number; prec: number } {
  let s = text;
  if (o.suffix && s.endsWith(o.suffix)) s = s.slice(0, -o.suffix.length);
  const m = /^\s*(-?)(\d*)(?:\.(\d*))?(.*)$/.exec(s)!;
  if (m[2] === '' && (m[3] === undefined || m[3] === '')) throw new Invalid(`invalid number: '${text}'`);
  let v = Number(`${m[1]}${m[2] || '0'}.${m[3] ?? ''}`);
  const prec = m[3]?.length ?? 0;
  let rest = m[4];
  let scaled = false;
  if (rest !== '') {
    const sm = /^([KMGTPEZYRQk])(i?)(.*)$/.exec(rest);
    if (!sm) throw new Invalid(`invalid suffix in input: '${text}'`);
    if (o.from === 'none') throw new Invalid(`rejecting suffix in input: '${text}' (consider using --from)`);
    const power = SUFFIXES.indexOf(sm[1].toUpperCase()) + 1;
    if (sm[2] && o.from !== 'auto' && o.from !== 'iec-i') throw new Invalid(`invalid suffix in input: '${text}'`);
    if (o.from === 'iec-i' && !sm[2]) throw new Invalid(`missing 'i' suffix in input: '${text}' (e.g. Ki/Mi/Gi)`);
    const base = o.from === 'si' || (o.from === 'auto' && !sm[2]) ? 1000 : 1024;
    v *= base ** power;
    rest = sm[3];
    scaled = true;
    if (rest !== '') throw new Invalid(`invalid suffix in input: '${text}'`);
  }
  v *= o.fromUnit;
  return { v, prec: scaled || o.fromUnit !== 1 ? 0 : prec };
}

function human(o: Opts, v: number): string {
  const base = o.to === 'si' ? 1000 : 1024;
  let power = 0;
  while (Math.abs(v) >= base && power < SUFFIXES.length) {
    v /= base;
    power++;
  }
  const userPrec = o.format?.prec ?? -1;
  const adjust = userPrec !== -1 ? Math.min(power * 3, userPrec) : Math.abs(v) < 10 ? 1 : 0;
  v = roundBy(v * 10 ** adjust, o.round) / 10 ** adjust;
  if (Math.abs(v) >= base && power < SUFFIXES.length) {
    v /= base;
    power++;
  }
  const sfx = power === 0 ? '' : SUFFIXES[power - 1] + (o.to === 'iec-i' ? 'i' : '');
  if (userPrec !== -1) return fixed(v, Math.min(power * 3, userPrec)) + sfx;
  const dot = v !== 0 && Math.abs(v) < 10 && power > 0;
  return fixed(v, dot ? 1 : 0) + sfx;
}

function convert(o: Opts, text: string): string {
  const { v: raw, prec } = parseNumber(o, text);
  if (Math.abs(raw) >= 1e27 && o.to === 'none') throw new Invalid(`value too large to be converted: '${text}'`);
  const v = raw / o.toUnit;
  let out: string;
  if (o.to === 'none') {
    const p = o.format && o.format.prec >= 0 ? o.format.prec : o.toUnit !== 1 ? 0 : prec;
    out = fixed(p === prec && o.toUnit === 1 ? v : roundBy(v * 10 ** p, o.round) / 10 ** p, p);
  } else out = human(o, v);
  out += o.suffix;
  const f = o.format;
  if (f) {
    if (f.width > out.length) out = f.left ? out.padEnd(f.width) : f.zero && o.to === 'none' ? pad0(out, f.width) : out.padStart(f.width);
    out = f.pre + out + f.post;
  }
  if (o.padding > 0) out = out.padStart(o.padding);
  else if (o.padding < 0) out = out.padEnd(-o.padding);
  return out;
}

const pad0 = (s: string, w: number) => (s.startsWith('-') ? `-${s.slice(1).padStart(w - 1, '0')}` : s.padStart(w, '0'));

function parseFormat(c: Cmd, f: string): Opts['format'] {
  const m = /^((?:[^%]|%%)*)%(['0-]*)(\d*)(?:\.(\d*))?f((?:[^%]|%%)*)$/.exec(f);
  if (!m) c.fail(`invalid format '${f}', directive must be %[0]['][-][N][.][N]f`);
  return { pre: m[1].replace(/%%/g, '%'), post: m[5].replace(/%%/g, '%'), width: Number(m[3] || 0), left: m[2].includes('-'), zero: m[2].includes('0'), prec: m[4] === undefined ? -1 : Number(m[4] || 0) };
}

function parseFields(c: Cmd, spec: string): (n: number) => boolean {
  if (spec === '-') return () => true;
  const ranges = spec.split(',').map((r) => {
    const m = /^(\d*)(-?)(\d*)$/.exec(r);
    if (!m || (m[1] === '' && m[3] === '') || m[1] === '0') c.fail(`invalid field value '${r}'`);
    const a = m[1] === '' ? 1 : Number(m[1]);
    const b = m[2] ? (m[3] === '' ? Infinity : Number(m[3])) : a;
    return [a, b];
  });
  return (n) => ranges.some(([a, b]) => n >= a && n <= b);
}

const SCALES: Scale[] = ['none', 'auto', 'si', 'iec', 'iec-i'];

export const numfmt = command(
  {
    name: 'numfmt',
    usage: USAGE,
    short: 'd:z',
    numericOperands: true,
    long: {
      debug: ['debug', 'none'], delimiter: ['d', 'required'], field: ['field', 'required'], format: ['format', 'required'],
      from: ['from', 'required'], 'from-unit': ['from-unit', 'required'], grouping: ['grouping', 'none'], header: ['header', 'optional'],
      invalid: ['invalid', 'required'], padding: ['padding', 'required'], round: ['round', 'required'], suffix: ['suffix', 'required'],
      to: ['to', 'required'], 'to-unit': ['to-unit', 'required'], 'zero-terminated': ['z', 'none'],
    },
  },
  (c) => {
    const scale = (k: string, allowAuto: boolean): Scale => {
      const v = c.get(k) ?? 'none';
      if (!SCALES.includes(v as Scale) || (!allowAuto && v === 'auto')) {
        c.warn(`invalid argument '${v}' for '--${k}'\nValid arguments are:\n${SCALES.filter((s) => allowAuto || s !== 'auto').map((s) => `  - '${s}'`).join('\n')}`);
        return c.tryHelp();
      }
      return v as Scale;
    };
    const unit = (k: string): number => {
      const v = c.get(k);
      if (v === undefined) return 1;
      const n = Number(v);
      if (!/^\d+$/.test(v) || n === 0) c.fail(`invalid unit size: '${v}'`);
      return n;
    };
    const padArg = c.get('padding');
    if (padArg !== undefined && (!/^-?\d+$/.test(padArg) || Number(padArg) === 0)) c.fail(`invalid padding value '${padArg}'`);
    const o: Opts = {
      from: scale('from', true), to: scale('to', false), fromUnit: unit('from-unit'), toUnit: unit('to-unit'),
      round: c.get('round') ?? 'from-zero', suffix: c.get('suffix') ?? '', padding: Number(padArg ?? 0),
      format: c.get('format') !== undefined ? parseFormat(c, c.get('format')!) : null,
    };
    if (!['up', 'down', 'from-zero', 'towards-zero', 'nearest'].includes(o.round)) {
      c.warn(`invalid argument '${o.round}' for '--round'\nValid arguments are:\n  - 'up'\n  - 'down'\n  - 'from-zero'\n  - 'towards-zero'\n  - 'nearest'`);
      return c.tryHelp();
    }
    const mode = c.get('invalid') ?? 'abort';
    const inField = parseFields(c, c.get('field') ?? '1');
    const delim = c.get('d');
    if (delim !== undefined && delim.length !== 1) c.fail(`the delimiter must be a single character`);
    let failed = false;
    const one = (text: string): string | null => {
      try {
        return convert(o, text);
      } catch (e) {
        if (!(e instanceof Invalid)) throw e;
        if (mode !== 'ignore') c.warn(e.message);
        if (mode === 'abort') c.exit(2);
        if (mode === 'fail') failed = true;
        return null;
      }
    };
    const line = (l: string): string => {
      if (delim !== undefined) return l.split(delim).map((f, i) => (inField(i + 1) ? (one(f) ?? f) : f)).join(delim);
      const parts = l.match(/[ \t]*[^ \t]+|[ \t]+$/g) ?? [];
      let n = 0;
      return parts.map((p) => {
        if (!/[^ \t]/.test(p)) return p;
        n++;
        if (!inField(n)) return p;
        const lead = /^[ \t]*/.exec(p)![0];
        const r = one(p.slice(lead.length));
        if (r === null) return p;
        return lead && o.padding === 0 && !o.format ? r.padStart(p.length) : (n > 1 ? ' ' : '') + r;
      }).join('');
    };
    const end = c.has('z') ? '\0' : '\n';
    if (c.operands.length) {
      for (const a of c.operands) {
        const r = one(a);
        if (r !== null) put(c, `${r}${end}`);
        else if (mode !== 'abort') put(c, `${a}${end}`);
      }
    } else {
      let header = c.has('header') ? Number(c.get('header') ?? 1) : 0;
      for (const b of lines(c.sys, 0, c.has('z') ? 0 : 10)) {
        let l = str(b);
        const nl = l.endsWith(end) ? end : '';
        if (nl) l = l.slice(0, -1);
        if (header > 0) {
          header--;
          put(c, l + nl);
        } else put(c, line(l) + nl);
      }
    }
    return failed ? 2 : 0;
  },
);

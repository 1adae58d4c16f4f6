// csplit [OPTION]... FILE PATTERN...: split a file into pieces at line
// numbers and regular-expression matches (coreutils 9.1), printing each
// piece's size; on error the pieces made are removed unless -k.

import { O_CREAT, O_TRUNC, O_WRONLY } from '../../../abi/fcntl.js';
import { RegexError, translate } from '../../../userland/lib/regex/regex.js';
import { command, quote, type Cmd } from '../../../userland/lib/index.js';
import { bin, readInputs, str } from './text.js';

const USAGE = `Usage: csplit [OPTION]... FILE PATTERN...
Output pieces of FILE separated by PATTERN(s) to files 'xx00', 'xx01', ...,
and output byte counts of each piece to standard output.

Read standard input if FILE is -

Mandatory arguments to long options are mandatory for short options too.
  -b, --suffix-format=FORMAT  use sprintf FORMAT instead of %02d
  -f, --prefix=PREFIX        use PREFIX instead of 'xx'
  -k, --keep-files           do not remove output files on errors
      --suppress-matched     suppress the lines matching PATTERN
  -n, --digits=DIGITS        use specified number of digits instead of 2
  -s, --quiet, --silent      do not print counts of output file sizes
  -z, --elide-empty-files    remove empty output files
      --help     display this help and exit
      --version  output version information and exit

Each PATTERN may be:
  INTEGER            copy up to but not including specified line number
  /REGEXP/[OFFSET]   copy up to but not including a matching line
  %REGEXP%[OFFSET]   skip to, but not including a matching line
  {INTEGER}          repeat the previous pattern specified number of times
  {*}                repeat the previous pattern as many times as possible

A line OFFSET is an integer optionally preceded by '+' or '-'
`;

type Pattern =
  | { kind: 'line'; n: number; arg: string; repeat: number }
  | { kind: 'regex'; re: RegExp; skip: boolean; offset: number; arg: string; repeat: number };

class Failure extends Error {}

/** sprintf for one integer: the -b suffix format (%d %i %u %o %x %X with flags and width). */
function suffixFormat(c: Cmd, fmt: string): (n: number) => string {
  const m = /^((?:[^%]|%%)*)%([-0 #'+]*)(\d*)(?:\.(\d+))?([diuoxX])((?:[^%]|%%)*)$/.exec(fmt);
  if (!m) c.fail(fmt.includes('%') ? `invalid conversion specifier in suffix: ${fmt}` : `missing conversion specifier in suffix`);
  const [, pre, flags, width, precision, conv, post] = m;
  return (n) => {
    let s = conv === 'o' ? n.toString(8) : conv === 'x' ? n.toString(16) : conv === 'X' ? n.toString(16).toUpperCase() : String(n);
    if (precision) s = s.padStart(Number(precision), '0');
    const w = Number(width || 0);
    if (flags.includes('-')) s = s.padEnd(w);
    else s = s.padStart(w, flags.includes('0') && !precision ? '0' : ' ');
    return pre.replace(/%%/g, '%') + s + post.replace(/%%/g, '%');
  };
}

function parsePatterns(c: Cmd, args: string[]): Pattern[] {
  const out: Pattern[] = [];
  for (const a of args) {
    const rep = /^\{(\*|\d+)\}$/.exec(a);
    if (rep) {
      const last = out.at(-1);
      if (!last) c.fail(`${quote(a)}: invalid pattern`);
      last.repeat = rep[1] === '*' ? Infinity : Number(rep[1]);
      continue;
    }
    if (a.startsWith('/') || a.startsWith('%')) {
      const d = a[0];
      const end = a.lastIndexOf(d);
      if (end <= 0) c.fail(`${quote(a)}: closing delimiter '${d}' missing`);
      const off = a.slice(end + 1);
      if (off !== '' && !/^[-+]?\d+$/.test(off)) c.fail(`${quote(a)}: integer expected after delimiter`);
      let re: RegExp;
      try {
        re = new RegExp(translate(a.slice(1, end), 'bre').source);
      } catch (e) {
        if (e instanceof RegexError || e instanceof SyntaxError) c.fail(`${quote(a)}: invalid regular expression: ${e.message}`);
        throw e;
      }
      out.push({ kind: 'regex', re, skip: d === '%', offset: Number(off || 0), arg: a, repeat: 0 });
      continue;
    }
    if (!/^\d+$/.test(a)) c.fail(`${quote(a)}: invalid pattern`);
    if (Number(a) === 0) c.fail(`0: line number must be greater than zero`);
    const prev = [...out].reverse().find((p) => p.kind === 'line');
    if (prev && prev.kind === 'line' && Number(a) < prev.n) c.fail(`line number ${quote(a)} is smaller than preceding line number, ${prev.n}`);
    out.push({ kind: 'line', n: Number(a), arg: a, repeat: 0 });
  }
  return out;
}

export const csplit = command(
  {
    name: 'csplit',
    usage: USAGE,
    short: 'b:f:kn:sqz',
    long: {
      'suffix-format': ['b', 'required'], prefix: ['f', 'required'], 'keep-files': ['k', 'none'], 'suppress-matched': ['S', 'none'],
      digits: ['n', 'required'], quiet: ['s', 'none'], silent: ['s', 'none'], 'elide-empty-files': ['z', 'none'],
    },
  },
  (c) => {
    if (c.operands.length === 0) return c.usage('missing operand');
    if (c.operands.length === 1) return c.usage(`missing operand after ${quote(c.operands[0])}`);
    const digits = c.get('n');
    if (digits !== undefined && !/^\d+$/.test(digits)) c.fail(`invalid number: ${quote(digits)}`);
    const name = suffixFormat(c, c.get('b') ?? `%0${digits ?? 2}d`);
    const prefix = c.get('f') ?? 'xx';
    const patterns = parsePatterns(c, c.operands.slice(1));
    const texts = readInputs(c, [c.operands[0]], 'for-reading');
    if (texts.length === 0) return 1;
    const text = texts[0];
    const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
    const suppress = c.has('S');
    const created: string[] = [];
    let cur = 0;
    let lastMatch = -1;
    let index = 0;
    const emit = (from: number, to: number) => {
      const piece = lines.slice(from, to).join('');
      if (c.has('z') && piece === '') return;
      const file = prefix + name(index++);
      const fd = c.sys.open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o666);
      created.push(file);
      try {
        c.sys.writeAll(fd, bin(piece));
      } finally {
        c.sys.close(fd);
      }
      if (!c.has('s')) c.out.write(`${bin(piece).length}\n`);
    };
    try {
      for (const p of patterns) {
        for (let r = 0; r <= p.repeat; r++) {
          const onRep = r > 0 ? ` on repetition ${r}` : '';
          if (p.kind === 'line') {
            const target = p.n * (r + 1) - 1;
            if (target >= lines.length) {
              // What is left becomes the last piece before the error, as in GNU csplit.
              emit(cur, lines.length);
              cur = lines.length;
              throw new Failure(`${quote(p.arg)}: line number out of range${onRep}`);
            }
            emit(cur, target);
            cur = target;
            if (suppress && cur < lines.length) cur++;
            continue;
          }
          let m = -1;
          for (let i = Math.max(cur, lastMatch + 1); i < lines.length; i++) {
            if (p.re.test(str(bin(lines[i])).replace(/\n$/, ''))) {
              m = i;
              break;
            }
          }
          if (m < 0) {
            if (p.repeat === Infinity && r > 0) break;
            emit(cur, lines.length);
            cur = lines.length;
            throw new Failure(`${quote(p.arg)}: match not found${onRep}`);
          }
          lastMatch = m;
          const at = Math.min(Math.max(m + p.offset, cur), lines.length);
          if (m + p.offset > lines.length || m + p.offset < cur) throw new Failure(`${quote(p.arg)}: line number out of range${onRep}`);
          if (!p.skip) emit(cur, at);
          cur = at;
          if (suppress && cur < lines.length && p.offset === 0) cur++;
        }
      }
      emit(cur, lines.length);
    } catch (e) {
      if (!(e instanceof Failure)) throw e;
      c.out.flush();
      c.warn(e.message);
      if (!c.has('k')) for (const f of created) c.sys.unlink(f);
      return 1;
    }
  },
);

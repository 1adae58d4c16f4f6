// paste [OPTION]... [FILE]...: merge lines of files side by side (or serially with -s).

import { command, type Cmd } from '../../../userland/lib/index.js';
import { bin, readInputs, records } from './text.js';

const USAGE = `Usage: paste [OPTION]... [FILE]...
Write lines consisting of the sequentially corresponding lines from
each FILE, separated by TABs, to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -d, --delimiters=LIST   reuse characters from LIST instead of TABs
  -s, --serial            paste one file at a time instead of in parallel
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help     display this help and exit
      --version  output version information and exit
`;

export const paste = command(
  {
    name: 'paste',
    usage: USAGE,
    short: 'd:sz',
    long: { delimiters: ['d', 'required'], serial: ['s', 'none'], 'zero-terminated': ['z', 'none'] },
  },
  (c) => {
    const delims = parseDelims(c, c.get('d') ?? '\t');
    const term = c.has('z') ? '\0' : '\n';
    const names = c.operands.length ? c.operands : ['-'];
    // Every "-" operand shares stdin: read it once and deal its lines out in turn.
    const texts = readNamed(c, names);
    if (texts === null) return 1;
    const files = texts.map((t) => records(t, term));
    const sep = (i: number) => (delims.length ? delims[i % delims.length] : '');
    let out = '';
    if (c.has('s')) {
      for (const f of files) {
        out += f.map((l, i) => (i ? sep(i - 1) : '') + l).join('') + term;
      }
    } else {
      const rows = Math.max(0, ...files.map((f) => f.length));
      for (let r = 0; r < rows; r++) {
        let line = '';
        files.forEach((f, i) => {
          if (i) line += sep(i - 1);
          line += f[r] ?? '';
        });
        out += line + term;
      }
    }
    c.out.write(bin(out));
  },
);

function readNamed(c: Cmd, names: string[]): string[] | null {
  const stdinUses = names.filter((n) => n === '-').length;
  const out: string[] = [];
  let stdinLines: string[] | null = null;
  const stdinParts: string[][] = [];
  for (const n of names) {
    if (n !== '-') {
      const [t] = readInputs(c, [n]);
      if (t === undefined) return null;
      out.push(t);
      continue;
    }
    if (stdinLines === null) {
      stdinLines = records(readInputs(c, ['-'])[0] ?? '', '\n');
      for (let k = 0; k < stdinUses; k++) stdinParts.push([]);
      stdinLines.forEach((l, i) => stdinParts[i % stdinUses].push(l));
    }
    const mine = stdinParts.shift()!;
    out.push(mine.map((l) => l + '\n').join(''));
  }
  return out;
}

function parseDelims(c: Cmd, s: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '\\') {
      out.push(s[i]);
      continue;
    }
    const n = s[++i];
    if (n === undefined) return c.fail(`delimiter list ends with an unescaped backslash: ${s}`);
    out.push(n === 'n' ? '\n' : n === 't' ? '\t' : n === '0' ? '' : n === '\\' ? '\\' : n);
  }
  return out;
}

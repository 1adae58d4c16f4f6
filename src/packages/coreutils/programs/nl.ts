// nl [OPTION]... [FILE]...: number lines of files (streams; one numbering across files).

import { command, forEachInput, lines, quote, type Cmd } from '../../../userland/lib/index.js';
import { bin, str } from './text.js';

const USAGE = `Usage: nl [OPTION]... [FILE]...
Write each FILE to standard output, with line numbers added.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -b, --body-numbering=STYLE      use STYLE for numbering body lines
  -d, --section-delimiter=CC      use CC for logical page delimiters
  -f, --footer-numbering=STYLE    use STYLE for numbering footer lines
  -h, --header-numbering=STYLE    use STYLE for numbering header lines
  -i, --line-increment=NUMBER     line number increment at each line
  -l, --join-blank-lines=NUMBER   group of NUMBER empty lines counted as one
  -n, --number-format=FORMAT      insert line numbers according to FORMAT
  -p, --no-renumber               do not reset line numbers for each section
  -s, --number-separator=STRING   add STRING after (possible) line number
  -v, --starting-line-number=NUMBER  first line number for each section
  -w, --number-width=NUMBER       use NUMBER columns for line numbers
      --help     display this help and exit
      --version  output version information and exit

Default options are: -bt -d'\\:' -fn -hn -i1 -l1 -n'rn' -s<TAB> -v1 -w6

STYLE is one of:

  a      number all lines
  t      number only nonempty lines
  n      number no lines
  pBRE   number only lines that contain a match for the basic regular
         expression, BRE

FORMAT is one of:

  ln     left justified, no leading zeros
  rn     right justified, no leading zeros
  rz     right justified, leading zeros
`;

export const nl = command(
  {
    name: 'nl',
    usage: USAGE,
    short: 'b:d:f:h:i:l:n:ps:v:w:',
    long: {
      'body-numbering': ['b', 'required'], 'section-delimiter': ['d', 'required'], 'footer-numbering': ['f', 'required'],
      'header-numbering': ['h', 'required'], 'line-increment': ['i', 'required'], 'join-blank-lines': ['l', 'required'],
      'number-format': ['n', 'required'], 'no-renumber': ['p', 'none'], 'number-separator': ['s', 'required'],
      'starting-line-number': ['v', 'required'], 'number-width': ['w', 'required'],
    },
  },
  (c) => {
    const style = c.get('b') ?? 't';
    if (!['a', 't', 'n'].includes(style)) return c.usage(`invalid body numbering style: ${quote(style)}`);
    const format = c.get('n') ?? 'rn';
    if (!['ln', 'rn', 'rz'].includes(format)) return c.usage(`invalid line numbering format: ${quote(format)}`);
    const width = int(c, 'w', 6, 'line number field width', 1);
    const incr = int(c, 'i', 1, 'line number increment', 0);
    let n = int(c, 'v', 1, 'starting line number', -Infinity);
    const sep = c.get('s') ?? '\t';
    const blank = ' '.repeat(width + sep.length);
    const fmt = (k: number): string => {
      if (format === 'ln') return String(k).padEnd(width);
      if (format === 'rn') return String(k).padStart(width);
      return k < 0 ? `-${String(-k).padStart(width - 1, '0')}` : String(k).padStart(width, '0');
    };
    forEachInput(c, c.operands, (fd) => {
      for (const b of lines(c.sys, fd)) {
        let l = str(b);
        if (!l.endsWith('\n')) l += '\n';
        const empty = l === "\n" || l === "";
        const number = style === 'a' || (style === 't' && !empty);
        if (number) {
          c.out.write(bin(fmt(n) + sep + l));
          n += incr;
        } else c.out.write(bin(blank + l));
      }
    });
  },
);

function int(c: Cmd, k: string, dflt: number, what: string, min: number): number {
  const v = c.get(k);
  if (v === undefined) return dflt;
  if (!/^[-+]?\d+$/.test(v)) return c.fail(`invalid ${what}: ${quote(v)}`);
  const n = Number(v);
  if (n < min) return c.fail(`invalid ${what}: ${quote(v)}: Numerical result out of range`);
  return n;
}

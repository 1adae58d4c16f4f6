// fold [OPTION]... [FILE]...: wrap input lines to a width (streams, line by line).

import { command, forEachInput, lines, quote } from '../../../userland/lib/index.js';
import { bin, count, isBlank, str } from './text.js';

const USAGE = `Usage: fold [OPTION]... [FILE]...
Wrap input lines in each FILE, writing to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -b, --bytes         count bytes rather than columns
  -s, --spaces        break at spaces
  -w, --width=WIDTH   use WIDTH columns instead of 80
      --help     display this help and exit
      --version  output version information and exit
`;

export const fold = command(
  {
    name: 'fold',
    usage: USAGE,
    short: 'bsw:',
    long: { bytes: ['b', 'none'], spaces: ['s', 'none'], width: ['w', 'required'] },
  },
  (c) => {
    const wv = c.get('w');
    const width = wv === undefined ? 80 : count(wv);
    if (width === null) return c.fail(`invalid number of columns: ${quote(wv!)}`);
    if (width === 0) return c.fail(`invalid number of columns: ${quote(wv!)}: Numerical result out of range`);
    const bytes = c.has('b');
    const spaces = c.has('s');
    // Column after printing ch at column col (GNU's adjust_column).
    const adv = (col: number, ch: string): number => {
      if (bytes) return col + 1;
      if (ch === '\b') return Math.max(0, col - 1);
      if (ch === '\r') return 0;
      if (ch === '\t') return col + 8 - (col % 8);
      return col + 1;
    };
    const colOf = (s: string) => [...s].reduce(adv, 0);
    forEachInput(c, c.operands, (fd) => {
      for (const b of lines(c.sys, fd)) {
        const l = str(b);
        let out = '';
        let buf = '';
        let col = 0;
        for (const ch of l) {
          if (ch === '\n') {
            buf += ch;
            continue;
          }
          for (;;) {
            const next = adv(col, ch);
            if (next <= width || buf === '') {
              buf += ch;
              col = next;
              break;
            }
            let cut = -1;
            if (spaces) for (let i = buf.length - 1; i >= 0 && cut < 0; i--) if (isBlank(buf[i])) cut = i + 1;
            if (cut > 0) {
              out += buf.slice(0, cut) + '\n';
              buf = buf.slice(cut);
            } else {
              out += buf + '\n';
              buf = '';
            }
            col = colOf(buf);
          }
        }
        c.out.write(bin(out + buf));
      }
    });
  },
);

// rev [FILE]...: reverse each line's characters (util-linux; streams).

import { command, forEachInput, lines } from '../../../userland/lib/index.js';
import { bin, str } from './text.js';

const USAGE = `
Usage:
 rev [options] [file ...]

Reverse lines characterwise.

Options:
 -0, --zero     zero termination; use NUL as line delimiter, not newline

 -h, --help     display this help
 -V, --version  display version
`;

export const rev = command(
  { name: 'rev', usage: USAGE, short: '0hV', long: { zero: ['0', 'none'] } },
  (c) => {
    if (c.has('h')) return void c.out.write(USAGE.slice(1));
    const term = c.has('0') ? 0 : 10;
    const t = String.fromCharCode(term);
    forEachInput(c, c.operands, (fd) => {
      for (const b of lines(c.sys, fd, term)) {
        let l = str(b);
        const nl = l.endsWith(t);
        if (nl) l = l.slice(0, -1);
        c.out.write(bin([...l].reverse().join('') + (nl ? t : '')));
      }
    });
  },
);

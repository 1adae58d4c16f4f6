// rev [FILE]...: reverse each line's characters (util-linux; streams).

import { command, forEachInput, lines } from '../../../userland/lib/index.js';
import { isUtf8Locale } from '../../../userland/lib/locale.js';
import { hasEncodingError, splitChars } from '../../../userland/lib/utf8.js';
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
    // util-linux reads wide characters: in a UTF-8 locale characters are
    // reversed whole, and a file stops at its first invalid byte, which in the
    // C locale is any byte above 0x7f.
    const utf8 = isUtf8Locale(c.os.env);
    const invalid = (l: string) => (utf8 ? hasEncodingError(l) : /[\x80-\xff]/.test(l));
    forEachInput(c, c.operands, (fd, name) => {
      let n = 0;
      for (const b of lines(c.sys, fd, term)) {
        let l = str(b);
        const nl = l.endsWith(t);
        if (nl) l = l.slice(0, -1);
        if (invalid(l)) {
          c.error(`${name === '-' ? 'stdin' : name}: ${n}: Invalid or incomplete multibyte or wide character`);
          return;
        }
        c.out.write(bin((utf8 ? splitChars(l) : [...l]).reverse().join('') + (nl ? t : '')));
        n++;
      }
    });
  },
);

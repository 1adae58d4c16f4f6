// realpath [-emsz] [--relative-to=DIR] FILE...: print the resolved absolute file name.

import { command, quotef } from '../../../userland/lib/index.js';
import { canonicalize } from './canon.js';

const USAGE = `Usage: realpath [OPTION]... FILE...
Print the resolved absolute file name;
all but the last component must exist

  -e, --canonicalize-existing  all components of the path must exist
  -m, --canonicalize-missing   no path components need exist or be a directory
  -q, --quiet                  suppress most error messages
  -s, --strip, --no-symlinks   don't expand symlinks
  -z, --zero                   end each output line with NUL, not newline
      --help     display this help and exit
      --version  output version information and exit
`;

export const realpath = command(
  {
    name: 'realpath',
    usage: USAGE,
    short: 'emqsz',
    long: {
      'canonicalize-existing': ['e', 'none'], 'canonicalize-missing': ['m', 'none'], quiet: ['q', 'none'],
      strip: ['s', 'none'], 'no-symlinks': ['s', 'none'], zero: ['z', 'none'],
    },
  },
  (c) => {
    if (c.operands.length === 0) c.usage('missing operand');
    const mode = c.has('e') ? 'e' : c.has('m') ? 'm' : 'f';
    const end = c.has('z') ? '\0' : '\n';
    for (const f of c.operands) {
      try {
        // -s resolves lexically, but without -m the name must still exist.
        if (c.has('s') && mode !== 'm') c.sys.stat(f);
        const r = c.has('s') ? strip(c.sys.getcwd(), f) : canonicalize(c.sys, f, mode);
        c.out.write(r + end);
      } catch (e) {
        if (c.has('q')) c.status = 1;
        else c.sysError(quotef(f), e);
      }
    }
  },
);

/** -s: lexical resolution only. */
function strip(cwd: string, p: string): string {
  const out: string[] = [];
  for (const part of (p.startsWith('/') ? p : `${cwd}/${p}`).split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

// rmdir [-pv] [--ignore-fail-on-non-empty] DIRECTORY...: remove empty directories.

import { Errno } from '../../../abi/errno.js';
import { command, dirName, errnoOf, quoteaf } from '../../../userland/lib/index.js';

const USAGE = `Usage: rmdir [OPTION]... DIRECTORY...
Remove the DIRECTORY(ies), if they are empty.

      --ignore-fail-on-non-empty
                    ignore each failure to remove a non-empty directory
  -p, --parents     remove DIRECTORY and its ancestors;
                    e.g., 'rmdir -p a/b' is similar to 'rmdir a/b a'

  -v, --verbose     output a diagnostic for every directory processed
      --help     display this help and exit
      --version  output version information and exit
`;

export const rmdir = command(
  {
    name: 'rmdir',
    usage: USAGE,
    short: 'pv',
    long: { parents: ['p', 'none'], verbose: ['v', 'none'], 'ignore-fail-on-non-empty': ['I', 'none'] },
  },
  (c) => {
    if (c.operands.length === 0) c.usage('missing operand');
    const remove = (d: string): boolean => {
      if (c.has('v')) c.out.write(`rmdir: removing directory, ${quoteaf(d)}\n`);
      try {
        c.sys.rmdir(d);
        return true;
      } catch (e) {
        if (c.has('I') && errnoOf(e) === Errno.ENOTEMPTY) return false;
        c.sysError(`failed to remove ${quoteaf(d)}`, e);
        return false;
      }
    };
    for (let d of c.operands) {
      if (!remove(d) || !c.has('p')) continue;
      d = d.replace(/\/+$/, '');
      while (d.includes('/')) {
        d = dirName(d);
        if (d === '/' || d === '.' || !remove(d)) break;
      }
    }
  },
);

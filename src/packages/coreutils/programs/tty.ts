// tty [-s]: print the name of the terminal on standard input, or "not a tty" (status 1).

import { command, quote } from '../../../userland/lib/index.js';

const USAGE = `Usage: tty [OPTION]...
Print the file name of the terminal connected to standard input.

  -s, --silent, --quiet   print nothing, only return an exit status
      --help        display this help and exit
      --version     output version information and exit
`;

export const tty = command(
  { name: 'tty', usage: USAGE, failStatus: 2, short: 's', long: { silent: ['s', 'none'], quiet: ['s', 'none'] } },
  (c) => {
    if (c.operands.length) c.usage(`extra operand ${quote(c.operands[0])}`);
    let isTty = false;
    try {
      isTty = c.sys.isatty(0);
    } catch {
      // stdin closed: not a terminal.
    }
    if (c.has('s')) return isTty ? 0 : 1;
    if (!isTty) {
      c.out.write('not a tty\n');
      return 1;
    }
    let name = '/dev/tty';
    try {
      name = c.sys.readlink('/proc/self/fd/0');
    } catch {
      // No /proc link: the controlling terminal's generic name.
    }
    c.out.write(`${name}\n`);
  },
);

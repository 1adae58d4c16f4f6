// yes [STRING]...: output the STRING(s) (default "y") forever, until the reader goes away.

import { strerror } from '../../../abi/errno.js';
import { command, WriteError } from '../../../userland/lib/index.js';

const USAGE = `Usage: yes [STRING]...
  or:  yes OPTION
Repeatedly output a line with all specified STRING(s), or 'y'.

      --help     display this help and exit
      --version  output version information and exit
`;

export const yes = command({ name: 'yes', usage: USAGE }, (c) => {
  const line = (c.operands.length ? c.operands.join(' ') : 'y') + '\n';
  // Fill a large block once; each write then moves many lines (SIGPIPE ends us).
  const block = line.repeat(Math.max(1, Math.floor(8192 / line.length)));
  try {
    for (;;) c.out.write(block);
  } catch (e) {
    if (!(e instanceof WriteError)) throw e;
    // With SIGPIPE ignored: GNU yes names the stream where other tools say "write error".
    c.sys.writeAll(2, `yes: standard output: ${strerror(e.errno)}\n`);
    return 1;
  }
});

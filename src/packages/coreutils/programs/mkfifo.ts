// mkfifo [-m MODE] NAME...: make named pipes.

import { S_IFIFO } from '../../../abi/stat.js';
import { applyMode, command } from '../../../userland/lib/index.js';

const USAGE = `Usage: mkfifo [OPTION]... NAME...
Create named pipes (FIFOs) with the given NAMEs.

Mandatory arguments to long options are mandatory for short options too.
  -m, --mode=MODE    set file permission bits to MODE, not a=rw - umask
      --help        display this help and exit
      --version     output version information and exit
`;

export const mkfifo = command(
  {
    name: 'mkfifo',
    usage: USAGE,
    short: 'm:',
    long: { mode: ['m', 'required'] },
  },
  (c) => {
    if (c.operands.length === 0) c.usage('missing operand');
    let mode: number | null = null;
    if (c.has('m')) {
      const umask = c.sys.umask(0);
      c.sys.umask(umask);
      // Relative to a=rw; the umask only limits who-less symbolic clauses, as in chmod.
      const m = applyMode(c.get('m')!, 0o666, false, umask);
      if (m === null) return c.fail('invalid mode');
      if (m & ~0o777) c.fail('mode must specify only file permission bits');
      mode = m;
    }
    for (const name of c.operands) {
      try {
        c.sys.mknod(name, S_IFIFO | (mode ?? 0o666));
        // An explicit -m is not narrowed by the umask.
        if (mode !== null) c.sys.chmod(name, mode);
      } catch (e) {
        c.cannot('create fifo', name, e);
      }
    }
  },
);

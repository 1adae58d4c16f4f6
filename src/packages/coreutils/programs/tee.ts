// tee [-ai] [FILE]...: copy standard input to standard output and to files.

import { O_APPEND, O_CREAT, O_TRUNC, O_WRONLY } from '../../../abi/fcntl.js';
import { SIGINT } from '../../../abi/signal.js';
import { chunks, command, quotef } from '../../../userland/lib/index.js';

const USAGE = `Usage: tee [OPTION]... [FILE]...
Copy standard input to each FILE, and also to standard output.

  -a, --append              append to the given FILEs, do not overwrite
  -i, --ignore-interrupts   ignore interrupt signals
      --help     display this help and exit
      --version  output version information and exit
`;

export const tee = command(
  { name: 'tee', usage: USAGE, short: 'ai', long: { append: ['a', 'none'], 'ignore-interrupts': ['i', 'none'] } },
  (c) => {
    if (c.has('i')) c.os.signal(SIGINT, 1);
    const flags = O_WRONLY | O_CREAT | (c.has('a') ? O_APPEND : O_TRUNC);
    const outs: [number, string][] = [];
    for (const f of c.operands) {
      try {
        outs.push([f === '-' ? 1 : c.sys.open(f, flags, 0o666), f]);
      } catch (e) {
        c.sysError(quotef(f), e);
      }
    }
    // Unbuffered: each chunk read goes out at once (tee sits in interactive pipelines).
    for (const b of chunks(c.sys, 0)) {
      c.out.write(b);
      c.out.flush();
      for (let i = 0; i < outs.length; i++) {
        try {
          c.sys.writeAll(outs[i][0], b);
        } catch (e) {
          c.sysError(quotef(outs[i][1]), e);
          outs.splice(i--, 1);
        }
      }
    }
    for (const [fd] of outs) if (fd !== 1) c.sys.close(fd);
  },
);

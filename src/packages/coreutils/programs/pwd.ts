// pwd [-L|-P]: print the current directory. Like GNU /bin/pwd, -P (symlinks resolved)
// is the default; -L prints $PWD when it names the current directory without . or ..

import { command, tryStat } from '../../../userland/lib/index.js';

const USAGE = `Usage: pwd [OPTION]...
Print the full filename of the current working directory.

  -L, --logical   use PWD from environment, even if it contains symlinks
  -P, --physical  resolve all symlinks
      --help      display this help and exit
      --version   output version information and exit

If no option is specified, -P is assumed.
`;

export const pwd = command(
  { name: 'pwd', usage: USAGE, short: 'LP', long: { logical: ['L', 'none'], physical: ['P', 'none'] } },
  (c) => {
    if (c.operands.length) c.warn('ignoring non-option arguments');
    const last = [...c.all].reverse().find(([k]) => k === 'L' || k === 'P')?.[0];
    if (last === 'L') {
      const env = c.os.env.PWD;
      if (env && env.startsWith('/') && !/(^|\/)\.\.?(\/|$)/.test(env)) {
        const a = tryStat(c.sys, env);
        const b = tryStat(c.sys, '.');
        if (a && b && a.dev === b.dev && a.ino === b.ino) {
          c.out.write(`${env}\n`);
          return;
        }
      }
    }
    c.out.write(`${c.sys.getcwd()}\n`);
  },
);

// nohup COMMAND [ARG]...: run COMMAND immune to hangups. Output that would go to a
// terminal goes to nohup.out (or $HOME/nohup.out) instead; otherwise it passes through.

import { Errno, strerror, SysError } from '../../../abi/errno.js';
import { O_APPEND, O_CREAT, O_RDONLY, O_WRONLY } from '../../../abi/fcntl.js';
import { SIG_IGN, SIGHUP } from '../../../abi/signal.js';
import { walkPath, withShellFallback } from '../../../libc/execvp.js';
import { command, quoteaf, type Cmd } from '../../../userland/lib/index.js';

const USAGE = `Usage: nohup COMMAND [ARG]...
  or:  nohup OPTION
Run COMMAND, ignoring hangup signals.

      --help     display this help and exit
      --version  output version information and exit

If standard input is a terminal, redirect it from an unreadable file.
If standard output is a terminal, append output to 'nohup.out' if possible,
'$HOME/nohup.out' otherwise.
If standard error is a terminal, redirect it to standard output.
`;

const tty = (c: Cmd, fd: number): boolean => {
  try {
    return c.sys.isatty(fd);
  } catch {
    return false;
  }
};

export const nohup = command({ name: 'nohup', usage: USAGE, failStatus: 125, stopAtOperand: true }, (c) => {
  if (c.operands.length === 0) c.usage('missing operand');
  const [inTty, outTty, errTty] = [tty(c, 0), tty(c, 1), tty(c, 2)];
  if (inTty) {
    const fd = c.sys.open('/dev/null', O_RDONLY);
    c.sys.dup2(fd, 0);
    c.sys.close(fd);
  }
  let where = '';
  if (outTty) {
    where = 'nohup.out';
    let fd: number;
    try {
      fd = c.sys.open(where, O_WRONLY | O_CREAT | O_APPEND, 0o600);
    } catch {
      where = `${c.os.env.HOME ?? ''}/nohup.out`;
      try {
        fd = c.sys.open(where, O_WRONLY | O_CREAT | O_APPEND, 0o600);
      } catch (e) {
        c.sysError(`failed to open ${quoteaf(where)}`, e, 125);
        return 125;
      }
    }
    c.sys.dup2(fd, 1);
    c.sys.close(fd);
  }
  const input = inTty ? 'ignoring input' : '';
  if (where) c.warn(`${input ? `${input} and appending` : 'appending'} output to ${quoteaf(where)}`);
  else if (input) c.warn(errTty ? `${input} and redirecting stderr to stdout` : input);
  if (errTty) c.sys.dup2(1, 2);
  c.sys.sigaction(SIGHUP, SIG_IGN);
  const env = Object.entries(c.os.env).map(([k, v]) => `${k}=${v}`);
  const [cmd, ...rest] = c.operands;
  try {
    walkPath(cmd, env, (path) => withShellFallback(path, [cmd, ...rest], (file, argv) => c.sys.execve(file, argv, env)));
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    c.warn(`failed to run command ${quoteaf(cmd)}: ${strerror(e.errno)}`);
    return e.errno === Errno.ENOENT ? 127 : 126;
  }
});

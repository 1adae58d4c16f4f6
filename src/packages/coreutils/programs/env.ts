// env [-i] [-u NAME]... [-0] [NAME=VALUE]... [COMMAND [ARG]...]
// Run COMMAND (found by a $PATH walk) in a modified environment, or print the environment.

import { Errno, strerror, SysError } from '../../../abi/errno.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { walkPath, withShellFallback } from '../../../libc/execvp.js';

const USAGE = `Usage: env [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]
Set each NAME to VALUE in the environment and run COMMAND.

  -i, --ignore-environment  start with an empty environment
  -0, --null           end each output line with NUL, not newline
  -u, --unset=NAME     remove variable from the environment
      --help     display this help and exit

A mere - implies -i.  If no COMMAND, print the resulting environment.
`;

export function env(os: AgentosApi, args: string[]): number {
  let vars = Object.entries(os.env).map(([k, v]) => `${k}=${v}`);
  let nul = false;
  let i = 0;
  const unset = (name: string) => (vars = vars.filter((kv) => !kv.startsWith(`${name}=`)));
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      i++;
      break;
    }
    if (a === '-i' || a === '--ignore-environment' || a === '-') vars = [];
    else if (a === '-0' || a === '--null') nul = true;
    else if (a === '-u' || a === '--unset') {
      if (i + 1 >= args.length) return usageError(os, `option requires an argument -- 'u'`);
      unset(args[++i]);
    } else if (a.startsWith('--unset=')) unset(a.slice(8));
    else if (a.startsWith('-u') && a.length > 2) unset(a.slice(2));
    else if (a === '--help') {
      os.print(USAGE);
      return 0;
    } else if (a.startsWith('-') && a.length > 1) return usageError(os, `invalid option -- '${a.slice(1)}'`);
    else break;
  }
  for (; i < args.length && /^[^=]+=/.test(args[i]); i++) {
    const name = args[i].slice(0, args[i].indexOf('='));
    unset(name);
    vars.push(args[i]);
  }
  if (i >= args.length) {
    os.print(vars.map((kv) => kv + (nul ? '\0' : '\n')).join(''));
    return 0;
  }
  const [cmd, ...rest] = args.slice(i);
  try {
    walkPath(cmd, vars, (path) => withShellFallback(path, [cmd, ...rest], (file, argv) => os.sys.execve(file, argv, vars)));
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    os.eprint(`env: ‘${cmd}’: ${strerror(e.errno)}\n`);
    return e.errno === Errno.ENOENT ? 127 : 126;
  }
  return 0; // not reached: execve does not return
}

function usageError(os: AgentosApi, msg: string): number {
  os.eprint(`env: ${msg}\nTry 'env --help' for more information.\n`);
  return 125;
}


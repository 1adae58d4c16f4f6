// aosctl: a supervisor's way to narrow what a process tree may do.
//   aosctl restrict JSON [CMD [ARG]...] narrow this process's capabilities (never wider), then run CMD
// Intents and questions are the operator's `aos approve|reject|answer|pending`.

import type { Restriction } from '../../../abi/aos.js';
import { strerror } from '../../../abi/errno.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';

const USAGE = `usage: aosctl restrict JSON [COMMAND [ARG]...]
`;

/** COMMAND found as execvp would: a path, or the first match on $PATH. */
function which(os: AgentosApi, cmd: string): string {
  if (cmd.includes('/')) return cmd;
  for (const dir of (os.env.PATH ?? '/usr/bin:/bin').split(':')) {
    const path = `${dir || '.'}/${cmd}`;
    try {
      os.sys.stat(path);
      return path;
    } catch {
      // next
    }
  }
  os.eprint(`aosctl: ${cmd}: command not found\n`);
  return os.exit(127);
}

export default function main(os: AgentosApi): void {
  const [cmd, ...rest] = os.argv.slice(1);
  try {
    switch (cmd) {
      case 'restrict': {
        let r: Restriction;
        try {
          r = JSON.parse(rest[0] ?? '') as Restriction;
        } catch {
          os.eprint(`aosctl: restrict: not JSON: '${rest[0] ?? ''}'\n`);
          return os.exit(2);
        }
        const now = os.sys.aosctl('restrict', r);
        if (rest.length < 2) {
          os.print(`${JSON.stringify(now)}\n`);
          return os.exit(0);
        }
        const env = Object.entries(os.env).map(([k, v]) => `${k}=${v}`);
        return os.sys.execve(which(os, rest[1]), rest.slice(1), env);
      }
      default:
        os.eprint(USAGE);
        return os.exit(2);
    }
  } catch (e) {
    if (!(e instanceof os.SysError)) throw e;
    os.eprint(`aosctl: ${cmd} ${rest[0] ?? ''}: ${strerror(e.errno)}${e.detail ? ` (${e.detail})` : ''}\n`);
    os.exit(1);
  }
}

// aosctl: the operator's and a supervisor's end of /aos that is not a file.
//   aosctl approve|reject ID [REASON]   decide intent ID (root, outside every agent's tree)
//   aosctl answer ID TEXT...            answer question ID of /aos/channels/human
//   aosctl pending [PID]                the intents and questions waiting, one JSON line each
//   aosctl restrict JSON [CMD [ARG]...] narrow this process's capabilities (never wider), then run CMD
// `aos approve|reject` do the same for agents run with `aos`.

import type { Restriction } from '../../../abi/aos.js';
import { strerror } from '../../../abi/errno.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';

const USAGE = `usage: aosctl approve|reject ID [REASON]
       aosctl answer ID TEXT...
       aosctl pending [PID]
       aosctl restrict JSON [COMMAND [ARG]...]
`;

function id(os: AgentosApi, s: string | undefined): number {
  if (!s || !/^[0-9]+$/.test(s)) {
    os.eprint(`aosctl: not an id: '${s ?? ''}'\n${USAGE}`);
    os.exit(2);
  }
  return Number(s);
}

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
      case 'approve':
      case 'reject':
        os.sys.aosctl('decide', id(os, rest[0]), cmd === 'approve', rest.slice(1).join(' '));
        return os.exit(0);
      case 'answer':
        os.sys.aosctl('answer', id(os, rest[0]), rest.slice(1).join(' '));
        return os.exit(0);
      case 'pending': {
        const r = os.sys.aosctl('pending', rest[0] ? id(os, rest[0]) : 0);
        for (const i of r.intents) os.print(`${JSON.stringify({ intent: i.id, pid: i.pid, tool: i.tool, arguments: i.arguments })}\n`);
        for (const q of r.questions) os.print(`${JSON.stringify({ question: q.id, pid: q.pid, text: q.question })}\n`);
        return os.exit(0);
      }
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

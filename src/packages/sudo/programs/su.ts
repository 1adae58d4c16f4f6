// su [options] [-] [USER [ARG]...]
// Become USER (default root) in a shell, or run `-c COMMAND` as USER, without
// a password (the VM has none). Installed set-user-ID root; the VM's policy
// can forbid it (processes.sudo: false), and binds root as it binds the user.

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { account, become, elevated, enterHome, run, SECURE_PATH } from './account.js';

const USAGE = `
Usage:
 su [options] [-] [<user> [<argument>...]]

Change the effective user ID and group ID to that of <user>.
A mere - implies -l.  If <user> is not given, root is assumed.

Options:
 -m, -p, --preserve-environment      do not reset environment variables
 -w, --whitelist-environment <list>  don't reset specified variables
 -c, --command <command>             pass a single command to the shell with -c
 -l, --login                         make the shell a login shell
 -s, --shell <shell>                 run <shell> if /etc/shells allows it

 -h, --help                          display this help
 -V, --version                       display version
`;

export function su(os: AgentosApi, args: string[]): number {
  let login = false;
  let preserve = false;
  let command: string | null = null;
  let shell: string | null = null;
  let i = 0;
  const usage = (msg: string): number => (os.eprint(`su: ${msg}\nTry 'su --help' for more information.\n`), 1);
  for (; i < args.length; i++) {
    const a = args[i];
    const value = (inline: string | undefined): string | undefined => (inline !== undefined && inline !== '' ? inline : args[++i]);
    if (a === '--') {
      i++;
      break;
    }
    if (a === '-' || a === '-l' || a === '--login') login = true;
    else if (a === '-m' || a === '-p' || a === '--preserve-environment') preserve = true;
    else if (a === '-h' || a === '--help') return (os.print(USAGE.slice(1)), 0);
    else if (a === '-V' || a === '--version') return (os.print('su from util-linux 2.38.1 (agentOS)\n'), 0);
    else if (a.startsWith('-c') || a.startsWith('--command')) {
      const v = value(a.startsWith('--') ? a.split('=').slice(1).join('=') || undefined : a.slice(2));
      if (v === undefined) return usage(`option requires an argument -- 'c'`);
      command = v;
    } else if (a.startsWith('-s') || a.startsWith('--shell')) {
      const v = value(a.startsWith('--') ? a.split('=').slice(1).join('=') || undefined : a.slice(2));
      if (v === undefined) return usage(`option requires an argument -- 's'`);
      shell = v;
    } else if (a.startsWith('-w') || a.startsWith('--whitelist-environment')) {
      if (value(a.startsWith('--') ? a.split('=').slice(1).join('=') || undefined : a.slice(2)) === undefined) {
        return usage(`option requires an argument -- 'w'`);
      }
    } else if (a.startsWith('-') && a.length > 1) return usage(`invalid option -- '${a.replace(/^-+/, '')}'`);
    else break;
  }
  const name = args[i] ?? 'root';
  const extra = args.slice(i + 1);
  const target = account(os, name);
  if (!target || name.startsWith('#')) {
    os.eprint(`su: user ${name} does not exist or the user entry does not contain all the required fields\n`);
    return 1;
  }
  if (!elevated(os, 'su')) return 1;
  const sh = shell ?? target.shell;
  const env = new Map<string, string>(preserve && !login ? Object.entries(os.env) : []);
  if (login) {
    for (const k of ['TERM', 'COLORTERM', 'LANG', 'LANGUAGE', 'TZ']) if (os.env[k] !== undefined) env.set(k, os.env[k]);
    env.set('PATH', SECURE_PATH);
  } else if (!preserve) {
    for (const [k, v] of Object.entries(os.env)) env.set(k, v);
  }
  if (!preserve || login) {
    env.set('HOME', target.home);
    env.set('SHELL', sh);
    if (login || target.uid !== 0) {
      env.set('USER', target.name);
      env.set('LOGNAME', target.name);
    }
  }
  const argv = [sh, ...(login ? ['-l'] : []), ...(command !== null ? ['-c', command] : []), ...extra];
  become(os, target);
  if (login) enterHome(os, 'su', target);
  return run(os, 'su', argv, [...env].map(([k, v]) => `${k}=${v}`));
}

export default function main(os: AgentosApi): void {
  os.exit(su(os, os.argv.slice(1)));
}

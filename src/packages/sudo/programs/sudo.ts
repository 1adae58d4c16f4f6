// sudo [-EHiknsv] [-u USER] [--] [NAME=VALUE]... [COMMAND [ARG]...]
// Run COMMAND as root (or -u USER) inside the VM. There is no password and no
// sudoers: every user may run anything, as a VM's single user may. sudo is
// installed set-user-ID root; the kernel makes it root, unless the VM's policy
// forbids it (processes.sudo: false). Root is bound by the rest of the policy.

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { parseArgs, UsageError, type OptSpec } from '../../../userland/lib/args.js';
import { account, become, elevated, enterHome, run, SECURE_PATH, type Account } from './account.js';

const USAGE = `usage: sudo -h | -K | -k | -V
usage: sudo -v [-knS] [-u user]
usage: sudo -l [-knS] [-U user] [-u user] [command [arg ...]]
usage: sudo [-EHknS] [-u user] [VAR=value] [-i | -s] [command [arg ...]]
`;

const HELP = `sudo - execute a command as another user

${USAGE}
Options:
  -E, --preserve-env            preserve user environment when running command
  -H, --set-home                set HOME variable to target user's home dir
  -h, --help                    display help message and exit
  -i, --login                   run login shell as the target user; a command
                                may also be specified
  -K, --remove-timestamp        remove timestamp file completely
  -k, --reset-timestamp         invalidate timestamp file
  -l, --list                    list user's privileges
  -n, --non-interactive         non-interactive mode, no prompts are used
  -S, --stdin                   read password from standard input
  -s, --shell                   run shell as the target user; a command may
                                also be specified
  -u, --user=user               run command (or edit file) as specified user
                                name or ID
  -V, --version                 display version information and exit
  -v, --validate                update user's timestamp without running a
                                command
  --                            stop processing command line arguments
`;

/** What the caller's environment keeps under env_reset (sudoers' default env_keep, roughly). */
const KEEP = /^(TERM|COLORTERM|LANG|LANGUAGE|LC_[A-Z_]+|TZ|LS_COLORS|DISPLAY|XAUTHORITY)$/;

const SPEC: OptSpec = {
  short: 'EHhiKklnSsVvu:U:g:C:D:p:r:t:T:',
  long: {
    'preserve-env': ['E', 'optional'], 'set-home': ['H', 'none'], help: ['h', 'none'], login: ['i', 'none'],
    'remove-timestamp': ['K', 'none'], 'reset-timestamp': ['k', 'none'], list: ['l', 'none'], 'non-interactive': ['n', 'none'],
    stdin: ['S', 'none'], shell: ['s', 'none'], user: ['u', 'required'], version: ['V', 'none'], validate: ['v', 'none'],
    'other-user': ['U', 'required'],
  },
  stopAtOperand: true,
};
/** Options that take a value and mean nothing here (-u does, and -U for -l). */
const UNSUPPORTED = new Set([...'gCDprtT']);

interface Opts {
  flags: Set<string>;
  user: string;
  rest: string[];
}

function parse(args: string[]): Opts {
  const o: Opts = { flags: new Set(), user: 'root', rest: [] };
  const parsed = parseArgs(args, SPEC);
  for (const [k, v] of parsed.list) {
    if (UNSUPPORTED.has(k)) throw new UsageError(`option -${k} is not supported in agentOS`);
    if (k === 'u') o.user = v!;
    o.flags.add(k);
  }
  o.rest = parsed.operands;
  return o;
}

/** The command's environment: env_reset (or -E: the caller's), then the target's identity and SUDO_*. */
function environment(os: AgentosApi, o: Opts, a: Account, assigned: string[], command: string[]): string[] {
  const env = new Map<string, string>();
  const keepAll = o.flags.has('E');
  for (const [k, v] of Object.entries(os.env)) if (keepAll || KEEP.test(k)) env.set(k, v);
  if (!keepAll) {
    env.set('PATH', SECURE_PATH);
    env.set('MAIL', `/var/mail/${a.name}`);
  }
  env.set('HOME', a.home);
  env.set('LOGNAME', a.name);
  env.set('USER', a.name);
  env.set('SHELL', a.shell);
  const caller = os.sys.getuid();
  env.set('SUDO_COMMAND', command.join(' '));
  env.set('SUDO_USER', account(os, `#${caller}`)?.name ?? String(caller));
  env.set('SUDO_UID', String(caller));
  env.set('SUDO_GID', String(os.sys.getgid()));
  for (const kv of assigned) env.set(kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1));
  return [...env].map(([k, v]) => `${k}=${v}`);
}

/** sudo's quoting of a command for `shell -c` under -s and -i: every character but [A-Za-z0-9_$-] escaped. */
const escapeArg = (s: string): string => s.replace(/[^A-Za-z0-9_$-]/g, '\\$&');

export function sudo(os: AgentosApi, args: string[]): number {
  let o: Opts;
  try {
    o = parse(args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    os.eprint(`sudo: ${e.message}\n${USAGE}`);
    return 1;
  }
  const f = o.flags;
  if (f.has('h')) return (os.print(HELP), 0);
  if (f.has('V')) return (os.print('Sudo version 1.9.13p3 (agentOS: no password, no sudoers)\n'), 0);
  if (f.has('i') && f.has('s')) {
    os.eprint(`sudo: you may not specify both the -i and -s options\n${USAGE}`);
    return 1;
  }
  const shellMode = f.has('i') || f.has('s');
  // VAR=value operands before the command go into its environment.
  const firstCmd = o.rest.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  const assigned = firstCmd < 0 ? o.rest : o.rest.slice(0, firstCmd);
  const command = firstCmd < 0 ? [] : o.rest.slice(firstCmd);
  const onlyTimestamp = (f.has('k') || f.has('K') || f.has('v')) && command.length === 0 && !shellMode;
  if (onlyTimestamp) return 0; // no password, so no timestamp to validate or forget
  if (command.length === 0 && !shellMode && !f.has('l')) {
    os.eprint(USAGE);
    return 1;
  }
  if (!elevated(os, 'sudo')) return 1;
  const target = account(os, o.user);
  if (!target) {
    os.eprint(`sudo: unknown user ${o.user}\n`);
    return 1;
  }
  if (f.has('l')) {
    const me = account(os, `#${os.sys.getuid()}`)?.name ?? String(os.sys.getuid());
    if (command.length) return (os.print(`${command.join(' ')}\n`), 0);
    os.print(`User ${me} may run the following commands on this VM:\n    (ALL : ALL) NOPASSWD: ALL\n`);
    return 0;
  }
  let argv = command;
  if (shellMode) {
    const shell = f.has('s') ? os.env.SHELL || target.shell : target.shell;
    const login = f.has('i') ? ['-l'] : [];
    argv = [shell, ...login, ...(command.length ? ['-c', command.map(escapeArg).join(' ')] : [])];
  }
  const env = environment(os, o, target, assigned, command.length ? command : [argv[0]]);
  become(os, target);
  if (f.has('i')) enterHome(os, 'sudo', target);
  return run(os, 'sudo', argv, env);
}

export default function main(os: AgentosApi): void {
  os.exit(sudo(os, os.argv.slice(1)));
}

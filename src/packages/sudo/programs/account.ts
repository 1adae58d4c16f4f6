// What sudo and su share: the passwd entry of the user to become, becoming it,
// and running the command (a $PATH walk, then execve, as sudo(8) and su(1) do).

import { Errno, strerror, SysError } from '../../../abi/errno.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { walkPath, withShellFallback } from '../../../libc/execvp.js';

/** Debian's secure_path, with agentOS's package links (as /etc/profile sets PATH). */
export const SECURE_PATH = '/usr/local/sbin:/usr/local/bin:/opt/agentos/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export interface Account {
  name: string;
  uid: number;
  gid: number;
  home: string;
  shell: string;
}

/** The passwd entry named `who` (or `#UID`, as sudo -u takes it); null if there is none. */
export function account(os: AgentosApi, who: string): Account | null {
  let text = '';
  try {
    text = new TextDecoder().decode(os.sys.readFile('/etc/passwd'));
  } catch {
    // No database: only numeric ids can be named.
  }
  const byId = /^#\d+$/.test(who) ? Number(who.slice(1)) : null;
  for (const line of text.split('\n')) {
    const f = line.split(':');
    if (f.length < 7 || line.startsWith('#')) continue;
    const e = { name: f[0], uid: Number(f[2]), gid: Number(f[3]), home: f[5], shell: f[6] || '/bin/sh' };
    if (byId === null ? e.name === who : e.uid === byId) return e;
  }
  return byId === null ? null : { name: who, uid: byId, gid: byId, home: '/', shell: '/bin/sh' };
}

/**
 * Did the kernel run us as root? A set-user-ID program that is not root was
 * refused its elevation: the VM's policy says processes.sudo: false.
 */
export function elevated(os: AgentosApi, prog: string): boolean {
  if (os.sys.geteuid() === 0) return true;
  os.eprint(`${prog}: the VM's policy forbids becoming root (processes.sudo is false)\n`);
  return false;
}

/** Become `a`, really and effectively (group first: after setuid there is no way back). */
export function become(os: AgentosApi, a: Account): void {
  os.sys.setgid(a.gid);
  os.sys.setuid(a.uid);
}

/** A login shell starts in the user's home, as login(1) does (a missing home is not fatal). */
export function enterHome(os: AgentosApi, prog: string, a: Account): void {
  try {
    os.sys.chdir(a.home);
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    os.eprint(`${prog}: warning: cannot change directory to ${a.home}: ${strerror(e.errno)}\n`);
  }
}

/** execvp `argv` with `env`; returns the exit status to report when it could not run. */
export function run(os: AgentosApi, prog: string, argv: string[], env: string[]): number {
  const [cmd] = argv;
  try {
    walkPath(cmd, env, (path) => withShellFallback(path, argv, (file, args) => os.sys.execve(file, args, env)));
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    if (e.errno === Errno.ENOENT && !cmd.includes('/')) os.eprint(`${prog}: ${cmd}: command not found\n`);
    else os.eprint(`${prog}: unable to execute ${cmd}: ${strerror(e.errno)}\n`);
    return prog === 'su' ? (e.errno === Errno.ENOENT ? 127 : 126) : 1;
  }
  return 0; // not reached: execve does not return
}

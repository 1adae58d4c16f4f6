// The script a `linux` process runs in the guest (sourced by a subshell of the guest's init):
// set the clock after a resume (the state has the build's), mount agentOS's files over 9p once
// per guest, enter the cwd, and exec the command with the process's environment. Builtins
// only until the exec: every fork costs, emulated.
//
// Paths: agentOS's / is the guest's /aos, and its /home, /root and /tmp are also bound at the
// same paths in the guest (the guest keeps its own /bin, /etc, /proc and /dev), so a cwd or an
// argument under them means the same file on both sides.

import type { Winsize } from '../../abi/termios.js';
import { MSIZE } from './p9.js';

/** agentOS directories bound at their own names in the guest. */
export const SHARED = ['home', 'root', 'tmp'];
/** The guest's PATH: its busybox, not agentOS's programs. */
const PATH = '/bin:/sbin';

/** What init's environment has that the job's must not (the kernel's and init's own). */
const INIT_ENV = ['HOME', 'TERM', 'PATH', 'PWD', 'OLDPWD', 'SHLVL'];
const NAME = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * Exactly `env` for `command`: set by the shell itself when every name is a shell variable's (an
 * exec of env(1) costs the emulated guest as much as a fork), else by `env -i`.
 */
function environment(env: string[], command: string): string[] {
  if (!env.every((e) => NAME.test(e))) return [`exec env -i ${env.map(quote).join(' ')} ${command}`];
  const sets = env.map((e) => `${e.slice(0, e.indexOf('='))}=${quote(e.slice(e.indexOf('=') + 1))}`);
  return [`unset ${INIT_ENV.join(' ')}`, `export ${sets.join(' ')}`, `exec ${command}`];
}

/** A word for sh: single-quoted, so any bytes but NUL survive. */
export function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Where agentOS's `path` is in the guest. */
export function guestPath(path: string): string {
  return SHARED.some((d) => path === `/${d}` || path.startsWith(`/${d}/`)) ? path : `/aos${path === '/' ? '' : path}`;
}

/**
 * The job; `clockMs` is the time to set the guest's clock to, if it needs setting. With `tty` (the
 * caller's terminal size) the program gets the guest's ttyS1 as its terminal (tty.ts); `rawAgain`
 * when the last job had it, so that the port is a raw byte pipe again for this one.
 */
export function jobScript(command: string[], env: string[], cwd: string, clockMs: number | null, tty: Winsize | null = null, rawAgain = false): string {
  // One exec of mount(8) for all of them (an fstab written by builtins); the guest has the
  // mount points (scripts/build-linux.mjs). A bind whose source agentOS lacks just fails.
  const fstab = [
    `host9p /aos 9p trans=virtio,version=9p2000.L,cache=none,msize=${MSIZE} 0 0`,
    ...SHARED.map((d) => `/aos/${d} /${d} none bind 0 0`),
  ];
  const mount = [
    `printf '%s\\n' ${fstab.map(quote).join(' ')} >/etc/fstab`,
    'mount -a 2>/dev/null',
    'm=; while read -r _ p _; do [ "$p" = /aos ] && m=1; done </proc/mounts',
    '[ "$m" ] || { echo "linux: the guest could not mount agentOS\'s files" >&2; exit 125; }',
    ': >/run/aos',
  ].join('\n  ');
  const dir = guestPath(cwd);
  const vars = env.filter((e) => e.includes('=') && !e.startsWith('PATH=') && !e.startsWith('PWD=') && !e.startsWith('OLDPWD='));
  return [
    ...(clockMs === null ? [] : [`date -s @${Math.floor(clockMs / 1000)} >/dev/null 2>&1`]),
    `[ -e /run/aos ] || {\n  ${mount}\n}`,
    ...(tty ? [
      'exec </dev/ttyS1 >/dev/ttyS1 2>&1',
      `stty sane rows ${tty.rows} cols ${tty.cols}`,
    ] : rawAgain ? ['stty -F /dev/ttyS1 raw -echo'] : []),
    `cd ${quote(dir)} || exit 1`,
    // setsid -c: a session of its own whose controlling terminal is ttyS1, so ^C there is its SIGINT.
    ...environment([...vars, `PATH=${PATH}`, `PWD=${dir}`], `${tty ? 'setsid -c ' : ''}${command.map(quote).join(' ')}`),
    '',
  ].join('\n');
}

/**
 * `command` run in the Debian root (`linux --root debian`, rootfs.ts) instead of the guest's
 * busybox: the root is the share's ROOT_NAME, read-only; agentOS's files and the guest's /proc,
 * /sys and /dev are bound into it once per guest, then the command runs chrooted with its cwd
 * (chroot(8) itself goes to /; env -C returns to the cwd) and Debian's PATH.
 */
export function inDebianRoot(command: string[], cwd: string, root: string): string[] {
  const dir = `/aos/${root}`;
  const binds = ['proc', 'sys', 'dev', 'aos', ...SHARED].map((d) => `/${d} ${dir}/${d} none bind 0 0`);
  const script = [
    `[ -e /run/aos-root ] || {`,
    `  printf '%s\\n' ${binds.map(quote).join(' ')} >/etc/fstab`,
    `  mount -a || { echo "linux: the guest could not mount the Debian root" >&2; exit 125; }`,
    `  : >/run/aos-root`,
    `}`,
    `exec chroot ${quote(dir)} /usr/bin/env -C "$0" PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin "$@"`,
  ].join('\n');
  return ['sh', '-c', script, guestPath(cwd), ...command];
}

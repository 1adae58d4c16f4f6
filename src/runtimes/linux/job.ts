// What a `linux` process asks the guest's agent to run (wasm/linux/agent.c has the protocol):
// the clock after a resume (the state has the build's), agentOS's files over 9p (mounted once per
// guest; the agent skips it after), the cwd, argv and environment, and the terminal's size when
// the program gets one. No shell runs for any of it: the agent does each with a system call, and
// the program is its one fork and exec.
//
// Paths: agentOS's / is the guest's /aos, and its /home, /root and /tmp are also bound at the
// same paths in the guest (the guest keeps its own /bin, /etc, /proc and /dev), so a cwd or an
// argument under them means the same file on both sides.

import type { Winsize } from '../../abi/termios.js';
import { escapeField } from './guest.js';
import { HTTP_PROXY } from './net.js';
import { MSIZE } from './p9.js';

/** agentOS directories bound at their own names in the guest. */
export const SHARED = ['home', 'root', 'tmp'];
/** The guest's PATH: its busybox, not agentOS's programs. */
const PATH = '/bin:/sbin';
/** Raw bytes per control line; a longer field goes in pieces (the agent joins them). */
const PIECE = 768;

/** Where agentOS's `path` is in the guest. */
export function guestPath(path: string): string {
  return SHARED.some((d) => path === `/${d}` || path.startsWith(`/${d}/`)) ? path : `/aos${path === '/' ? '' : path}`;
}

/** One field as control lines: `A<piece>`, then `a<piece>` for each further piece. */
function field(letter: string, value: string): string {
  const bytes = new TextEncoder().encode(value);
  let lines = `${letter}${escapeField(bytes.subarray(0, PIECE))}\n`;
  for (let i = PIECE; i < bytes.length; i += PIECE) lines += `${letter.toLowerCase()}${escapeField(bytes.subarray(i, i + PIECE))}\n`;
  return lines;
}

/**
 * The job's control lines (without the final G); `clockMs` is the time to set the guest's clock
 * to, if it needs setting. With `tty` (the caller's terminal size) the program gets the guest's
 * ttyS1 as its controlling terminal (tty.ts).
 */
export function jobLines(command: string[], env: string[], cwd: string, clockMs: number | null, tty: Winsize | null = null): string {
  const dir = guestPath(cwd);
  // http_proxy: the guest's HTTP clients send every URL to the network adapter (net.ts), whatever its host and port.
  const vars = env.filter((e) => e.includes('=') && !/^(PATH|PWD|OLDPWD|http_proxy)=/.test(e));
  return [
    clockMs === null ? '' : `T${Math.floor(clockMs / 1000)}\n`,
    // cache=mmap: read/write and lookups still go to agentOS every time (its writes show at once),
    // but a mapped file is read ahead by the message, not a 4 KiB page per fault (decision 0083).
    `M${escapeField(new TextEncoder().encode(`trans=virtio,version=9p2000.L,cache=mmap,msize=${MSIZE}`))}\n`,
    ...SHARED.map((d) => `B/aos/${d} /${d}\n`),
    field('C', dir),
    ...command.map((a) => field('A', a)),
    ...[...vars, `PATH=${PATH}`, `PWD=${dir}`, `http_proxy=${HTTP_PROXY}`].map((e) => field('V', e)),
    tty ? `Y${tty.rows} ${tty.cols}\n` : '',
  ].join('');
}

/** A word for sh: single-quoted, so any bytes but NUL survive. */
function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
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

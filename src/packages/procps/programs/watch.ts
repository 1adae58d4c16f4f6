// watch [options] command   Execute a program periodically, showing its
// output full screen (procps-ng 4.0.2 compatible). On a terminal: the
// alternate screen, a title line ("Every Ns: command" and host and time), the
// output cut to the screen, redrawn every -n seconds; -d highlights what
// changed; Ctrl-C restores the screen and exits 0. Not on a terminal: each
// run's title and output are printed one after another.

import { Errno } from '../../../abi/errno.js';
import { SIGHUP, SIGINT, SIGTERM, SIGWINCH } from '../../../abi/signal.js';
import { concatBytes } from '../../../abi/bytes.js';
import { shellStatus } from '../../../abi/wait.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { walkPath } from '../../../libc/execvp.js';
import { parseArgs, UsageError, type OptSpec } from '../../../userland/lib/args.js';
import { winsize } from '../../../userland/lib/tty.js';

const USAGE = `
Usage:
 watch [options] command

Options:
  -b, --beep             beep if command has a non-zero exit
  -c, --color            interpret ANSI color and style sequences
  -d, --differences[=<permanent>]
                         highlight changes between updates
  -e, --errexit          exit if command has a non-zero exit
  -g, --chgexit          exit when output from command changes
  -n, --interval <secs>  seconds to wait between updates
  -p, --precise          attempt run command in precise intervals
  -t, --no-title         turn off header
  -w, --no-wrap          turn off line wrapping
  -x, --exec             pass command to exec instead of "sh -c"

 -h, --help     display this help and exit
 -v, --version  output version information and exit

For more details see watch(1).
`;

interface Opts {
  interval: number;
  beep: boolean;
  differences: boolean;
  permanent: boolean;
  errexit: boolean;
  chgexit: boolean;
  title: boolean;
  wrap: boolean;
  exec: boolean;
  precise: boolean;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

class Stop extends Error {
  constructor(readonly status: number) {
    super('stop');
  }
}

export default function main(os: AgentosApi): void {
  os.exit(run(os));
}

/** watch's options, getopt_long style up to the command; -d takes a value only as --differences=permanent. */
const SPEC: OptSpec = {
  short: 'bcdeghn:ptwxv',
  long: {
    beep: ['b', 'none'], color: ['c', 'none'], differences: ['d', 'optional'], errexit: ['e', 'none'], chgexit: ['g', 'none'],
    interval: ['n', 'required'], precise: ['p', 'none'], 'no-title': ['t', 'none'], 'no-wrap': ['w', 'none'], exec: ['x', 'none'],
    help: ['h', 'none'], version: ['v', 'none'],
  },
  stopAtOperand: true,
};

function parse(os: AgentosApi, args: string[]): { o: Opts; cmd: string[] } | number {
  const o: Opts = { interval: 2, beep: false, differences: false, permanent: false, errexit: false, chgexit: false, title: true, wrap: true, exec: false, precise: false };
  const bad = (msg: string): number => {
    os.eprint(`watch: ${msg}\n${USAGE}`);
    return 1;
  };
  let parsed;
  try {
    parsed = parseArgs(args, SPEC);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return bad(e.message);
  }
  for (const [k, v] of parsed.list) {
    switch (k) {
      case 'b': o.beep = true; break;
      case 'c': break;
      case 'd': o.differences = true; o.permanent = v !== undefined && v !== ''; break;
      case 'e': o.errexit = true; break;
      case 'g': o.chgexit = true; break;
      case 'p': o.precise = true; break;
      case 't': o.title = false; break;
      case 'w': o.wrap = false; break;
      case 'x': o.exec = true; break;
      case 'h': os.print(USAGE); return 0;
      case 'v': os.print('watch from procps-ng 4.0.2 (agentOS)\n'); return 0;
      case 'n': {
        const n = Number(v!.replace(',', '.'));
        if (!Number.isFinite(n) || n < 0) return bad(`failed to parse argument: '${v}'`);
        o.interval = Math.max(0.1, n);
        break;
      }
    }
  }
  const cmd = parsed.operands;
  if (!cmd.length) return bad('');
  return { o, cmd };
}

/** ctime(3) without its newline: "Fri Nov 27 16:48:39 2026". */
function ctime(ms: number): string {
  const d = new Date(ms);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const mons = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p = (n: number) => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]} ${mons[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2)} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} ${d.getUTCFullYear()}`;
}

/** Run the command once with stdout and stderr into a pipe: its output and exit status. */
function runOnce(os: AgentosApi, o: Opts, cmd: string[]): { text: string; status: number } {
  const env = Object.entries(os.env).map(([k, v]) => `${k}=${v}`);
  const [r, w] = os.sys.pipe();
  let pid: number;
  try {
    const fds: [number, number][] = [[0, 0], [1, w], [2, w]];
    pid = o.exec
      ? walkPath(cmd[0], env, (path) => os.sys.spawn({ path, argv: cmd, env, fds }))
      : os.sys.spawn({ path: '/bin/sh', argv: ['sh', '-c', cmd.join(' ')], env, fds });
  } catch (e) {
    os.sys.close(r);
    os.sys.close(w);
    if (!(e instanceof os.SysError)) throw e;
    return { text: `watch: ${cmd[0]}: ${e.message}\n`, status: 127 };
  }
  os.sys.close(w);
  const parts: Uint8Array[] = [];
  try {
    for (let b = restart(os, () => os.sys.read(r)); b.byteLength; b = restart(os, () => os.sys.read(r))) parts.push(b);
  } finally {
    os.sys.close(r);
  }
  const [, st] = restart(os, () => os.sys.waitpid(pid));
  return { text: dec.decode(concatBytes(parts)), status: shellStatus(st) };
}

/** A call a caught signal interrupted is made again (SA_RESTART): Ctrl-C ends watch after the run, not inside it. */
function restart<T>(os: AgentosApi, call: () => T): T {
  for (;;) {
    try {
      return call();
    } catch (e) {
      if (!(e instanceof os.SysError) || e.errno !== Errno.EINTR) throw e;
    }
  }
}

function run(os: AgentosApi): number {
  const p = parse(os, os.argv.slice(1));
  if (typeof p === 'number') return p;
  const { o, cmd } = p;
  const tty = os.sys.isatty(1);
  let stop = 0;
  let resized = false;
  for (const sig of [SIGINT, SIGTERM, SIGHUP]) os.signal(sig, (s) => (stop = s));
  os.signal(SIGWINCH, () => (resized = true));
  const write = (s: string) => os.sys.writeAll(1, enc.encode(s));
  const host = os.sys.uname().nodename;
  const head = `Every ${o.interval.toFixed(1)}s: ${cmd.join(' ')}`;
  if (tty) write('\x1b[?1049h\x1b[?25l');
  let prev: string[] | null = null;
  let first: string[] | null = null;
  let status = 0;
  try {
    for (;;) {
      const started = Date.now();
      const res = runOnce(os, o, cmd);
      const lines = res.text.replace(/\n$/, '').split('\n');
      if (tty) {
        if (resized) resized = false;
        const size = winsize(os.sys, 1) ?? { rows: 24, cols: 80 };
        draw(write, o, size, head, `${host}: ${ctime(Date.now())}`, lines, o.permanent ? first : prev);
      } else {
        if (o.title) write(`${head}\t${host}: ${ctime(Date.now())}\n\n`);
        write(res.text);
      }
      if (o.beep && res.status !== 0) write('\x07');
      if (o.errexit && res.status !== 0) {
        status = res.status;
        throw new Stop(status);
      }
      if (o.chgexit && prev && lines.join('\n') !== prev.join('\n')) throw new Stop(0);
      prev = lines;
      first ??= lines;
      if (stop) throw new Stop(0);
      const wait = o.precise ? Math.max(0, o.interval * 1000 - (Date.now() - started)) : o.interval * 1000;
      try {
        os.sys.sleep(wait);
      } catch (e) {
        if (!(e instanceof os.SysError)) throw e;
      }
      if (stop) throw new Stop(0);
    }
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    status = e.status;
  } finally {
    if (tty) write('\x1b[?25h\x1b[?1049l');
  }
  return status;
}

/** One screen: the title (host and time at the right), a blank line, the output cut to fit; -d marks changed characters. The terminal turns each newline into CR LF. */
function draw(write: (s: string) => void, o: Opts, size: { rows: number; cols: number }, head: string, right: string, lines: string[], before: string[] | null): void {
  let out = '\x1b[H\x1b[2J';
  let row = 0;
  if (o.title) {
    const gap = size.cols - head.length - right.length;
    out += gap >= 1 ? head + ' '.repeat(gap) + right : head.slice(0, size.cols);
    out += '\n\n';
    row = 2;
  }
  const fit = (ls: string[]): string[] => ls.flatMap((l) => {
    if (!o.wrap) return [l.slice(0, size.cols)];
    const parts: string[] = [];
    for (let i = 0; i < Math.max(l.length, 1); i += size.cols) parts.push(l.slice(i, i + size.cols));
    return parts;
  });
  const shown = fit(lines);
  const was = before ? fit(before) : null;
  for (let i = 0; i < shown.length && row < size.rows; i++, row++) {
    const l = shown[i];
    const old = was?.[i] ?? '';
    if (!o.differences || !before) out += l;
    else for (let k = 0; k < l.length; k++) out += l[k] !== old[k] ? `\x1b[7m${l[k]}\x1b[0m` : l[k];
    if (row < size.rows - 1) out += '\n';
  }
  write(out);
}

// killall [OPTION]... [--] NAME...   Kill processes by name (psmisc 23.6
// compatible): SIGTERM or -s/-SIGNAL to every process whose command name is
// NAME (the first 15 characters, or the whole name with -e; a NAME with '/'
// matches the program's path), never to killall itself. -w waits for them to
// die. Exit 0 if every NAME killed something, 1 otherwise.

import { SysError, strerror } from '../../../abi/errno.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import type { Cmd } from '../../../userland/lib/index.js';
import { readProcs, type Proc } from './proc.js';
import { listText, parseSignal } from './signals.js';
import { simpleCommand } from './run.js';

const USAGE = `Usage: killall [OPTION]... [--] NAME...
       killall -l, --list
       killall -V, --version

  -e,--exact          require exact match for very long names
  -I,--ignore-case    case insensitive process name match
  -g,--process-group  kill process group instead of process
  -y,--younger-than   kill processes younger than TIME
  -o,--older-than     kill processes older than TIME
  -i,--interactive    ask for confirmation before killing
  -l,--list           list all known signal names
  -q,--quiet          don't print complaints
  -r,--regexp         interpret NAME as an extended regular expression
  -s,--signal SIGNAL  send this signal instead of SIGTERM
  -u,--user USER      kill only process(es) running as USER
  -v,--verbose        report if the signal was successfully sent
  -V,--version        display version information
  -w,--wait           wait for processes to die
  -n,--ns PID         match processes that belong to the same namespaces
                      as PID
  -Z,--context REGEXP kill only process(es) having context
                      (must precede other arguments)

`;

/** The kernel's comm is the program name cut to 15 characters (TASK_COMM_LEN - 1). */
const COMM_LEN = 15;

interface Opts {
  exact: boolean;
  icase: boolean;
  group: boolean;
  interactive: boolean;
  quiet: boolean;
  regexp: boolean;
  verbose: boolean;
  wait: boolean;
  sig: number;
  user: number | null;
  younger: number | null;
  older: number | null;
}

/** 5s, 2m, 1h, 1d, 1w, 1M, 1y → seconds. */
function parseTime(s: string): number | null {
  const m = /^(\d+(?:\.\d+)?)([smhdwMy]?)$/.exec(s);
  if (!m) return null;
  const unit: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86400, w: 604800, M: 2629800, y: 31557600 };
  return Number(m[1]) * unit[m[2]];
}

function uidOf(c: Cmd, name: string): number | null {
  if (/^\d+$/.test(name)) return Number(name);
  for (const line of new TextDecoder().decode(c.sys.readFile('/etc/passwd')).split('\n')) {
    const f = line.split(':');
    if (f[0] === name) return Number(f[2]);
  }
  return null;
}

function matches(o: Opts, p: Proc, name: string): boolean {
  const argv0 = p.argv[0] ?? '';
  if (o.regexp) return new RegExp(name, o.icase ? 'i' : '').test(p.comm);
  const eq = (a: string, b: string) => (o.icase ? a.toLowerCase() === b.toLowerCase() : a === b);
  if (name.includes('/')) return eq(argv0, name);
  const base = argv0.slice(argv0.lastIndexOf('/') + 1);
  if (name.length > COMM_LEN && p.comm.length >= COMM_LEN) {
    // A long name: the full program name must match (with -e, or when it is known).
    return eq(base, name) || (!o.exact && eq(p.comm, name.slice(0, COMM_LEN)));
  }
  return eq(p.comm, name) || eq(base, name);
}

export default function main(os: AgentosApi): void {
  os.exit(simpleCommand(os, 'killall', USAGE, (c) => run(c, c.operands)));
}

function run(c: Cmd, args: string[]): number {
  const o: Opts = { exact: false, icase: false, group: false, interactive: false, quiet: false, regexp: false, verbose: false, wait: false, sig: 15, user: null, younger: null, older: null };
  const names: string[] = [];
  const bad = (msg: string): number => {
    c.out.flush();
    c.sys.writeAll(2, `${msg}\n${USAGE}`);
    return 1;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      names.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      names.push(a);
      continue;
    }
    const value = (inline: string): string | null => (inline !== '' ? inline : i + 1 < args.length ? args[++i] : null);
    if (a.startsWith('--')) {
      const [n, v] = a.slice(2).split(/=(.*)/s);
      const long: Record<string, string> = {
        exact: 'e', 'ignore-case': 'I', 'process-group': 'g', 'younger-than': 'y', 'older-than': 'o', interactive: 'i',
        list: 'l', quiet: 'q', regexp: 'r', signal: 's', user: 'u', verbose: 'v', version: 'V', wait: 'w', ns: 'n',
      };
      const k = long[n];
      if (!k) return bad(`killall: unrecognized option '${a}'`);
      if ('syoun'.includes(k)) {
        const val = v ?? (i + 1 < args.length ? args[++i] : null);
        if (val === null) return bad(`killall: option '--${n}' requires an argument`);
        const r = setOpt(c, o, k, val);
        if (r !== null) return r;
      } else {
        const r = setOpt(c, o, k, '');
        if (r !== null) return r;
      }
      continue;
    }
    // -SIGNAL: a signal name or number given as an option.
    const sig = parseSignal(a.slice(1));
    if (sig !== undefined && !/^-[egiqrvwlIV]+$/.test(a)) {
      o.sig = sig;
      continue;
    }
    for (let k = 1; k < a.length; k++) {
      const ch = a[k];
      if ('syoun'.includes(ch)) {
        const val = value(a.slice(k + 1));
        if (val === null) return bad(`killall: option requires an argument -- '${ch}'`);
        const r = setOpt(c, o, ch, val);
        if (r !== null) return r;
        break;
      }
      if (!'egiqrvwlIVZ'.includes(ch)) return bad(`killall: invalid option -- '${ch}'`);
      const r = setOpt(c, o, ch, '');
      if (r !== null) return r;
    }
  }
  if (names.length === 0) {
    c.out.flush();
    c.sys.writeAll(2, USAGE);
    return 1;
  }
  return kill(c, o, names);
}

/** Apply one option; a status to exit with, or null to go on. */
function setOpt(c: Cmd, o: Opts, k: string, v: string): number | null {
  switch (k) {
    case 'e': o.exact = true; break;
    case 'I': o.icase = true; break;
    case 'g': o.group = true; break;
    case 'i': o.interactive = true; break;
    case 'q': o.quiet = true; break;
    case 'r': o.regexp = true; break;
    case 'v': o.verbose = true; break;
    case 'w': o.wait = true; break;
    case 'l': c.out.write(listText()); return 0;
    case 'V': c.out.write('killall (agentOS psmisc) 23.6\n'); return 0;
    case 's': {
      const s = parseSignal(v);
      if (s === undefined) {
        c.out.flush();
        c.sys.writeAll(2, `${v}: unknown signal; killall -l lists signals.\n`);
        return 1;
      }
      o.sig = s;
      break;
    }
    case 'u': {
      const uid = uidOf(c, v);
      if (uid === null) {
        c.out.flush();
        c.sys.writeAll(2, `Cannot find user ${v}\n`);
        return 1;
      }
      o.user = uid;
      break;
    }
    case 'y': case 'o': {
      const t = parseTime(v);
      if (t === null) {
        c.out.flush();
        c.sys.writeAll(2, `killall: unknown time: ${v}\n`);
        return 1;
      }
      if (k === 'y') o.younger = t;
      else o.older = t;
      break;
    }
  }
  return null;
}

function kill(c: Cmd, o: Opts, names: string[]): number {
  const self = c.sys.getpid();
  const procs = readProcs(c.sys).filter((p) => p.pid !== self && p.state !== 'Z');
  const now = Date.now();
  let status = 0;
  const killed: number[] = [];
  const groupsDone = new Set<number>();
  for (const name of names) {
    let found = 0;
    for (const p of procs) {
      if (!matches(o, p, name)) continue;
      if (o.user !== null && p.uid !== o.user) continue;
      const age = (now - p.startMs) / 1000;
      if (o.younger !== null && age >= o.younger) continue;
      if (o.older !== null && age <= o.older) continue;
      if (o.group && groupsDone.has(p.pgid)) continue;
      if (o.interactive && !confirm(c, `Kill ${p.comm}(${o.group ? p.pgid : p.pid}) ? (y/N) `)) continue;
      try {
        c.sys.kill(o.group ? -p.pgid : p.pid, o.sig);
        found++;
        killed.push(p.pid);
        if (o.group) groupsDone.add(p.pgid);
        if (o.verbose) c.out.write(`Killed ${p.comm}(${o.group ? p.pgid : p.pid}) with signal ${o.sig}\n`);
      } catch (e) {
        if (!(e instanceof SysError)) throw e;
        if (!o.quiet) c.warn(`${p.comm}(${p.pid}): ${strerror(e.errno)}`);
      }
    }
    if (found === 0) {
      status = 1;
      if (!o.quiet) {
        c.out.flush();
        c.sys.writeAll(2, `${name}: no process found\n`);
      }
    }
  }
  if (o.wait) waitGone(c, killed);
  return status;
}

function confirm(c: Cmd, prompt: string): boolean {
  c.out.flush();
  c.sys.writeAll(2, prompt);
  const answer = new TextDecoder().decode(c.sys.read(0, 256));
  return /^[yY]/.test(answer);
}

/** -w: poll until none of the killed processes is left (as psmisc does, every few ms). */
function waitGone(c: Cmd, pids: number[]): void {
  let left = pids;
  while (left.length) {
    left = left.filter((pid) => {
      try {
        c.sys.kill(pid, 0);
        const st = new TextDecoder().decode(c.sys.readFile(`/proc/${pid}/stat`));
        return !/\) Z /.test(st);
      } catch {
        return false;
      }
    });
    if (left.length) c.sys.sleep(20);
  }
}

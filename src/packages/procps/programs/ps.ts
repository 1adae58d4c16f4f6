// ps [OPTION]...
// Report a snapshot of the processes, reading /proc only. Unix options
// (-e -A -f -p -o -u -C), BSD letters (a u x, as in `ps aux`) and GNU long
// options as procps-ng accepts them.

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { Exit, users, type Cmd } from '../../../userland/lib/index.js';
import { COLUMNS, FORMATS, render, type Column, type Ctx } from './ps-columns.js';
import { memTotalKiB, readProcs, type Proc } from './proc.js';
import { simpleCommand } from './run.js';

const USAGE = `
Usage:
 ps [options]

Basic options:
 -A, -e               all processes
 a                    all with tty, including other users
 x                    processes without controlling ttys
 -p, p, --pid <PID>   process id list
 -u, U, --user <UID>  effective user id or name
 -C <command>         command name

Output formats:
 -f                   full-format, including command lines
 u                    user-oriented format
 -o, o, --format <format>
                      user-defined format (name=HEADER renames a column)
 --no-headers         do not print header at all
 -w, w                unlimited output width (always on)

 --help               display this help and exit
 -V, --version        output version information and exit

agentOS: everything comes from /proc. CPU time, %CPU, VSZ and RSS are not
tracked and show as 0; no process has a controlling terminal, so TTY is "?".
Command lines leave out the JavaScript runtime that runs agentOS programs.

For more details see ps(1).
`;

interface Sel {
  all: boolean;
  bsdAll: boolean;
  bsdX: boolean;
  pids: number[];
  users: string[];
  comms: string[];
}

interface Opts {
  sel: Sel;
  format: string[];
  full: boolean;
  bsdUser: boolean;
  bsd: boolean;
  headers: boolean;
}

const list = (v: string): string[] => v.split(/[,\s]+/).filter(Boolean);

/** Parse procps' mixed syntax; a trailing value comes attached or as the next argument. */
function parse(c: Cmd, args: string[]): Opts {
  const o: Opts = {
    sel: { all: false, bsdAll: false, bsdX: false, pids: [], users: [], comms: [] },
    format: [], full: false, bsdUser: false, bsd: false, headers: true,
  };
  const value = (rest: string, i: { n: number }, what: string): string => {
    if (rest) return rest;
    if (i.n + 1 >= args.length) c.usage(`error: ${what} requires an argument`);
    return args[++i.n];
  };
  const pids = (v: string): void => {
    for (const s of list(v)) {
      if (!/^\d+$/.test(s)) c.usage('error: process ID list syntax error');
      o.sel.pids.push(Number(s));
    }
  };
  for (const i = { n: 0 }; i.n < args.length; i.n++) {
    const a = args[i.n];
    if (a.startsWith('--')) {
      const [name, eq] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, ''];
      if (name === '--no-headers' || name === '--no-heading') o.headers = false;
      else if (name === '--pid') pids(value(eq, i, '--pid'));
      else if (name === '--user') o.sel.users.push(...list(value(eq, i, '--user')));
      else if (name === '--format') o.format.push(value(eq, i, '--format'));
      else if (name === '--ppid' || name === '--sort' || name === '--cols' || name === '--width') value(eq, i, name);
      else c.usage(`error: unknown gnu long option`);
      continue;
    }
    const unix = a.startsWith('-');
    for (let j = unix ? 1 : 0; j < a.length; j++) {
      const ch = a[j];
      const rest = a.slice(j + 1);
      if (unix && (ch === 'e' || ch === 'A')) o.sel.all = true;
      else if (unix && ch === 'f') o.full = true;
      else if (ch === 'p') {
        pids(value(rest, i, '-p'));
        break;
      } else if (ch === 'o' || ch === 'O') {
        o.format.push(value(rest, i, '-o'));
        break;
      } else if (ch === 'u' && unix) {
        o.sel.users.push(...list(value(rest, i, '-u')));
        break;
      } else if (ch === 'U' && !unix) {
        o.sel.users.push(...list(value(rest, i, 'U')));
        break;
      } else if (ch === 'C' && unix) {
        o.sel.comms.push(...list(value(rest, i, '-C')));
        break;
      } else if (ch === 'V' && unix) {
        c.out.write('ps from procps-ng 4.0.2 (agentOS)\n');
        throw new Exit(0);
      } else if (ch === 'w' || ch === 'l' || ch === 'H') continue;
      else if (!unix && 'axue'.includes(ch)) {
        o.bsd = true;
        if (ch === 'a') o.sel.bsdAll = true;
        if (ch === 'x') o.sel.bsdX = true;
        if (ch === 'u') o.bsdUser = true;
      } else c.usage(`error: unsupported option (BSD syntax)`);
    }
  }
  return o;
}

function selected(o: Opts, p: Proc, c: Cmd): boolean {
  const s = o.sel;
  const picks = s.pids.length || s.users.length || s.comms.length;
  if (s.all || (s.bsdAll && s.bsdX)) return true;
  if (s.pids.includes(p.pid) || s.comms.includes(p.comm)) return true;
  if (s.users.length) {
    const names = users(c.sys);
    return s.users.some((u) => (/^\d+$/.test(u) ? Number(u) === p.uid : names.find((e) => e.name === u)?.id === p.uid));
  }
  if (picks) return false;
  // Default: this user's processes (BSD a: every user); BSD x drops the tty test, and no process has a tty here.
  return s.bsdAll || p.uid === c.sys.getuid();
}

/** The key of a format item ("pid" or "pid=HEAD"), if it names a column. */
const keyOf = (item: string): string | undefined => {
  const k = item.split('=')[0].toLowerCase();
  return k in COLUMNS ? k : undefined;
};

/** "-o a,b=HEAD,c": a header runs on over commas until the next item naming a column (procps). */
function columns(c: Cmd, specs: string[]): Column[] {
  const out: Column[] = [];
  for (const spec of specs) {
    const items = spec.split(/[,\s]+/).filter(Boolean);
    for (let i = 0; i < items.length; i++) {
      const key = keyOf(items[i]);
      if (!key) c.usage(`error: unknown user-defined format specifier "${items[i]}"`);
      const eq = items[i].indexOf('=');
      if (eq < 0) {
        out.push(COLUMNS[key]);
        continue;
      }
      let header = items[i].slice(eq + 1);
      while (i + 1 < items.length && !keyOf(items[i + 1])) header += `,${items[++i]}`;
      out.push({ ...COLUMNS[key], header, width: Math.max(COLUMNS[key].width, header.length) });
    }
  }
  return out;
}

function ps(c: Cmd): number {
  const o = parse(c, c.operands);
  const fmt = o.format.length ? o.format : o.bsdUser ? FORMATS.user : o.full ? FORMATS.full : o.bsd ? FORMATS.bsd : FORMATS.plain;
  const cols = columns(c, fmt);
  const ctx: Ctx = { sys: c.sys, now: Date.now(), memKiB: memTotalKiB(c.sys) };
  const procs = readProcs(c.sys).filter((p) => selected(o, p, c));
  const rows = procs.map((p) => cols.map((col) => col.get(p, ctx)));
  const showHead = o.headers && cols.some((col) => col.header !== '');
  const lines = render(cols, showHead ? [cols.map((col) => col.header), ...rows] : rows);
  for (const l of lines) c.out.write(`${l}\n`);
  return procs.length ? 0 : 1;
}

export default function main(os: AgentosApi): void {
  os.exit(simpleCommand(os, 'ps', USAGE, ps));
}

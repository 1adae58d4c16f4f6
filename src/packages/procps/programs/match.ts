// Process selection shared by pgrep and pkill: an extended regular expression
// on the name (or, with -f, the full command line) plus id filters. The
// calling program never selects itself.

import { users, groups, type Cmd, type OptSpec } from '../../../userland/lib/index.js';
import { commandLine, readProcs, type Proc } from './proc.js';

export const MATCH_SPEC: OptSpec = {
  short: 'd:laAvwcfg:G:inoO:P:s:t:u:U:xF:Lr:eq',
  long: {
    delimiter: ['d', 'required'], 'list-name': ['l', 'none'], 'list-full': ['a', 'none'],
    inverse: ['v', 'none'], lightweight: ['w', 'none'], count: ['c', 'none'], full: ['f', 'none'],
    pgroup: ['g', 'required'], group: ['G', 'required'], 'ignore-case': ['i', 'none'],
    newest: ['n', 'none'], oldest: ['o', 'none'], older: ['O', 'required'], parent: ['P', 'required'],
    session: ['s', 'required'], terminal: ['t', 'required'], euid: ['u', 'required'], uid: ['U', 'required'],
    exact: ['x', 'none'], pidfile: ['F', 'required'], logpidfile: ['L', 'none'], runstates: ['r', 'required'],
    echo: ['e', 'none'], signal: ['signal', 'required'], 'ignore-ancestors': ['A', 'none'],
  },
};

/** The --help lines pgrep and pkill share, from -c on. */
export const MATCH_USAGE = ` -c, --count               count of matching processes
 -f, --full                use full process name to match
 -g, --pgroup <PGID,...>   match listed process group IDs
 -G, --group <GID,...>     match real group IDs
 -i, --ignore-case         match case insensitively
 -n, --newest              select most recently started
 -o, --oldest              select least recently started
 -P, --parent <PPID,...>   match only child processes of the given parent
 -s, --session <SID,...>   match session IDs
 -t, --terminal <tty,...>  match by controlling terminal
 -u, --euid <ID,...>       match by effective IDs
 -U, --uid <ID,...>        match by real IDs
 -x, --exact               match exactly with the command name
 -r, --runstates <state>   match runstates [D,S,Z,...]

 -h, --help     display this help and exit
 -V, --version  output version information and exit

For more details see pgrep(1).
`;

const ids = (c: Cmd, key: string, resolve?: (s: string) => number | undefined): number[] | null => {
  const v = c.get(key);
  if (v === undefined) return null;
  return v.split(',').map((s) => {
    if (/^\d+$/.test(s)) return Number(s);
    const n = resolve?.(s);
    if (n === undefined) c.usage(`invalid ${key === 'u' || key === 'U' ? 'user' : key === 'G' ? 'group' : 'argument'} name: ${s}`);
    return n;
  });
};

/** The processes the options and pattern select, oldest first. */
export function selectProcs(c: Cmd): Proc[] {
  const pattern = c.operands[0];
  if (c.operands.length > 1) c.usage(`only one pattern can be provided`);
  const uidOf = (s: string) => users(c.sys).find((u) => u.name === s)?.id;
  const filters: [number[] | null, (p: Proc) => number][] = [
    [ids(c, 'u', uidOf), (p) => p.uid],
    [ids(c, 'U', uidOf), (p) => p.uid],
    [ids(c, 'G', (s) => groups(c.sys).find((g) => g.name === s)?.id), (p) => p.gid],
    [ids(c, 'P'), (p) => p.ppid],
    [ids(c, 'g')?.map((g) => g || c.sys.getpgid()) ?? null, (p) => p.pgid],
    [ids(c, 's')?.map((s) => s || c.sys.getsid()) ?? null, (p) => p.sid],
  ];
  const states = c.get('r');
  if (pattern === undefined && !filters.some(([l]) => l) && !states && !c.has('t')) {
    c.warn('no matching criteria specified');
    c.sys.writeAll(2, `Try \`${c.name} --help' for more information.\n`);
    c.exit(2);
  }
  let re: RegExp | null = null;
  if (pattern !== undefined) {
    try {
      const src = c.has('x') ? `^(?:${pattern})$` : pattern;
      re = new RegExp(src, c.has('i') ? 'i' : '');
    } catch (e) {
      c.warn(`regex error: ${(e as Error).message}`);
      c.exit(2);
    }
  }
  const self = c.sys.getpid();
  const hit = (p: Proc): boolean => {
    if (filters.some(([l, f]) => l && !l.includes(f(p)))) return false;
    if (states && !states.split(',').includes(p.state)) return false;
    if (c.has('t') && p.tty === 0) return false;
    if (!re) return true;
    const text = c.has('f') ? commandLine(p).replace(/^\[(.*)\]$/, '$1') : p.comm;
    return re.test(text);
  };
  let out = readProcs(c.sys).filter((p) => p.pid !== self && hit(p) !== c.has('v'));
  out.sort((a, b) => a.startMs - b.startMs || a.pid - b.pid);
  if (c.has('n')) out = out.slice(-1);
  else if (c.has('o')) out = out.slice(0, 1);
  return out.sort((a, b) => a.pid - b.pid);
}

// pgrep [OPTION]... PATTERN
// List the ids of processes whose name (with -f, whole command line) matches
// the extended regular expression PATTERN. Exit 0 if any matched, 1 if none,
// 2 for a usage error.

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { command } from '../../../userland/lib/index.js';
import { commandLine } from './proc.js';
import { MATCH_SPEC, selectProcs } from './match.js';

const USAGE = `
Usage:
 pgrep [options] <pattern>

Options:
 -d, --delimiter <string>  specify output delimiter
 -l, --list-name           list PID and process name
 -a, --list-full           list PID and full command line
 -v, --inverse             negates the matching
 -c, --count               count of matching processes
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

const pgrep = command({ name: 'pgrep', usage: USAGE, failStatus: 2, ...MATCH_SPEC }, (c) => {
  const procs = selectProcs(c);
  if (c.has('c')) {
    c.out.write(`${procs.length}\n`);
    return procs.length ? 0 : 1;
  }
  const items = procs.map((p) => {
    if (c.has('a')) return `${p.pid} ${commandLine(p).replace(/^\[(.*)\]$/, '$1')}`;
    return c.has('l') ? `${p.pid} ${p.comm}` : String(p.pid);
  });
  if (items.length) c.out.write(`${items.join(c.get('d') ?? '\n')}\n`);
  return items.length ? 0 : 1;
});

export default function main(os: AgentosApi): void {
  os.exit(pgrep(os, os.argv.slice(1)));
}

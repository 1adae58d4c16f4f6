// pgrep [OPTION]... PATTERN
// List the ids of processes whose name (with -f, whole command line) matches
// the extended regular expression PATTERN. Exit 0 if any matched, 1 if none,
// 2 for a usage error.

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { command } from '../../../userland/lib/index.js';
import { commandLine } from './proc.js';
import { MATCH_SPEC, MATCH_USAGE, selectProcs } from './match.js';

const USAGE = `
Usage:
 pgrep [options] <pattern>

Options:
 -d, --delimiter <string>  specify output delimiter
 -l, --list-name           list PID and process name
 -a, --list-full           list PID and full command line
 -v, --inverse             negates the matching
${MATCH_USAGE}`;

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

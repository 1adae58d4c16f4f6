// uptime [-p] [-s]
// Tell how long the system has been running, from /proc/uptime and
// /proc/loadavg. agentOS keeps no login records (0 users) and does not sample
// load (the averages are 0.00).

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { command } from '../../../userland/lib/index.js';
import { bootMs, uptimeSeconds } from './proc.js';
import { prettyUp, sinceText, uptimeLine } from './timefmt.js';

const USAGE = `
Usage:
 uptime [options]

Options:
 -p, --pretty      show uptime in pretty format
 -h, --help        display this help and exit
 -s, --since       system up since
 -V, --version     output version information and exit

For more details see uptime(1).
`;

const uptime = command(
  {
    name: 'uptime',
    usage: USAGE,
    short: 'cprsVh',
    long: { container: ['c', 'none'], pretty: ['p', 'none'], raw: ['r', 'none'], since: ['s', 'none'] },
  },
  (c) => {
    if (c.has('h')) return void c.out.write(USAGE);
    if (c.has('V')) return void c.out.write('uptime from procps-ng 4.0.2 (agentOS)\n');
    if (c.operands.length) c.usage('extra operand');
    if (c.has('s')) c.out.write(`${sinceText(bootMs(c.sys))}\n`);
    else if (c.has('p')) c.out.write(`${prettyUp(uptimeSeconds(c.sys))}\n`);
    else c.out.write(`${uptimeLine(c.sys)}\n`);
  },
);

export default function main(os: AgentosApi): void {
  os.exit(uptime(os, os.argv.slice(1)));
}

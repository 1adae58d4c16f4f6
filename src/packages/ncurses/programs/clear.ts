// clear [-x] [-T TERM] [-V]: clear the screen (and the scrollback unless -x),
// from the terminal's terminfo entry.

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { command, parseArgs, UsageError, type Cmd } from '../../../userland/lib/index.js';
import { bytes, entry, NCURSES_VERSION, unpad } from './term.js';

const USAGE = `Usage: clear [options]

Options:
  -T TERM     use this instead of $TERM
  -V          print curses-version
  -x          do not try to clear scrollback
`;

const usageError = (c: Cmd, msg: string | null): number => {
  c.out.flush();
  c.sys.writeAll(2, `${msg ? `clear: ${msg}\n` : ''}${USAGE}`);
  return 1;
};

const clear = command({ name: 'clear', usage: USAGE, rawArgs: true }, (c) => {
  // ncurses parses short options only: "--help" is an invalid option '-'.
  if (c.operands.some((a) => a.startsWith('--') && a !== '--')) return usageError(c, "invalid option -- '-'");
  let p;
  try {
    p = parseArgs(c.operands, { short: 'T:Vx' });
  } catch (e) {
    if (e instanceof UsageError) return usageError(c, e.message);
    throw e;
  }
  if (p.operands.length) return usageError(c, null);
  if (p.list.some(([k]) => k === 'V')) return void c.out.write(`${NCURSES_VERSION}\n`);
  const name = p.list.filter(([k]) => k === 'T').pop()?.[1] ?? c.os.env.TERM;
  if (name === undefined || name === '') {
    c.sys.writeAll(2, 'TERM environment variable not set.\n');
    return 1;
  }
  const e = entry(name);
  if (!e) {
    c.sys.writeAll(2, `'${name}': unknown terminal type.\n`);
    return 1;
  }
  const s = e.strs.clear;
  if (s === undefined) return 1;
  const scrollback = p.list.some(([k]) => k === 'x') ? '' : (e.strs.E3 ?? '');
  c.out.write(bytes(unpad(s + scrollback)));
});

export default function main(os: AgentosApi): void {
  os.exit(clear(os, os.argv.slice(1)));
}

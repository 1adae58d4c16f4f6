// tput [-x] [-T TERM] [-S] CAPNAME [PARAM]... [CAPNAME [PARAM]...]...: print
// terminal capabilities from the built-in terminfo entries (ncurses 6 rules:
// each string capability takes as many following arguments as it has
// parameters; booleans answer by exit status; numbers are printed).

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { command, lines, parseArgs, tcgetattr, UsageError, type Cmd } from '../../../userland/lib/index.js';
import { analyze, bytes, capType, entry, NCURSES_VERSION, screenSize, tparm, unpad } from './term.js';
import type { TermEntry } from './terminfo.js';

const USAGE = `Usage: tput [options] [command]

Options:
  -S <<       read commands from standard input
  -T TERM     use this instead of $TERM
  -V          print curses-version
  -x          do not try to clear scrollback

Commands:
  clear       clear the screen
  init        initialize the terminal
  reset       reinitialize the terminal
  capname     unlike clear/init/reset, print value for capability "capname"
`;

const usageError = (c: Cmd, msg: string | null): number => {
  c.out.flush();
  c.sys.writeAll(2, `${msg ? `tput: ${msg}\n` : ''}${USAGE}`);
  return 2;
};

const tput = command({ name: 'tput', usage: USAGE, rawArgs: true }, (c) => {
  // ncurses parses short options only: "--help" is an invalid option '-'.
  if (c.operands.some((a) => a.startsWith('--') && a !== '--')) return usageError(c, "invalid option -- '-'");
  let p;
  try {
    p = parseArgs(c.operands, { short: 'ST:Vx' });
  } catch (e) {
    if (e instanceof UsageError) return usageError(c, e.message);
    throw e;
  }
  const has = (k: string) => p.list.some(([key]) => key === k);
  if (has('V')) return void c.out.write(`${NCURSES_VERSION}\n`);
  const name = p.list.filter(([k]) => k === 'T').pop()?.[1] ?? c.os.env.TERM;
  if (name === undefined || name === '') {
    c.warn('No value for $TERM and no -T specified');
    return 2;
  }
  if (!has('S') && p.operands.length === 0) return usageError(c, null);
  const e = entry(name);
  if (!e) {
    c.warn(`unknown terminal "${name}"`);
    return 3;
  }
  const noScrollback = has('x');
  if (!has('S')) return run(c, e, p.operands, noScrollback);
  let status = 0;
  for (const line of lines(c.sys, 0)) {
    const words = new TextDecoder().decode(line).trim().split(/\s+/).filter(Boolean);
    if (words.length) status = run(c, e, words, noScrollback) || status;
  }
  return status;
});

/** Run the capabilities of one command line; the status of the first that fails, else 0. */
function run(c: Cmd, e: TermEntry, args: string[], noScrollback: boolean): number {
  for (let i = 0; i < args.length; ) {
    const cap = args[i++];
    if (cap === 'clear') {
      const s = e.strs.clear;
      if (s === undefined) return 2;
      c.out.write(bytes(unpad(s + (!noScrollback && e.strs.E3 ? e.strs.E3 : ''))));
      continue;
    }
    if (cap === 'init' || cap === 'reset') {
      const st = initialise(c, e, cap);
      if (st) return st;
      continue;
    }
    if (cap === 'longname') {
      c.out.write(e.names.slice(e.names.lastIndexOf('|') + 1));
      continue;
    }
    const type = capType(e, cap);
    if (type === null) {
      c.warn(`unknown terminfo capability '${cap}'`);
      return 4;
    }
    if (type === 'bool') {
      if (!e.bools.includes(cap)) return 1;
      continue;
    }
    if (type === 'num') {
      const size = cap === 'lines' || cap === 'cols' ? screenSize(c, e) : null;
      c.out.write(`${size ? size[cap as 'lines' | 'cols'] : (e.nums[cap] ?? -1)}\n`);
      continue;
    }
    const s = e.strs[cap];
    if (s === undefined) return 1;
    const { count, strings } = analyze(s);
    const given = args.slice(i, i + count);
    i += given.length;
    // With no arguments the string is printed as it is, parameters and all.
    const params = given.map((a, k) => (strings.has(k + 1) ? a : integer(a)));
    c.out.write(bytes(unpad(given.length ? tparm(s, params) : s)));
  }
  return 0;
}

/** strtol(s, 0, 0), where anything left over makes it 0. */
function integer(s: string): number {
  const m = /^\s*([-+]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)$/.exec(s);
  if (!m) return 0;
  const v = m[2].startsWith('0x') || m[2].startsWith('0X') ? parseInt(m[2], 16) : m[2].startsWith('0') ? parseInt(m[2], 8) : Number(m[2]);
  return m[1] === '-' ? -v : v;
}

/** init/reset need the terminal's modes; then the initialisation strings go out. */
function initialise(c: Cmd, e: TermEntry, which: 'init' | 'reset'): number {
  try {
    tcgetattr(c.sys, 1);
  } catch (err) {
    if (!(err instanceof c.os.SysError)) throw err;
    c.warn('terminal attributes: No such device or address\n');
    return 10;
  }
  const keys = which === 'init' ? ['is1', 'is2', 'is3'] : ['rs1', 'rs2', 'rs3'];
  for (const [k, fallback] of keys.map((k) => [k, `is${k.slice(2)}`])) {
    const s = e.strs[k] ?? e.strs[fallback];
    if (s !== undefined) c.out.write(bytes(unpad(s)));
  }
  return 0;
}

export default function main(os: AgentosApi): void {
  os.exit(tput(os, os.argv.slice(1)));
}

// xargs [OPTION]... COMMAND [INITIAL-ARGS]...
// Build and run command lines from standard input. GNU xargs is the
// specification. -P is accepted but commands run one at a time: the outputs
// are those of a sequential run (GNU's -P N may interleave them).

import { decodeBytes } from '../../../abi/bytestr.js';
import { strerror, Errno } from '../../../abi/errno.js';
import { O_RDONLY } from '../../../abi/fcntl.js';
import { WEXITSTATUS, WIFEXITED, WTERMSIG } from '../../../abi/wait.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { command, quote, type Cmd } from '../../../userland/lib/index.js';
import { envList, runCommand } from './spawn.js';
import { InputError, parseDelim, readAllText, splitDelim, splitWords, type Item } from './xargs-input.js';

const USAGE = `Usage: xargs [OPTION]... COMMAND [INITIAL-ARGS]...
Run COMMAND with arguments INITIAL-ARGS and more arguments read from input.

Mandatory and optional arguments to long options are also
mandatory or optional for the corresponding short option.
  -0, --null                   items are separated by a null, not whitespace;
                                 disables quote and backslash processing and
                                 logical EOF processing
  -a, --arg-file=FILE          read arguments from FILE, not standard input
  -d, --delimiter=CHARACTER    items in input stream are separated by CHARACTER,
                                 not by whitespace; disables quote and backslash
                                 processing and logical EOF processing
  -E END                       set logical EOF string; if END occurs as a line
                                 of input, the rest of the input is ignored
                                 (ignored if -0 or -d was specified)
  -e, --eof[=END]              equivalent to -E END if END is specified;
                                 otherwise, there is no end-of-file string
  -I R                         same as --replace=R
  -i, --replace[=R]            replace R in INITIAL-ARGS with names read
                                 from standard input, split at newlines;
                                 if R is unspecified, assume {}
  -L, --max-lines=MAX-LINES    use at most MAX-LINES non-blank input lines per
                                 command line
  -l[MAX-LINES]                similar to -L but defaults to at most one non-
                                 blank input line if MAX-LINES is not specified
  -n, --max-args=MAX-ARGS      use at most MAX-ARGS arguments per command line
  -P, --max-procs=MAX-PROCS    run at most MAX-PROCS processes at a time
                                 (agentOS: commands run one at a time)
  -r, --no-run-if-empty        if there are no arguments, then do not run COMMAND;
                                 if this option is not given, COMMAND will be
                                 run at least once
  -s, --max-chars=MAX-CHARS    limit length of command line to MAX-CHARS
  -t, --verbose                print commands before executing them
  -x, --exit                   exit if the size (see -s) is exceeded
      --help                   display this help and exit
      --version                output version information and exit
`;

const DEFAULT_CHARS = 128 * 1024;
const enc = new TextEncoder();
/** Input was read as latin1 (bytes as code units); argv strings are byte strings, so decode back keeping every byte. */
const fromBytes = (s: string): string => decodeBytes(Uint8Array.from(s, (ch) => ch.charCodeAt(0)));

interface Config {
  maxArgs: number;
  maxLines: number;
  maxChars: number;
  replace: string | undefined;
  noEmpty: boolean;
  verbose: boolean;
  exitOnSize: boolean;
}

function count(c: Cmd, key: string, name: string, min: number): number {
  const v = c.get(key) ?? '';
  if (!/^\d+$/.test(v)) c.usage(`invalid number ${JSON.stringify(v)} for -${name} option`);
  const n = Number(v);
  if (n < min) c.usage(`value ${v} for -${name} option should be >= ${min}`);
  return n;
}

const xargs = command(
  {
    name: 'xargs',
    usage: USAGE,
    short: '0a:d:E:e::I:i::L:l::n:P:s:trxp',
    stopAtOperand: true,
    long: {
      null: ['0', 'none'], 'arg-file': ['a', 'required'], delimiter: ['d', 'required'], eof: ['e', 'optional'],
      replace: ['i', 'optional'], 'max-lines': ['L', 'required'], 'max-args': ['n', 'required'],
      'max-procs': ['P', 'required'], 'no-run-if-empty': ['r', 'none'], 'max-chars': ['s', 'required'],
      verbose: ['t', 'none'], exit: ['x', 'none'], interactive: ['p', 'none'],
    },
  },
  (c) => body(c),
);

function configure(c: Cmd): Config {
  const cfg: Config = {
    maxArgs: Infinity, maxLines: Infinity, maxChars: DEFAULT_CHARS, replace: undefined,
    noEmpty: c.has('r'), verbose: c.has('t') || c.has('p'), exitOnSize: c.has('x'),
  };
  // The last of -n / -L / -I wins, as in GNU.
  for (const [k, v] of c.all) {
    if (k === 'n') {
      c.opts.set('n', v);
      cfg.maxArgs = count(c, 'n', 'n', 1);
      cfg.maxLines = Infinity;
      cfg.replace = undefined;
    } else if (k === 'L' || k === 'l') {
      c.opts.set('L', v ?? '1');
      cfg.maxLines = count(c, 'L', k, 1);
      cfg.maxArgs = Infinity;
      cfg.replace = undefined;
    } else if (k === 'I' || k === 'i') {
      cfg.replace = v ?? '{}';
      cfg.maxLines = 1;
      cfg.maxArgs = Infinity;
      cfg.exitOnSize = true;
    } else if (k === 's') {
      c.opts.set('s', v);
      cfg.maxChars = count(c, 's', 's', 1);
    } else if (k === 'P') {
      c.opts.set('P', v);
      count(c, 'P', 'P', 0);
    }
  }
  return cfg;
}

function readItems(c: Cmd): Item[] {
  let fd = 0;
  const file = c.get('a');
  if (file !== undefined && file !== '-') {
    try {
      fd = c.sys.open(file, O_RDONLY);
    } catch (e) {
      c.sysError(`Cannot open input file ${quote(file)}`, e);
      c.exit(1);
    }
  }
  const text = readAllText(c.sys, fd);
  if (fd !== 0) c.sys.close(fd);
  let delim: string | undefined;
  for (const [k, v] of c.all) {
    if (k === '0') delim = '\0';
    else if (k === 'd') {
      const d = parseDelim(v ?? '');
      if (d === null) c.fail(`Invalid input delimiter specification ${v}: the delimiter must be either a single character or an escape sequence starting with \\.`);
      delim = d;
    }
  }
  if (delim !== undefined) return splitDelim(text, delim);
  let eof: string | undefined;
  for (const [k, v] of c.all) if (k === 'E' || k === 'e') eof = v === '' ? undefined : v;
  return splitWords(text, c.has('I') || c.has('i'), eof);
}

function body(c: Cmd): number {
  const cfg = configure(c);
  const cmd = c.operands.length ? c.operands : ['echo'];
  let items: Item[];
  let inputError = '';
  try {
    items = readItems(c);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    // GNU reports the bad quote, still runs what it parsed before it, then fails.
    c.warn(e.message);
    inputError = e.message;
    items = e.items;
  }
  return runBatches(c, cfg, cmd, items, inputError);
}

/** Split the items into command lines and run them; the final status. */
function runBatches(c: Cmd, cfg: Config, cmd: string[], items: Item[], inputError: string): number {
  const env = envList(c.os.env);
  const nullStdin = !c.has('a') || c.get('a') === '-';
  let status = 0;
  const base = cmd.reduce((n, a) => n + enc.encode(a).byteLength + 1, 0);
  const run = (args: string[], command = cmd): void => {
    const argv = [...command, ...args].map(fromBytes);
    if (cfg.verbose) {
      c.out.flush();
      c.sys.writeAll(2, `${argv.join(' ')}\n`);
    }
    c.out.flush();
    const r = runCommand(c.sys, argv, env, { nullStdin });
    if (!r.ok) {
      const code = r.errno === Errno.ENOENT ? 127 : 126;
      c.warn(`${argv[0]}: ${strerror(r.errno)}`);
      c.exit(code);
    }
    if (WIFEXITED(r.status)) {
      const code = WEXITSTATUS(r.status);
      if (code === 255) {
        c.warn(`${argv[0]}: exited with status 255; aborting`);
        c.exit(124);
      }
      if (code !== 0) status = 123;
    } else {
      c.warn(`${argv[0]}: terminated by signal ${WTERMSIG(r.status)}`);
      c.exit(125);
    }
  };
  if (cfg.replace !== undefined) {
    // -I: one command per input line, the string replaced in every initial argument.
    const repl = cfg.replace;
    for (const it of items) run([], cmd.map((a) => a.split(repl).join(it.arg)));
    return inputError ? 1 : status;
  }
  let batch: string[] = [];
  let size = base;
  let lines = 0;
  let ran = false;
  const flush = () => {
    run(batch);
    ran = true;
    batch = [];
    size = base;
    lines = 0;
  };
  for (const it of items) {
    const len = enc.encode(it.arg).byteLength + 1;
    if (base + len > cfg.maxChars) {
      c.fail('argument line too long');
    }
    if (batch.length && size + len > cfg.maxChars) flush();
    batch.push(it.arg);
    size += len;
    if (it.eol) lines++;
    if (batch.length >= cfg.maxArgs || lines >= cfg.maxLines) flush();
  }
  if (batch.length || (!ran && !cfg.noEmpty)) flush();
  return inputError ? 1 : status;
}

export default function main(os: AgentosApi): void {
  os.exit(xargs(os, os.argv.slice(1)));
}

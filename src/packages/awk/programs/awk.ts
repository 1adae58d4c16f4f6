// awk [POSIX or GNU style options] -f progfile [--] file ...
// awk [POSIX or GNU style options] [--] 'program' file ...
// Pattern scanning and processing. GNU awk is the reference: messages are
// gawk's, syntax errors exit 1, fatal runtime errors exit 2.

import { strerror } from '../../../abi/errno.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { parseArgs, UsageError, type OptSpec } from '../../../userland/lib/args.js';
import { isUtf8Locale } from '../../../userland/lib/locale.js';
import { isBrokenPipe, WriteError, Writer } from '../../../userland/lib/writer.js';
import { latin1 as bytesToStr } from '../../../userland/lib/bytes.js';
import { encode as utf8Bytes } from '../../../userland/lib/utf8.js';
import { setCharacters } from './chars.js';
import { AwkFatal, ExitSignal, NextFileSignal, NextSignal } from './errors.js';
import { expandIncludes, SourceError } from './include.js';
import { Input } from './input.js';
import { Interp } from './interp.js';
import { Streams, sysName } from './io.js';
import { AwkSyntaxError, unescape } from './lexer.js';
import { G, Parser } from './parser.js';
import { RegexError } from './regex.js';
import { DEFAULT_FORMAT } from './time.js';
import { zoneFor } from '../../../userland/lib/tz.js';
import { input, toNum, type AwkArray, type Val } from './value.js';

const USAGE = `Usage: awk [POSIX or GNU style options] -f progfile [--] file ...
Usage: awk [POSIX or GNU style options] [--] 'program' file ...
POSIX options:\t\tGNU long options: (standard)
\t-f progfile\t\t--file=progfile
\t-F fs\t\t\t--field-separator=fs
\t-v var=val\t\t--assign=var=val
Short options:\t\tGNU long options: (extensions)
\t-b\t\t\t--characters-as-bytes
\t-c\t\t\t--traditional
\t-e 'program-text'\t--source='program-text'
\t-E file\t\t\t--exec=file
\t-h\t\t\t--help
\t-i includefile\t\t--include=includefile
\t-L[fatal|invalid|no-ext]\t--lint[=fatal|invalid|no-ext]
\t-N\t\t\t--use-lc-numeric
\t-O\t\t\t--optimize
\t-P\t\t\t--posix
\t-r\t\t\t--re-interval
\t-s\t\t\t--no-optimize
\t-S\t\t\t--sandbox
\t-t\t\t\t--lint-old
\t-V\t\t\t--version
`;

/** What this awk is, and the gawk features it lacks (see the man page). */
const VERSION = `GNU Awk 5.2.1 compatible: agentOS awk 0.2.0
Not implemented: -M (arbitrary precision), -n (non-decimal data), dynamic
extensions (@load, -l), arrays of arrays, namespaces, |& coprocesses,
/inet networking, typed regexps (@/re/), mkbool, SYMTAB, FUNCTAB, gettext,
the debugger, profiler and pretty-printer, lint warnings. See man awk.
`;

const SPEC: OptSpec = {
  short: 'F:v:f:e:E:i:hVbcPrOsNStL::W:Mnl:Cd::D::p::o::gI',
  long: {
    'field-separator': ['F', 'required'],
    assign: ['v', 'required'],
    file: ['f', 'required'],
    source: ['e', 'required'],
    exec: ['E', 'required'],
    include: ['i', 'required'],
    help: ['h', 'none'],
    usage: ['h', 'none'],
    version: ['V', 'none'],
    'characters-as-bytes': ['b', 'none'],
    traditional: ['c', 'none'],
    compat: ['c', 'none'],
    posix: ['P', 'none'],
    're-interval': ['r', 'none'],
    optimize: ['O', 'none'],
    'no-optimize': ['s', 'none'],
    'use-lc-numeric': ['N', 'none'],
    sandbox: ['S', 'none'],
    lint: ['L', 'optional'],
    'lint-old': ['t', 'none'],
    bignum: ['M', 'none'],
    'non-decimal-data': ['n', 'none'],
    load: ['l', 'required'],
    copyright: ['C', 'none'],
    'dump-variables': ['d', 'optional'],
    debug: ['D', 'optional'],
    profile: ['p', 'optional'],
    'pretty-print': ['o', 'optional'],
    'gen-pot': ['g', 'none'],
    trace: ['I', 'none'],
  },
  stopAtOperand: true,
};

/** Options gawk has that this awk does not, by key: refused rather than half-done. */
const UNSUPPORTED: Record<string, string> = {
  M: '-M/--bignum (arbitrary precision arithmetic)',
  n: '-n/--non-decimal-data',
  l: '-l/--load (dynamic extensions)',
  C: '-C/--copyright',
  d: '-d/--dump-variables',
  D: '-D/--debug',
  p: '-p/--profile',
  o: '-o/--pretty-print',
  g: '-g/--gen-pot',
  I: '-I/--trace',
};

class Fatal {
  constructor(readonly status: number) {}
}

export default function main(os: AgentosApi): void {
  os.exit(run(os));
}

function run(os: AgentosApi): number {
  const sys = os.sys;
  let tty = false;
  try {
    tty = sys.isatty(1);
  } catch {
    // stdout closed: writes fail later and say so.
  }
  const stdout = new Writer(sys, 1, tty);
  let source = 'cmd. line';
  const err = (msg: string) => {
    try {
      stdout.flush();
    } catch {
      // reporting the error matters more
    }
    os.eprint(`awk: ${msg}\n`);
  };
  let parsed;
  try {
    parsed = parseArgs(os.argv.slice(1), SPEC);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    os.eprint(`awk: ${e.message}\n${USAGE}`);
    return 2;
  }
  let fs: string | null = null;
  const assigns: string[] = [];
  // Program sources in order: -f/-E/-i files and -e texts.
  const sources: { kind: 'f' | 'e' | 'i'; v: string }[] = [];
  let gawk = true;
  let sandbox = false;
  for (let [k, v] of parsed.list) {
    // -W name[=value] is gawk's old spelling of --name[=value].
    if (k === 'W') {
      const [name, val] = v!.split(/=(.*)/s);
      const hit = Object.keys(SPEC.long!).find((n) => n.startsWith(name));
      if (!hit) continue;
      [k, v] = [SPEC.long![hit][0], val];
    }
    if (k in UNSUPPORTED) {
      err(`fatal: ${UNSUPPORTED[k]} is not supported by this awk`);
      return 2;
    }
    if (k === 'h') {
      os.print(USAGE);
      return 0;
    }
    if (k === 'V') {
      os.print(VERSION);
      return 0;
    }
    if (k === 'F') fs = unescape(utf8Bytes(v!));
    if (k === 'v') assigns.push(utf8Bytes(v!));
    if (k === 'f' || k === 'E') sources.push({ kind: 'f', v: v! });
    if (k === 'i') sources.push({ kind: 'i', v: v! });
    if (k === 'e') sources.push({ kind: 'e', v: utf8Bytes(v!) });
    if (k === 'c' || k === 'P') gawk = false;
    if (k === 'S') sandbox = true;
  }
  const operands = parsed.operands.map(utf8Bytes);
  let text: string;
  const readSource = (f: string): string => bytesToStr(sys.readFile(f));
  // Without -f or -e the first operand is the program.
  if (!sources.some((s) => s.kind !== 'i')) {
    if (operands.length === 0) {
      os.eprint(USAGE);
      return 1;
    }
    sources.push({ kind: 'e', v: operands.shift()! });
  }
  if (sources[0].kind === 'f') source = sources[0].v;
  try {
    text = expandIncludes(sources, readSource, os.env.AWKPATH);
  } catch (e) {
    if (!(e instanceof SourceError)) throw e;
    err(e.message);
    return e.status;
  }

  let prog;
  try {
    prog = Parser.program(text, gawk);
  } catch (e) {
    if (!(e instanceof AwkSyntaxError)) throw e;
    const lines = text.split('\n');
    const srcLine = lines[e.line - 1] ?? '';
    const lineStart = text.split('\n').slice(0, e.line - 1).join('\n').length + (e.line > 1 ? 1 : 0);
    const col = Math.max(0, Math.min(e.pos - lineStart, srcLine.length));
    if (e.kind !== 'syntax') {
      err(`${source}:${e.line}: ${e.kind}: ${e.message}`);
      return e.kind === 'fatal' ? 2 : 1;
    }
    err(`${source}:${e.line}: ${srcLine}`);
    err(`${source}:${e.line}: ${' '.repeat(col)}^ ${e.message}`);
    return 1;
  }

  // Commands get ENVIRON as it is when they start (gawk mode), the byte strings as the kernel's text.
  const env = (): string[] => {
    const e = it.g[G.ENVIRON];
    if (!gawk || !(e instanceof Map)) return Object.entries(os.env).map(([k, v]) => `${k}=${v}`);
    // gawk exports a number stored in ENVIRON (no string form yet) as "".
    return [...e].map(([k, v]) => sysName(`${k}=${typeof v === 'number' ? '' : it.str(v)}`));
  };
  const io = new Streams(sys, stdout, env);
  const it: Interp = new Interp(prog, io, (i) => new Input(i, sys, (m) => err(m)), gawk);
  it.sandbox = sandbox;
  it.zone = zoneFor(os.env.TZ);
  it.warn = (m) => err(`${source}:${it.line}: warning: ${m}`);
  // gawk names the input position in runtime messages once a record has been read.
  const where = () => {
    const fnr = toNum(it.g[G.FNR] as Val);
    if (!(fnr > 0)) return '';
    const file = it.g[G.FILENAME] instanceof Map ? '' : it.str(it.g[G.FILENAME] as Val);
    return `(FILENAME=${file || '-'} FNR=${fnr}) `;
  };
  setCharacters(isUtf8Locale(os.env), () =>
    err(`${source}:${it.line}: ${where()}warning: Invalid multibyte data detected. There may be a mismatch between your data and your locale`),
  );
  const environ: AwkArray = new Map();
  for (const [k, v] of Object.entries(os.env)) environ.set(utf8Bytes(k), input(utf8Bytes(v)));
  it.g[G.ENVIRON] = environ;
  const argv: AwkArray = new Map();
  argv.set('0', 'awk');
  operands.forEach((a, i) => argv.set(String(i + 1), input(a)));
  it.g[G.ARGV] = argv;
  procinfo(it.g[G.PROCINFO] as AwkArray, sys);
  it.g[G.ARGC] = operands.length + 1;
  if (fs !== null) it.g[G.FS] = fs;

  let status = 0;
  try {
    for (const a of assigns) {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(a);
      if (!m) {
        err(`fatal: \`${a}' is not a legal variable name`);
        throw new Fatal(2);
      }
      it.assignGlobal(it.slot(m[1]), input(unescape(a.slice(m[0].length))), m[1]);
    }
    status = execute(it);
    io.closeAll();
  } catch (e) {
    if (e instanceof Fatal) return e.status;
    if (e instanceof AwkFatal) {
      err(e.bare ? `fatal: ${e.message}` : `${source}:${it.line}: fatal: ${e.message}`);
      return 2;
    }
    if (e instanceof RegexError) {
      err(`${source}:${it.line}: fatal: ${e.message}`);
      return 2;
    }
    if (e instanceof WriteError) {
      if (isBrokenPipe(e)) return 2;
      err(`fatal: print to "standard output" failed (${strerror(e.errno)})`);
      return 2;
    }
    throw e;
  }
  return status;
}

/** gawk's PROCINFO: who is running, and the defaults gawk keeps there. */
function procinfo(p: AwkArray, sys: AgentosApi['sys']): void {
  const num = (k: string, f: () => number) => {
    try {
      p.set(k, f());
    } catch {
      // not known here: left out
    }
  };
  num('pid', () => sys.getpid());
  num('ppid', () => sys.getppid());
  num('pgrpid', () => sys.getpgid(0));
  num('uid', () => sys.getuid());
  num('euid', () => sys.getuid());
  num('gid', () => sys.getgid());
  num('egid', () => sys.getgid());
  const set: [string, Val][] = [
    ['version', '5.2.1'],
    ['strftime', DEFAULT_FORMAT],
    ['platform', 'posix'],
    ['api_major', 3],
    ['api_minor', 2],
  ];
  for (const [k, v] of set) p.set(k, v);
}

/** BEGIN, the records, END; `exit` in BEGIN or a rule still runs END. */
function execute(it: Interp): number {
  let status = 0;
  let exited = false;
  try {
    it.runBegin();
  } catch (e) {
    if (!(e instanceof ExitSignal)) throw e;
    exited = true;
    if (e.status !== null) status = e.status;
  }
  if (!exited && it.hasMainOrEnd()) {
    // Reading input runs BEGINFILE and ENDFILE rules too, so `exit` can come from there.
    try {
      for (;;) {
        const rec = it.main.next();
        if (rec === null) break;
        it.incNR();
        it.setRecord(rec);
        try {
          it.runMain();
        } catch (e) {
          if (e instanceof NextSignal) continue;
          if (e instanceof NextFileSignal) {
            it.main.skipFile();
            continue;
          }
          throw e;
        }
      }
    } catch (e) {
      if (!(e instanceof ExitSignal)) throw e;
      if (e.status !== null) status = e.status;
    }
  }
  try {
    it.runEnd();
  } catch (e) {
    if (!(e instanceof ExitSignal)) throw e;
    if (e.status !== null) status = e.status;
  }
  return status;
}

// sed [OPTION]... {script-only-if-no-other-script} [input-file]...
// The stream editor. GNU sed is the specification: options, script syntax,
// messages and exit statuses (1 bad usage/script, 2 unreadable input, 4 I/O).

import { Errno, SysError, strerror } from '../../../abi/errno.js';
import { O_RDONLY } from '../../../abi/fcntl.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { parseArgs, UsageError, type OptSpec } from '../../../userland/lib/args.js';
import { isUtf8Locale } from '../../../userland/lib/locale.js';
import { Writer } from '../../../userland/lib/writer.js';
import { Machine, Out, Quit } from './exec.js';
import { InPlace } from './inplace.js';
import { Input } from './input.js';
import { Parser, ScriptError, type Chunk } from './script.js';
import { bytesToStr, utf8Bytes } from './text.js';

const USAGE = `Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...

  -n, --quiet, --silent
                 suppress automatic printing of pattern space
      --debug
                 annotate program execution
  -e script, --expression=script
                 add the script to the commands to be executed
  -f script-file, --file=script-file
                 add the contents of script-file to the commands to be executed
  --follow-symlinks
                 follow symlinks when processing in place
  -i[SUFFIX], --in-place[=SUFFIX]
                 edit files in place (makes backup if SUFFIX supplied)
  -l N, --line-length=N
                 specify the desired line-wrap length for the \`l' command
  --posix
                 disable all GNU extensions.
  -E, -r, --regexp-extended
                 use extended regular expressions in the script
                 (for portability use POSIX -E).
  -s, --separate
                 consider files as separate rather than as a single,
                 continuous long stream.
      --sandbox
                 operate in sandbox mode (disable e/r/w commands).
  -u, --unbuffered
                 load minimal amounts of data from the input files and flush
                 the output buffers more often
  -z, --null-data
                 separate lines by NUL characters
      --help     display this help and exit
      --version  output version information and exit

If no -e, --expression, -f, or --file option is given, then the first
non-option argument is taken as the sed script to interpret.  All
remaining arguments are names of input files; if no input files are
specified, then the standard input is read.

GNU sed home page: <https://www.gnu.org/software/sed/>.
General help using GNU software: <https://www.gnu.org/gethelp/>.
E-mail bug reports to: <bug-sed@gnu.org>.
`;

const SPEC: OptSpec = {
  short: 'nrsuEze:f:l:i::',
  long: {
    quiet: ['n', 'none'],
    silent: ['n', 'none'],
    debug: ['debug', 'none'],
    expression: ['e', 'required'],
    file: ['f', 'required'],
    'follow-symlinks': ['follow', 'none'],
    'in-place': ['i', 'optional'],
    'line-length': ['l', 'required'],
    'null-data': ['z', 'none'],
    'zero-terminated': ['z', 'none'],
    posix: ['posix', 'none'],
    'regexp-extended': ['E', 'none'],
    separate: ['s', 'none'],
    sandbox: ['sandbox', 'none'],
    unbuffered: ['u', 'none'],
    help: ['help', 'none'],
    version: ['version', 'none'],
  },
};

/** Ends the program with a status after its message was printed. */
class Fatal {
  constructor(readonly status: number) {}
}

export default function main(os: AgentosApi): void {
  let status: number;
  try {
    status = run(os);
  } catch (e) {
    if (e instanceof Fatal || e instanceof Quit) status = e.status;
    else if (e instanceof SysError && e.errno === Errno.EPIPE) status = 4;
    else throw e;
  }
  os.exit(status);
}

function run(os: AgentosApi): number {
  const sys = os.sys;
  const die = (msg: string, status: number): never => {
    stdout.flush();
    os.eprint(`sed: ${msg}\n`);
    throw new Fatal(status);
  };
  const stdout = new Out(new Writer(sys, 1), false);
  let parsed;
  try {
    parsed = parseArgs(os.argv.slice(1), SPEC, 'POSIXLY_CORRECT' in os.env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    os.eprint(`sed: ${e.message}\n${USAGE.replace(/^E-mail.*\n/m, '')}`);
    return 1;
  }
  const chunks: Chunk[] = [];
  let quiet = false;
  let ere = false;
  let separate = false;
  let unbuffered = false;
  let zero = false;
  let posix = false;
  let lineWrap = 70;
  let inPlace: string | null = null;
  const utf8 = isUtf8Locale(os.env);
  let exprs = 0;
  for (const [k, v] of parsed.list) {
    switch (k) {
      case 'help':
        os.print(USAGE);
        return 0;
      case 'version':
        os.print('sed (agentOS sed) 0.1.0\n');
        return 0;
      case 'n':
        quiet = true;
        break;
      case 'r':
      case 'E':
        ere = true;
        break;
      case 's':
        separate = true;
        break;
      case 'u':
        unbuffered = true;
        break;
      case 'z':
        zero = true;
        break;
      case 'posix':
        posix = true;
        break;
      case 'i':
        inPlace = v ?? '';
        separate = true;
        break;
      case 'l':
        if (!/^\d+$/.test(v ?? '')) die(`invalid line length: ${v}`, 1);
        lineWrap = Number(v);
        break;
      case 'e':
        chunks.push({ text: utf8Bytes(v!), kind: 'e', name: String(++exprs) });
        break;
      case 'f':
        chunks.push({ text: scriptFile(os, v!, die), kind: 'f', name: v! });
        break;
    }
  }
  const operands = parsed.operands;
  if (chunks.length === 0) {
    if (operands.length === 0) {
      os.eprint(USAGE.replace(/^E-mail.*\n/m, ''));
      return 1;
    }
    chunks.push({ text: utf8Bytes(operands.shift()!), kind: 'e', name: '1' });
  }
  let program;
  try {
    program = new Parser(chunks, ere, utf8).parse();
  } catch (e) {
    if (e instanceof ScriptError) die(e.message, e.status);
    throw e;
  }
  let errors = false;
  const complain = (msg: string, fatal = false) => {
    if (fatal) die(msg, 4);
    stdout.flush();
    os.eprint(`sed: ${msg}\n`);
    errors = true;
  };
  const delim = zero ? '\0' : '\n';
  const input = new Input(sys, operands, delim, separate, complain);
  const opts = { quiet: quiet || program.quiet, delim, lineWrap, posix, unbuffered, separate, utf8 };
  const m = new Machine(sys, program.cmds, input, opts, stdout, die);
  m.openWFiles(program.wfiles);
  const ip = inPlace === null ? null : new InPlace(sys, m, inPlace, unbuffered);
  if (ip) {
    input.onFile = (f) => ip.begin(f);
  }
  let status: number;
  try {
    status = m.run();
  } finally {
    ip?.end();
    m.flushAll();
    stdout.flush();
  }
  return status !== 0 ? status : errors ? 2 : 0;
}

/** The text of a -f script (`-` is stdin); a final newline does not add an empty line. */
function scriptFile(os: AgentosApi, name: string, die: (msg: string, status: number) => never): string {
  let text: string;
  try {
    if (name === '-') text = bytesToStr(os.sys.readAll(0));
    else {
      const fd = os.sys.open(name, O_RDONLY);
      try {
        text = bytesToStr(os.sys.readAll(fd));
      } finally {
        os.sys.close(fd);
      }
    }
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    return die(`couldn't open file ${name}: ${strerror(e.errno)}`, 4);
  }
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

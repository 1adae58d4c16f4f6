// awk [POSIX or GNU style options] -f progfile [--] file ...
// awk [POSIX or GNU style options] [--] 'program' file ...
// Pattern scanning and processing. GNU awk is the reference: messages are
// gawk's, syntax errors exit 1, fatal runtime errors exit 2.

import { SysError, strerror } from '../../../abi/errno.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { parseArgs, UsageError, type OptSpec } from '../../../userland/lib/args.js';
import { isUtf8Locale } from '../../../userland/lib/locale.js';
import { isBrokenPipe, WriteError, Writer } from '../../../userland/lib/writer.js';
import { bytesToStr, utf8Bytes } from '../../grep/programs/io.js';
import { setCharacters } from './chars.js';
import { AwkFatal, ExitSignal, NextFileSignal, NextSignal } from './errors.js';
import { Input } from './input.js';
import { Interp } from './interp.js';
import { Streams } from './io.js';
import { AwkSyntaxError, unescape } from './lexer.js';
import { G, Parser } from './parser.js';
import { RegexError } from './regex.js';
import { input, toNum, type AwkArray, type Val } from './value.js';

const USAGE = `Usage: awk [POSIX or GNU style options] -f progfile [--] file ...
Usage: awk [POSIX or GNU style options] [--] 'program' file ...
POSIX options:\t\tGNU long options: (standard)
\t-f progfile\t\t--file=progfile
\t-F fs\t\t\t--field-separator=fs
\t-v var=val\t\t--assign=var=val
Short options:\t\tGNU long options: (extensions)
\t--help\t\t\t-h
\t--version\t\t-V
`;

const SPEC: OptSpec = {
  short: 'F:v:f:hV',
  long: {
    'field-separator': ['F', 'required'],
    assign: ['v', 'required'],
    file: ['f', 'required'],
    help: ['h', 'none'],
    version: ['V', 'none'],
  },
  stopAtOperand: true,
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
  const files: string[] = [];
  for (const [k, v] of parsed.list) {
    if (k === 'h') {
      os.print(USAGE);
      return 0;
    }
    if (k === 'V') {
      os.print('GNU Awk 5.2.1 (agentOS awk 0.1.0)\n');
      return 0;
    }
    if (k === 'F') fs = unescape(utf8Bytes(v!));
    if (k === 'v') assigns.push(utf8Bytes(v!));
    if (k === 'f') files.push(v!);
  }
  const operands = parsed.operands.map(utf8Bytes);
  let text: string;
  if (files.length) {
    text = '';
    for (const f of files) {
      try {
        text += bytesToStr(sys.readFile(f)) + '\n';
      } catch (e) {
        if (!(e instanceof SysError)) throw e;
        err(`fatal: can't open source file \`${f}' for reading: ${strerror(e.errno)}`);
        return 2;
      }
    }
    source = files[0];
  } else {
    if (operands.length === 0) {
      os.eprint(USAGE);
      return 1;
    }
    text = operands.shift()!;
  }

  let prog;
  try {
    prog = Parser.program(text);
  } catch (e) {
    if (!(e instanceof AwkSyntaxError)) throw e;
    const lines = text.split('\n');
    const srcLine = lines[e.line - 1] ?? '';
    const lineStart = text.split('\n').slice(0, e.line - 1).join('\n').length + (e.line > 1 ? 1 : 0);
    const col = Math.max(0, Math.min(e.pos - lineStart, srcLine.length));
    if (e.fatal) {
      err(`${source}:${e.line}: fatal: ${e.message}`);
      return 2;
    }
    err(`${source}:${e.line}: ${srcLine}`);
    err(`${source}:${e.line}: ${' '.repeat(col)}^ ${e.message}`);
    return 1;
  }

  const env = Object.entries(os.env).map(([k, v]) => `${k}=${v}`);
  const io = new Streams(sys, stdout, env);
  const it = new Interp(prog, io, (i) => new Input(i, sys, (m) => err(m)));
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
        if (e instanceof ExitSignal) {
          if (e.status !== null) status = e.status;
          break;
        }
        throw e;
      }
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

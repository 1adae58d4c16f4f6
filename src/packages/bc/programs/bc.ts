// bc [OPTION]... [FILE]...: an arbitrary precision calculator language.
// POSIX bc with the GNU extensions (GNU bc 1.07 is the specification): the
// files are read in order, then standard input; each line (or function
// definition) runs as soon as it is complete.

import { SysError } from '../../../abi/errno.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { parseArgs, UsageError, WriteError, Writer } from '../../../userland/lib/index.js';
import { Halt, Interp } from './interp.js';
import { Lexer } from './lexer.js';
import { NeedMore, Parser, QuitNow, SyntaxError } from './parser.js';

const USAGE = `usage: bc [options] [file ...]
  -h  --help         print this usage and exit
  -i  --interactive  force interactive mode
  -l  --mathlib      use the predefined math routines
  -q  --quiet        don't print initial banner
  -s  --standard     non-standard bc constructs are errors
  -w  --warn         warn about non-standard bc constructs
  -v  --version      print version information and exit
`;

const VERSION = `bc (agentOS) 0.1.0
An arbitrary precision calculator compatible with GNU bc 1.07.
`;

const dec = new TextDecoder();

/** Ends bc with a status. */
class Stop {
  constructor(readonly status: number) {}
}

export default function main(os: AgentosApi): void {
  const out = new Writer(os.sys, 1);
  const err = (s: string) => {
    out.flush();
    os.sys.writeAll(2, s);
  };
  let status = 0;
  try {
    status = run(os, out, err);
    out.flush();
  } catch (e) {
    if (e instanceof Stop) status = e.status;
    else if (!(e instanceof WriteError)) throw e;
    try {
      out.flush();
    } catch {
      status = 1;
    }
  }
  os.exit(status);
}

function run(os: AgentosApi, out: Writer, err: (s: string) => void): number {
  let opts;
  try {
    opts = parseArgs(os.argv.slice(1), {
      short: 'hilqswv',
      long: {
        help: ['h', 'none'], interactive: ['i', 'none'], mathlib: ['l', 'none'], quiet: ['q', 'none'],
        standard: ['s', 'none'], warn: ['w', 'none'], version: ['v', 'none'],
      },
    });
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(`bc: ${e.message}\n`);
    out.write(USAGE);
    return 1;
  }
  const has = (k: string) => opts.list.some(([key]) => key === k);
  if (has('h')) {
    out.write(USAGE);
    return 0;
  }
  if (has('v')) {
    out.write(VERSION);
    return 0;
  }
  const n = Number(os.env.BC_LINE_LENGTH ?? '70');
  const lineLength = Number.isInteger(n) && (n === 0 || n >= 3) ? n : 70;
  const stdin = new StdinReader(os);
  const bc = new Interp((s) => out.write(s), err, lineLength, () => stdin.line());
  if (has('l')) bc.useMathLib();
  try {
    for (const file of opts.operands) {
      let text: string;
      try {
        text = dec.decode(os.sys.readFile(file));
      } catch (e) {
        if (!(e instanceof SysError)) throw e;
        err(`File ${file} is unavailable.\n`);
        return 1;
      }
      source(bc, file, () => text, true, err);
    }
    source(bc, '(standard_in)', () => stdin.chunk(), false, err);
  } catch (e) {
    if (e instanceof QuitNow || e instanceof Halt) return 0;
    throw e;
  }
  return 0;
}

/** Standard input: the program text in chunks, or a line for read(). */
class StdinReader {
  private pending = '';
  private eof = false;
  constructor(private readonly os: AgentosApi) {}

  /** More program text, or null at end of input. */
  chunk(): string | null {
    if (this.pending) {
      const p = this.pending;
      this.pending = '';
      return p;
    }
    if (this.eof) return null;
    const b = this.os.sys.read(0, 65536);
    if (b.byteLength === 0) {
      this.eof = true;
      return null;
    }
    return dec.decode(b, { stream: true });
  }

  line(): string | null {
    while (!this.pending.includes('\n')) {
      const c = this.chunk();
      if (c === null) break;
      this.pending += c;
    }
    const i = this.pending.indexOf('\n');
    const line = i < 0 ? this.pending : this.pending.slice(0, i);
    this.pending = i < 0 ? '' : this.pending.slice(i + 1);
    return line || null;
  }
}

/**
 * Parse and run one source. `next` gives more text (a whole file at once:
 * `whole`), null at its end. An item cut off by the end of what was read so
 * far is parsed again once more text has come.
 */
function source(bc: Interp, name: string, next: () => string | null, whole: boolean, err: (s: string) => void): void {
  let text = '';
  let pos = 0;
  let line = 1;
  let ended = false;
  const more = (): boolean => {
    const t = next();
    if (t === null) return !(ended = true);
    text = text.slice(pos) + t;
    pos = 0;
    return true;
  };
  if (whole) {
    more();
    ended = true;
  }
  for (;;) {
    const lex = new Lexer(text, pos, line);
    const p = new Parser(lex, !ended);
    let item;
    try {
      item = p.item();
    } catch (e) {
      if (e instanceof NeedMore) {
        more();
        continue;
      }
      for (const l of p.lexErrors) err(`${name} ${l.line}: ${l.message}\n`);
      if (e instanceof SyntaxError) {
        err(`${name} ${e.line}: ${e.message}\n`);
        [pos, line] = [lex.i, lex.line];
        continue;
      }
      throw e;
    }
    for (const l of p.lexErrors) err(l.line === null ? `${l.message}\n` : `${name} ${l.line}: ${l.message}\n`);
    [pos, line] = [lex.i, lex.line];
    if (!item) return;
    if (p.problems.length) {
      for (const pr of p.problems) err(`${name} ${pr.line}: ${pr.message}\n`);
      continue;
    }
    if (item.k === 'define') bc.define(item.f);
    else bc.run(item.body);
  }
}

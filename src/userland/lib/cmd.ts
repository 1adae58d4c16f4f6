// The command runtime every applet uses: parsed options, buffered stdout,
// GNU-style diagnostics, and the exit path (flush, broken pipe, write errors).

import { SysError, strerror } from '../../abi/errno.js';
import type { AgentosApi } from '../../runtimes/js/api.js';
import type { Sys } from '../../libc/sys.js';
import { parseArgs, UsageError, type OptSpec } from './args.js';
import { quoteaf, setQuoteLocale } from './quote.js';
import { isBrokenPipe, WriteError, Writer } from './writer.js';

export type Applet = (os: AgentosApi, args: string[]) => number;

export interface CommandDef extends OptSpec {
  name: string;
  /** Printed by --help: the usage text kept at the top of each command file. */
  usage: string;
  /** Exit status for usage errors and trouble (ls: 2, most: 1). */
  failStatus?: number;
  /** --help / --version are not options (echo, true). */
  noStandardOptions?: boolean;
  /** No option parsing at all: every argument is an operand (echo, yes). */
  rawArgs?: boolean;
  /** The "Try ... --help" line carries the name prefix too (diffutils: "diff: Try ..."). */
  prefixTry?: boolean;
}

export const VERSION = 'agentOS coreutils 0.1.0';

export class Cmd {
  readonly out: Writer;
  readonly sys: Sys;
  readonly opts = new Map<string, string | undefined>();
  /** Every value of repeatable options, in order. */
  readonly all: [string, string | undefined][] = [];
  operands: string[] = [];
  /** Set by error helpers; the final status unless the command returns another. */
  status = 0;

  constructor(
    readonly os: AgentosApi,
    readonly def: CommandDef,
  ) {
    this.sys = os.sys;
    setQuoteLocale(os.env);
    let tty = false;
    try {
      tty = os.sys.isatty(1);
    } catch {
      // stdout closed: writes will fail and say so.
    }
    this.out = new Writer(os.sys, 1, tty);
  }

  get name(): string {
    return this.def.name;
  }

  has(key: string): boolean {
    return this.opts.has(key);
  }

  get(key: string): string | undefined {
    return this.opts.get(key);
  }

  /** Print `name: msg` on stderr (stdout flushed first so output stays in order). */
  warn(msg: string): void {
    this.out.flush();
    this.sys.writeAll(2, `${this.name}: ${msg}\n`);
  }

  /** Report an error and remember the failure status. */
  error(msg: string, status = this.def.failStatus ?? 1): void {
    this.warn(msg);
    if (this.status === 0) this.status = status;
  }

  /** `name: PREFIX 'file': strerror` / `name: file: strerror` from a SysError. */
  sysError(what: string, e: unknown, status?: number): void {
    if (!(e instanceof SysError)) throw e;
    this.error(`${what}: ${strerror(e.errno)}`, status);
  }

  /** e.g. cannot('access', 'nope', e) → "ls: cannot access 'nope': No such file or directory". */
  cannot(verb: string, file: string, e: unknown, status?: number): void {
    this.sysError(`cannot ${verb} ${quoteaf(file)}`, e, status);
  }

  /** A fatal error: report it and exit with the fail status. */
  fail(msg: string): never {
    this.warn(msg);
    throw new Exit(this.def.failStatus ?? 1);
  }

  /** A usage error: message, the "Try" line, and the fail status. */
  usage(msg: string): never {
    this.warn(msg);
    return this.tryHelp();
  }

  /** The "Try ... --help" line and the fail status (after messages already printed). */
  tryHelp(): never {
    const prefix = this.def.prefixTry ? `${this.name}: ` : '';
    this.sys.writeAll(2, `${prefix}Try '${this.name} --help' for more information.\n`);
    throw new Exit(this.def.failStatus ?? 1);
  }

  exit(status: number): never {
    throw new Exit(status);
  }
}

/** Unwinds to the runner with a status (the buffer is flushed there). */
export class Exit {
  constructor(readonly status: number) {}
}

/** Turn a command body into an applet: options, --help/--version, flush, write errors. */
export function command(def: CommandDef, body: (c: Cmd) => number | void): Applet {
  return (os, args) => {
    const c = new Cmd(os, def);
    let status: number;
    try {
      status = run(c, args, body);
      c.out.flush();
    } catch (e) {
      status = finish(c, e);
    }
    return status;
  };
}

function run(c: Cmd, args: string[], body: (c: Cmd) => number | void): number {
  const def = c.def;
  const spec: OptSpec = def.noStandardOptions
    ? def
    : { ...def, long: { help: ['--help', 'none'], version: ['--version', 'none'], ...def.long } };
  if (def.rawArgs) {
    c.operands = args;
    return ret(body(c), c);
  }
  try {
    const p = parseArgs(args, spec, 'POSIXLY_CORRECT' in c.os.env);
    for (const [k, v] of p.list) {
      c.opts.set(k, v);
      c.all.push([k, v]);
    }
    c.operands = p.operands;
  } catch (e) {
    if (e instanceof UsageError) c.usage(e.message);
    throw e;
  }
  if (c.has('--help')) {
    c.out.write(def.usage);
    return 0;
  }
  if (c.has('--version')) {
    c.out.write(`${def.name} (${VERSION})\n`);
    return 0;
  }
  return ret(body(c), c);
}

const ret = (r: number | void, c: Cmd): number => (typeof r === 'number' ? r : c.status);

function finish(c: Cmd, e: unknown): number {
  if (e instanceof Exit) {
    try {
      c.out.flush();
    } catch (w) {
      return writeFailed(c, w);
    }
    return e.status;
  }
  return writeFailed(c, e);
}

function writeFailed(c: Cmd, e: unknown): number {
  if (!(e instanceof WriteError)) throw e;
  // Only reached with SIGPIPE ignored or caught; otherwise the kernel already killed us.
  const msg = isBrokenPipe(e) ? 'Broken pipe' : strerror(e.errno);
  try {
    c.sys.writeAll(2, `${c.name}: write error: ${msg}\n`);
  } catch {
    // stderr is gone too: the status still tells.
  }
  return 1;
}

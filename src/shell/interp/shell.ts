// The shell's top-level loop and its behaviour over the state (state.ts).
// Execution of the AST lives in exec.ts (commands), redirect.ts, pipeline.ts
// and subshell.ts; builtins in builtins/. The runner is the only stateful part
// of the shell (mvdan/sh).

import { DEFAULT_PATH } from '../../abi/env.js';
import { Errno, strerror, SysError } from '../../abi/errno.js';
import { SIGPIPE, SIGSEGV } from '../../abi/signal.js';
import type { Sys } from '../../libc/sys.js';
import { Parser, ParseError, print, printFunctionEnv } from '../syntax/index.js';
import type { LineRestorer } from '../syntax/lines.js';
import { expandAliases } from './alias.js';
import { AbortSignal, BreakSignal, ContinueSignal, ExitSignal, InterruptSignal, ReturnSignal, SignalDeath } from './control.js';
import { runStmts } from './exec.js';
import { restore } from './redirect.js';
import { ShellState, type StateInit } from './state.js';
import { ShellError } from '../errors.js';
import { encodeShell } from '../bytes.js';

/** What Shell.mark() records. */
export interface Mark {
  funcs: number;
  sources: number;
  scopes: number;
  redirs: number;
  sourceDepth: number;
  loopDepth: number;
  errexitSuppressed: number;
  trapDepth: number;
  pipeStage: number;
  substDepth: number;
  outputFds: [number, number] | null;
  positional: string[];
}

export const STACK_OVERFLOW = 'stack overflow: recursion too deep (FUNCNEST limits function nesting)';

export interface ShellInit extends StateInit {
  env: Record<string, string>;
  ppid: number;
  interactive?: boolean;
}

/**
 * The interpreter: ShellState's fields (state.ts, where every field is
 * declared) and the behaviour over them. No fields of its own beyond `sys`,
 * so what a subshell copies or a child shell receives is decided in one table.
 */
export class Shell extends ShellState {
  constructor(readonly sys: Sys, init: ShellInit) {
    super(init);
    this.vars.functionEnv = () => [...this.exportedFunctions]
      .filter((n) => this.functions.has(n))
      .map((n) => `BASH_FUNC_${n}%%=${printFunctionEnv(this.functions.get(n)!)}`);
    for (const [k, v] of Object.entries(init.env)) {
      const fn = /^BASH_FUNC_(.+)%%$/.exec(k);
      if (fn) {
        this.importFunction(fn[1], v);
        continue;
      }
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) continue;
      this.vars.set(k, v);
      this.vars.lookup(k)!.exported = true;
    }
    if (!this.vars.isSet('PATH')) this.vars.set('PATH', DEFAULT_PATH);
    if (!this.vars.isSet('IFS')) this.vars.set('IFS', ' \t\n');
    // bash's read-only integers, whatever the environment says, and the host facts it sets.
    const uid = String(sys.getuid());
    for (const [k, v] of [['PPID', String(init.ppid)], ['UID', uid], ['EUID', uid]]) {
      const rec = this.vars.declare(k, true);
      Object.assign(rec, { value: v, readonly: true, integer: true, exported: false, declaredOnly: false });
    }
    if (!this.vars.isSet('OSTYPE')) this.vars.set('OSTYPE', 'linux-gnu');
    // The bash release whose behaviour this shell follows (scripts test it to pick bash features).
    this.vars.set('BASH_VERSION', '5.2.15(1)-release');
    this.vars.setArray('BASH_VERSINFO', ['5', '2', '15', '1', 'release', 'x86_64-pc-linux-gnu'].map((value, i) => ({ key: String(i), value })));
    this.vars.lookup('BASH_VERSINFO')!.readonly = true;
    if (!this.vars.isSet('HOSTNAME')) this.vars.set('HOSTNAME', sys.uname().nodename ?? 'localhost');
    if (!this.vars.isSet('PS4')) this.vars.set('PS4', '+ ');
    // Each shell started (not a child for a subshell: its state replaces this) is one level deeper.
    const shlvl = Number.parseInt(this.vars.get('SHLVL') ?? '0', 10);
    this.vars.set('SHLVL', String(Number.isFinite(shlvl) && shlvl >= 0 ? shlvl + 1 : 1));
    this.vars.lookup('SHLVL')!.exported = true;
    if (!this.vars.isSet('OPTIND')) this.vars.set('OPTIND', '1');
    this.vars.set('SHELL', this.vars.get('SHELL') ?? '/bin/bash');
    try {
      this.vars.set('PWD', sys.getcwd());
      this.vars.lookup('PWD')!.exported = true;
    } catch {
      /* cwd removed */
    }
    if (init.interactive) {
      this.opts.set.set('interactive', true);
      this.keepGoing = true;
    }
  }
  /** The process's umask; read from the kernel once (two syscalls), then known, since only the shell sets it. */
  umask(): number {
    if (this.umaskKnown === null) {
      this.umaskKnown = this.sys.umask(0o022);
      this.sys.umask(this.umaskKnown);
    }
    return this.umaskKnown;
  }

  setUmask(mask: number): void {
    this.sys.umask(mask);
    this.umaskKnown = mask;
  }

  /** chdir, counted (isolate.ts puts the cwd back only after one). */
  chdir(path: string): void {
    this.cwdMoves++;
    this.sys.chdir(path);
  }


  /** A function exported by a parent shell (`() { body; }`); bash skips values that are not exactly one definition. */
  private importFunction(name: string, value: string): void {
    if (!value.startsWith('() {')) return;
    try {
      const stmts = new Parser(`${name} ${value}`).parseScript().stmts;
      const def = stmts.length === 1 ? stmts[0].cmd : null;
      if (def?.type !== 'FunctionDef' || def.name !== name) return;
      this.functions.set(name, def);
      this.exportedFunctions.add(name);
    } catch (e) {
      if (!(e instanceof ParseError)) throw e;
    }
  }

  /** Run caught-signal handlers (no syscall unless one is pending); abandon the command on SIGINT. */
  checkInterrupt(): void {
    this.sys.raw.pollSignals();
    if (this.interrupted) {
      this.interrupted = false;
      throw new InterruptSignal();
    }
  }

  // ---- output -------------------------------------------------------------

  private real(fd: number): number {
    return this.outputFds && (fd === 1 || fd === 2) ? this.outputFds[fd - 1] : fd;
  }

  write(fd: number, text: string): void {
    try {
      this.sys.writeAll(this.real(fd), encodeShell(text));
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
      // In a pipeline stage run in-process, a closed pipe ends the stage as SIGPIPE would.
      if (e.errno === Errno.EPIPE && this.pipeStage > 0) throw new SignalDeath(SIGPIPE);
      throw new ShellError(`write error: ${strerror(e.errno)}`);
    }
  }

  out(text: string): void {
    this.write(1, text);
  }

  /** `NAME: line N: message` on stderr, as bash prints run-time errors. */
  error(message: string): void {
    const where = this.lineno > 0 ? ` line ${this.lineno}:` : '';
    try {
      this.sys.writeAll(this.real(2), `${this.sourceStack.at(-1) ?? this.errorName}:${where} ${message}\n`);
    } catch {
      /* stderr closed */
    }
  }

  // ---- special parameters ---------------------------------------------------

  special(name: string): string | undefined {
    switch (name) {
      case '?':
        return String(this.status);
      case '$':
        return String(this.pid);
      case '!':
        return this.lastBg ? String(this.lastBg) : undefined;
      case '#':
        return String(this.positional.length);
      case '-':
        return this.opts.flags() + this.modeFlags;
      case '0':
        return this.name;
      case '_':
        return this.lastArg;
      case 'RANDOM':
        this.randomSeed = (this.randomSeed * 1103515245 + 12345) & 0x7fffffff;
        return String((this.randomSeed >> 16) & 0x7fff);
      case 'SECONDS':
        return String(Math.floor((Date.now() - this.startMs) / 1000));
      case 'LINENO':
        return String(this.lineno);
      case 'BASHPID':
        return String(this.fakePid || this.sys.getpid());
      case 'BASH_SUBSHELL':
        return String(this.subshellLevel);
      case 'EPOCHSECONDS':
        return String(Math.floor(Date.now() / 1000));
      case 'BASH_COMMAND':
        if (typeof this.currentCommand === 'string') return this.currentCommand;
        return this.currentCommand ? print(this.currentCommand) : undefined;
      case 'EPOCHREALTIME':
        return (Date.now() / 1000).toFixed(6);
      default:
        if (/^[1-9][0-9]*$/.test(name)) return this.positional[Number(name) - 1];
        return undefined;
    }
  }

  // ---- running source -------------------------------------------------------

  /**
   * Parse and run `src` one complete command at a time, as bash does: earlier
   * commands run before a later syntax error is reported. `label` names the
   * source in parse errors (`-c`, `eval`: `NAME: eval: line N: ...`).
   * Nested runs (eval, source, traps) return 2 on a syntax error instead of
   * ending the shell, and catch a fatal expansion error as bash's eval does.
   * A child shell's printed source gets its original lines back from `lines`.
   */
  runSource(src: string, baseLine = 1, label = '', endsProcess = false, lines?: LineRestorer): number {
    const popts = { extglob: this.opts.shoptOn('extglob'), posix: this.opts.on('posix') };
    const parser = new Parser(src, popts, baseLine);
    const nested = this.sourceDepth > 0;
    this.sourceDepth++;
    try {
      for (;;) {
        let stmts;
        // Options such as extglob set by the previous command apply to the next one.
        popts.extglob = this.opts.shoptOn('extglob');
        popts.posix = this.opts.on('posix');
        const from = parser.i;
        try {
          stmts = parser.nextCommand();
        } catch (e) {
          if (!(e instanceof ParseError)) throw e;
          return this.syntaxError(e, label, nested);
        }
        // set -v: bash echoes the input lines it read for this command (blank ones too) before running it.
        if (stmts !== null && this.opts.on('verbose')) {
          const text = src.slice(from, Math.max(parser.i, from));
          if (text !== '') this.writeRaw(2, text.endsWith('\n') ? text : `${text}\n`);
        }
        for (const w of parser.warnings.splice(0)) {
          this.writeRaw(2, `${this.sourceStack.at(-1) ?? this.errorName}: line ${w.line}: ${w.message}\n`);
        }
        if (stmts === null) return this.status;
        lines?.restore(stmts);
        if (this.aliases.size && (this.opts.shoptOn('expand_aliases') || this.opts.on('interactive'))) {
          stmts = expandAliases(this, stmts);
        }
        // The one command a child shell was started for: nothing follows it in this process.
        if (endsProcess && stmts.length === 1 && !stmts[0].background && src.slice(parser.i).trim() === '') this.lastCommand = stmts[0].cmd;
        try {
          this.status = runStmts(this, stmts);
        } catch (e) {
          // eval and source abandon the command and go on (bash's parse_and_execute),
          // and so does the top level of a shell that is not a subshell.
          if (!(e instanceof AbortSignal) || e.pastEval || (!nested && this.subshellLevel > 0)) throw e;
          this.status = e.status;
          // In POSIX mode such an error (readonly assignment, expansion) ends a non-interactive shell (127 under -c, as bash).
          if (!nested && this.opts.on('posix') && !this.opts.on('errexit') && !this.keepGoing) throw new ExitSignal(this.modeFlags.includes('c') ? 127 : e.status);
          if (!nested && this.opts.on('errexit') && !this.keepGoing) throw new ExitSignal(e.status);
        }
      }
    } finally {
      this.sourceDepth--;
    }
  }

  private syntaxError(e: ParseError, label: string, nested: boolean): number {
    this.lineno = e.line;
    const prefixAt = (line: number) => `${this.sourceStack.at(-1) ?? this.errorName}: ${label ? `${label}: ` : ''}line ${line}: `;
    const prefix = prefixAt(e.line);
    if (e.preceding) this.writeRaw(2, `${prefixAt(e.preceding.line)}${e.preceding.message}\n`);
    this.writeRaw(2, `${prefix}${e.message}\n`);
    if (e.context !== null) this.writeRaw(2, `${prefix}\`${e.context}'\n`);
    // bash quirk: a [[ ]] syntax error ending the shell keeps the previous status.
    const cond = !e.preceding && /conditional|^unexpected (argument|token)/.test(e.message);
    const status = cond && !nested ? this.status : 2;
    this.status = status;
    if (!this.keepGoing && !nested) throw new ExitSignal(status);
    return 2;
  }

  private writeRaw(fd: number, text: string): void {
    try {
      this.sys.writeAll(fd, encodeShell(text));
    } catch {
      /* ignore */
    }
  }

  /** Run a DEBUG, RETURN or ERR trap's action (if set) with $? = `status`, leaving $? as it was. */
  runTrap(name: 'DEBUG' | 'RETURN' | 'ERR', status = this.status): void {
    const action = this.traps.get(name);
    // An ERR trap does not set itself off.
    if (!action || this.runningTraps.has(name)) return;
    const saved = this.status;
    const line = this.lineno;
    this.runningTraps.add(name);
    this.status = status;
    this.trapDepth++;
    try {
      // The action's $LINENO counts from the line of the command that set it off (bash).
      this.runSource(action, line || 1);
    } finally {
      this.trapDepth--;
      this.runningTraps.delete(name);
      this.status = saved;
      this.lineno = line;
    }
  }

  /** `PS4 text` on stderr under set -x; PS4's first character repeats once per eval, source, trap or $(...) level. */
  trace(text: string): void {
    if (!this.opts.on('xtrace')) return;
    const ps4 = this.vars.get('PS4') ?? '+ ';
    const level = Math.max(1, this.sourceDepth + this.substDepth);
    this.write(2, `${ps4.slice(0, 1).repeat(level - 1)}${ps4}${text}\n`);
  }

  /** Where the interpreter's bookkeeping stands: what stackOverflow() puts back. */
  mark(): Mark {
    return {
      funcs: this.funcStack.length, sources: this.sourceStack.length, scopes: this.vars.depth, redirs: this.pendingRedirs.length,
      sourceDepth: this.sourceDepth, loopDepth: this.loopDepth, errexitSuppressed: this.errexitSuppressed, trapDepth: this.trapDepth,
      pipeStage: this.pipeStage, substDepth: this.substDepth, outputFds: this.outputFds, positional: this.positional,
    };
  }

  /**
   * The script recursed deeper than the JavaScript stack (a RangeError caught at
   * `m`'s boundary: an in-process subshell, a session's or terminal's command).
   * Finally blocks near the top of the stack may not have run, so the
   * bookkeeping and fds go back to `m`. Says so, and returns 139: bash, without
   * FUNCNEST, segfaults in the same place.
   */
  stackOverflow(m: Mark): number {
    this.recover(m);
    this.error(STACK_OVERFLOW);
    return 128 + SIGSEGV;
  }

  /** Put the bookkeeping and fds back to `m`, for a command abandoned by an error that skipped finally blocks. */
  recover(m: Mark): void {
    for (const saved of this.pendingRedirs.splice(m.redirs).reverse()) restore(this, saved);
    while (this.vars.depth > m.scopes) this.vars.popScope();
    this.funcStack.length = m.funcs;
    this.sourceStack.length = m.sources;
    this.sourceDepth = m.sourceDepth;
    this.loopDepth = m.loopDepth;
    this.errexitSuppressed = m.errexitSuppressed;
    this.trapDepth = m.trapDepth;
    this.pipeStage = m.pipeStage;
    this.substDepth = m.substDepth;
    this.outputFds = m.outputFds;
    this.positional = m.positional;
  }

  /** Run the EXIT trap (once) and return the final status. */
  finish(status: number): number {
    const action = this.traps.get('EXIT');
    if (action !== undefined) {
      this.traps.delete('EXIT');
      this.status = status;
      try {
        this.runSource(action);
      } catch (e) {
        if (e instanceof ExitSignal) return e.status;
        if (!(e instanceof ReturnSignal || e instanceof BreakSignal || e instanceof ContinueSignal)) throw e;
      }
    }
    return status;
  }
}

/** Data fields of T (methods left out). */
type DataKeys<T> = { [K in keyof T]: T[K] extends (...args: never[]) => unknown ? never : K }[keyof T];
type IsTrue<T extends true> = T;
/** Fails to compile when Shell declares a data field beyond ShellState's and `sys`: state goes in state.ts. */
export type ShellOwnsNoState = IsTrue<[Exclude<DataKeys<Shell>, DataKeys<ShellState> | 'sys'>] extends [never] ? true : false>;

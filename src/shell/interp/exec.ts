// Running the AST: statement lists, compound commands, functions, simple
// commands (assignments, builtins, functions, programs found on $PATH).

import { Errno, strerror, SysError } from '../../abi/errno.js';
import { shellStatus, WIFSIGNALED, WTERMSIG } from '../../abi/wait.js';
import type { SpawnRequest } from '../../abi/spawn.js';
import { pathOf, walkPath } from '../../libc/execvp.js';
import {
  ArithShellError, evalArithExp, evalArithText, evalArithValue, expandArithSource, expandAssignValue, expandPattern, expandWord, expandWords, matchPattern, type ExpandContext,
} from '../expand/index.js';
import type {
  ArithExp, ArithFor, Assign, Case, Command, DeclCommand, For, If, Redirect, SimpleCommand, Stmt, While,
} from '../syntax/index.js';
import { print } from '../syntax/index.js';
import { declare } from './builtins/declare.js';
import { BUILTINS, SPECIAL_BUILTINS } from './builtins/index.js';
import { runTest } from './cond.js';
import { expandContext } from './context.js';
import { AbortSignal, BreakSignal, ContinueSignal, ExitSignal, ReturnSignal } from './control.js';
import { definitionSource, publishFrames } from './frames.js';
import { isolate } from './isolate.js';
import { exited, reap, retryingSpawn, takeEarly } from './reap.js';
import { runPipeline, startBackground } from './pipeline.js';
import { applyRedirs, keep, letGo, RedirectFailed, withOutputFile, withRedirs, type Saved } from './redirect.js';
import type { Shell } from './shell.js';
import { ShellError } from '../errors.js';
import { decodeShell } from '../bytes.js';
import { looksBinary, SAMPLE_BYTES } from '../binary-file.js';

export function runStmts(sh: Shell, stmts: Stmt[]): number {
  let status = sh.status;
  for (const s of stmts) status = runStmt(sh, s);
  return status;
}

function runStmt(sh: Shell, s: Stmt): number {
  sh.checkInterrupt();
  // set -n: commands are parsed only (ignored by interactive shells, which could never undo it).
  if (sh.opts.on('noexec') && !sh.opts.on('interactive')) return sh.status;
  if (s.background) {
    startBackground(sh, s.cmd);
    sh.status = 0;
    return 0;
  }
  sh.status = runCommand(sh, s.cmd);
  return sh.status;
}

/** errexit and the ERR trap, checked where bash checks them: after a pipeline or simple command. */
export function afterLeaf(sh: Shell, status: number): number {
  if (status !== 0 && sh.errexitSuppressed === 0) {
    sh.runTrap('ERR', status);
    if (sh.opts.on('errexit')) throw new ExitSignal(status);
  }
  return status;
}

/** A one-command pipeline finished: PIPESTATUS, then errexit and the ERR trap. */
function leaf(sh: Shell, status: number): number {
  setPipestatus(sh, [status]);
  return afterLeaf(sh, status);
}

export function setPipestatus(sh: Shell, statuses: number[]): void {
  sh.pipestatus = statuses;
  const values = statuses.map(String);
  if (!sh.vars.holdsArray('PIPESTATUS', values)) sh.vars.setArray('PIPESTATUS', values.map((value) => ({ key: null, value })));
}

/** Run with errexit ignored (conditions, non-final parts of && and ||, negated pipelines). */
export function suppressed<T>(sh: Shell, fn: () => T): T {
  sh.errexitSuppressed++;
  try {
    return fn();
  } finally {
    sh.errexitSuppressed--;
  }
}

export function runCommand(sh: Shell, cmd: Command): number {
  sh.lineno = cmd.line;
  // A compound command whose redirection failed ran nothing and fails as a simple command does (errexit, ERR).
  const failed = (status: number): number => leaf(sh, status);
  // A child shell started for one simple command is bash's fork of that command: its fatal expansion error ends it with the error's own status.
  const forked = cmd === sh.lastCommand && cmd.type === 'SimpleCommand';
  if (cmd === sh.lastCommand) {
    sh.lastCommand = null;
    if (cmd.type !== 'SimpleCommand' && 'redirs' in cmd && cmd.redirs.length) return runLast(sh, cmd, failed);
  }
  try {
    switch (cmd.type) {
      case 'SimpleCommand':
        return leaf(sh, runSimple(sh, cmd));
      case 'DeclCommand':
        return leaf(sh, runDecl(sh, cmd));
      case 'Pipeline':
        return runPipeline(sh, cmd);
      case 'AndOr': {
        const left = suppressed(sh, () => runCommand(sh, cmd.left));
        sh.status = left;
        if ((cmd.op === '&&') === (left === 0)) return runCommand(sh, cmd.right);
        return left;
      }
      case 'Group':
        return withRedirs(sh, cmd.redirs, () => runStmts(sh, cmd.stmts), failed);
      case 'Subshell': {
        let signal = 0;
        const status = withRedirs(sh, cmd.redirs, () => isolate(sh, () => runStmts(sh, cmd.stmts), (sig) => (signal = sig)));
        reportSignal(sh, signal);
        return leaf(sh, status);
      }
      case 'If':
        return withRedirs(sh, cmd.redirs, () => runIf(sh, cmd), failed);
      case 'While':
        return withRedirs(sh, cmd.redirs, () => runWhile(sh, cmd), failed);
      case 'For':
        return withRedirs(sh, cmd.redirs, () => runFor(sh, cmd), failed);
      case 'ArithFor':
        return withRedirs(sh, cmd.redirs, () => arithStatus('((', () => runArithFor(sh, cmd)), failed);
      case 'Case':
        return withRedirs(sh, cmd.redirs, () => runCase(sh, cmd), failed);
      case 'ArithCmd':
        debugTrap(sh, cmd);
        return leaf(sh, withRedirs(sh, cmd.redirs, () => arithStatus('((', () => (arith(sh, cmd.expr, true) !== 0 ? 0 : 1))));
      case 'TestCmd':
        debugTrap(sh, cmd);
        return leaf(sh, withRedirs(sh, cmd.redirs, () => arithStatus('[[', () => runTest(sh, cmd.expr))));
      case 'FunctionDef':
        if (sh.opts.on('posix') && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(cmd.name)) {
          // POSIX mode takes only names for functions; bash treats this as fatal.
          sh.error(`\`${cmd.name}': not a valid identifier`);
          if (!sh.keepGoing) throw new ExitSignal(2);
          return 2;
        }
        if (/[$`'"]/.test(cmd.name)) {
          // A name written with an expansion or quotes (`f$x()`) is refused, as bash does.
          sh.error(`\`${cmd.name}': not a valid identifier`);
          return 1;
        }
        sh.functions.set(cmd.name, cmd);
        sh.functionSources.set(cmd.name, definitionSource(sh));
        return 0;
    }
  } catch (e) {
    if (!(e instanceof ShellError)) throw e;
    sh.error(e.message);
    // Expansion errors end a subshell (status 1). ${x:?} and set -u end the
    // shell (status 127 under -c, else 1); the others ($((1/0)), bad
    // substitutions, readonly assignments) abandon the top-level command.
    if (e.fatal && !sh.keepGoing) {
      const exits = e.status === 127;
      throw new AbortSignal(!forked && (sh.subshellLevel > 0 || (exits && !sh.modeFlags.includes('c'))) ? 1 : e.status, exits);
    }
    return afterLeaf(sh, e.status);
  }
  return 0;
}

/** In (( )), for (( )) and [[ ]] an arithmetic error is a failure (status 1) named after the command. */
function arithStatus(what: string, fn: () => number): number {
  try {
    return fn();
  } catch (e) {
    if (!(e instanceof ArithShellError)) throw e;
    throw new ShellError(`${what}: ${e.message}`, 1);
  }
}

/** Evaluate an arithmetic expression; `trace`: a (( )) or for (( )) part, shown under set -x as bash does. */
export function arith(sh: Shell, e: ArithExp, trace = false): number {
  const ctx = expandContext(sh);
  if (!trace || !sh.opts.on('xtrace')) return Number(evalArithExp(e, ctx));
  const text = expandArithSource(e.word, ctx);
  sh.trace(`(( ${text} ))`);
  return Number(evalArithValue(text, ctx));
}

/**
 * bash reports a foreground job killed by a signal once it is waited for.
 * SIGTERM's report is a bare "Terminated"; other signals' name the pid and
 * the command (not reproduced); none inside $(...), nor for SIGINT/SIGPIPE.
 */
export function reportSignal(sh: Shell, signal: number): void {
  if (signal === 15 && sh.substDepth === 0) sh.write(2, 'Terminated\n');
}

/** The DEBUG trap, run before a simple command, [[ ]], (( )) or case, which $BASH_COMMAND then names. */
function debugTrap(sh: Shell, cmd: Command | string): void {
  if (sh.trapDepth > 0) return;
  sh.currentCommand = cmd;
  sh.runTrap('DEBUG');
}

function runIf(sh: Shell, cmd: If): number {
  for (const c of cmd.clauses) {
    if (suppressed(sh, () => runStmts(sh, c.cond)) === 0) return runStmts(sh, c.body);
  }
  return cmd.elseBody ? runStmts(sh, cmd.elseBody) : 0;
}

/** Run a loop body; returns 'break' or 'continue' when a signal targets an outer loop. */
function loopBody(sh: Shell, body: Stmt[]): { status: number; stop: boolean } {
  sh.checkInterrupt();
  try {
    return { status: runStmts(sh, body), stop: false };
  } catch (e) {
    if (e instanceof BreakSignal) {
      if (--e.levels > 0) throw e;
      return { status: 0, stop: true };
    }
    if (e instanceof ContinueSignal) {
      if (--e.levels > 0) throw e;
      return { status: 0, stop: false };
    }
    throw e;
  }
}

/**
 * The frame every loop shares: `next()` decides whether to go round again (setting the
 * loop variable if any), break/continue are counted against this loop, and the status
 * is the last body's.
 */
function runLoop(sh: Shell, body: Stmt[], next: () => boolean): number {
  let status = 0;
  sh.loopDepth++;
  // break or continue in the condition (while break; do ...) acts on this loop too.
  const test = (): boolean => {
    for (;;) {
      try {
        return next();
      } catch (e) {
        if (!(e instanceof BreakSignal || e instanceof ContinueSignal) || --e.levels > 0) throw e;
        if (e instanceof BreakSignal) return false;
      }
    }
  };
  try {
    while (test()) {
      const r = loopBody(sh, body);
      status = r.status;
      if (r.stop) break;
    }
  } finally {
    sh.loopDepth--;
  }
  return status;
}

function runWhile(sh: Shell, cmd: While): number {
  return runLoop(sh, cmd.body, () => (suppressed(sh, () => runStmts(sh, cmd.cond)) === 0) !== cmd.until);
}

function runFor(sh: Shell, cmd: For): number {
  const ctx = expandContext(sh);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(cmd.name)) {
    sh.error(`\`${cmd.name}': not a valid identifier`);
    return 1;
  }
  const items = cmd.words === null ? [...sh.positional] : expandWords(cmd.words, ctx);
  if (cmd.select) return runSelect(sh, cmd, items);
  // bash traces the word list as written, at each iteration.
  const traced = `for ${cmd.name} in ${cmd.words === null ? '"$@"' : cmd.words.map((w) => print(w)).join(' ')}`;
  let i = 0;
  return runLoop(sh, cmd.body, () => {
    if (i >= items.length) return false;
    sh.lineno = cmd.line;
    debugTrap(sh, traced);
    sh.trace(traced);
    sh.vars.set(cmd.name, items[i++]);
    return true;
  });
}

/** `select`: a numbered menu on stderr, choices read from stdin until EOF or break. */
function runSelect(sh: Shell, cmd: For, items: string[]): number {
  if (items.length === 0) return 0;
  const width = String(items.length).length;
  const menu = () => sh.write(2, items.map((it, i) => `${String(i + 1).padStart(width)}) ${it}\n`).join(''));
  let showMenu = true;
  let eof = false;
  const status = runLoop(sh, cmd.body, () => {
    for (;;) {
      if (showMenu) menu();
      sh.write(2, sh.vars.get('PS3') ?? '#? ');
      const line = readLine(sh);
      if (line === null) {
        sh.out('\n');
        eof = true;
        return false;
      }
      // An empty line shows the menu again without running the body.
      showMenu = line.trim() === '';
      if (showMenu) continue;
      sh.vars.set('REPLY', line);
      const n = /^\s*\d+\s*$/.test(line) ? Number(line) : 0;
      sh.vars.set(cmd.name, n >= 1 && n <= items.length ? items[n - 1] : '');
      return true;
    }
  });
  return eof ? 1 : status;
}

/** One line from stdin, a byte at a time (what follows stays for other readers); null at EOF. */
function readLine(sh: Shell): string | null {
  const bytes: number[] = [];
  for (;;) {
    const b = sh.sys.read(0, 1);
    if (b.byteLength === 0) return bytes.length ? decodeShell(new Uint8Array(bytes)) : null;
    if (b[0] === 0x0a) return decodeShell(new Uint8Array(bytes));
    bytes.push(b[0]);
  }
}

function runArithFor(sh: Shell, cmd: ArithFor): number {
  const { init, cond, step } = cmd;
  let first = true;
  // The DEBUG trap runs before each of the three expressions (bash), on the loop's line.
  const run = (e: ArithExp) => {
    sh.lineno = cmd.line;
    debugTrap(sh, `(( ${print(e.word)} ))`);
    return arith(sh, e, true);
  };
  return runLoop(sh, cmd.body, () => {
    // init before the first test, step before each later one (not after a break).
    const e = first ? init : step;
    first = false;
    if (e) run(e);
    return !cond || run(cond) !== 0;
  });
}

function runCase(sh: Shell, cmd: Case): number {
  const ctx = expandContext(sh);
  // bash shows the word as written.
  const head = `case ${print(cmd.word)} in`;
  debugTrap(sh, head);
  sh.trace(head);
  const subject = expandWord(cmd.word, ctx);
  let status = 0;
  let fallthrough = false;
  for (const item of cmd.items) {
    const popts = { extglob: ctx.opts.extglob, nocase: ctx.opts.nocasematch };
    const hit = fallthrough || item.patterns.some((p) => matchPattern(expandPattern(p, ctx), subject, popts));
    if (!hit) continue;
    status = runStmts(sh, item.body);
    if (item.term === ';;') return status;
    fallthrough = item.term === ';&';
  }
  return status;
}

// ---- assignments --------------------------------------------------------------

/** An array element's value by its subscript as written (evaluated for indexed arrays); '' when unset. */
function element(sh: Shell, name: string, key: string, assoc: boolean, ctx: ExpandContext): string {
  const v = sh.vars.lookup(name);
  if (assoc) return v?.assoc?.get(key) ?? '';
  if (!v?.indexed) return key === '0' ? (v?.value ?? '') : '';
  return v.indexed.get(Number(evalArithText(key, ctx))) ?? '';
}

export function assign(sh: Shell, a: Assign, ctx: ExpandContext, opts: { local?: boolean; trace?: boolean } = {}): void {
  if (a.array) {
    // bash traces an array assignment as written, before expanding it.
    if (opts.trace) sh.trace(print(a));
    let items: { key: string | null; value: string }[] = [];
    const assoc = sh.vars.isAssoc(a.name);
    for (const el of a.array) {
      const key = el.index ? expandWord(el.index, ctx) : null;
      if (key === null) for (const v of expandWords([el.value], ctx)) items.push({ key: null, value: v });
      else {
        let value = expandAssignValue(el.value, ctx);
        // [k]+=v appends to the element as this literal left it (an indexed array) or as it was
        // before (under name+=(...)); bash's associative arrays see only the latter.
        const earlier = assoc ? undefined : items.findLast((it) => it.key === key)?.value;
        if (el.append) value = (earlier ?? (a.append ? element(sh, a.name, key, assoc, ctx) : '')) + value;
        items.push({ key, value });
      }
    }
    if (assoc && items.every((it) => it.key === null)) {
      // bash 5.1+: words alone give an associative array key, value, key, value...
      const pairs = [];
      for (let i = 0; i < items.length; i += 2) pairs.push({ key: items[i].value, value: items[i + 1]?.value ?? '' });
      items = pairs;
    } else if (assoc) {
      // Mixed with [k]=v: the bare words are reported and left out.
      for (const it of items) if (it.key === null) sh.error(`${a.name}: ${it.value}: must use subscript when assigning associative array`);
      items = items.filter((it) => it.key !== null);
    }
    sh.vars.setArray(a.name, items, { append: a.append, local: opts.local, assoc });
    return;
  }
  const value = a.value ? expandAssignValue(a.value, ctx) : '';
  if (opts.trace) traceAssign(sh, a, value);
  // An indexed array's subscript is arithmetic text: single quotes stay in it (an error, as in bash).
  if (a.index) sh.vars.setIndex(a.name, sh.vars.isAssoc(a.name) ? expandWord(a.index, ctx) : expandArithSource(a.index, ctx), value, a.append);
  else sh.vars.set(a.name, value, { append: a.append, local: opts.local });
  if (sh.opts.on('allexport')) sh.vars.lookup(a.name)!.exported = true;
}


// ---- simple commands ----------------------------------------------------------

/** A word as set -x shows it: quoted when it holds anything but plain characters. */
const traceQuote = (w: string): string => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`);

/** One assignment under set -x, on a line of its own: the index as written, the value expanded (quoted unless empty). */
function traceAssign(sh: Shell, a: Assign, value: string): void {
  const index = a.index ? `[${print(a.index)}]` : '';
  sh.trace(`${a.name}${index}${a.append ? '+=' : '='}${value === '' ? '' : traceQuote(value)}`);
}

/** argv under set -x, after the command's assignments. */
function traceArgv(sh: Shell, argv: string[]): void {
  if (sh.opts.on('xtrace')) sh.trace(argv.map(traceQuote).join(' '));
}

function runSimple(sh: Shell, cmd: SimpleCommand): number {
  debugTrap(sh, cmd);
  const ctx = expandContext(sh);
  sh.substRan = false;
  const argv = expandWords(cmd.words, ctx);
  if (argv.length === 0) {
    // Assignments only: the status is that of the last $(...) in them, else 0.
    for (const a of cmd.assigns) {
      try {
        assign(sh, a, ctx, { trace: sh.opts.on('xtrace') });
      } catch (e) {
        // A failed assignment statement (readonly variable...) aborts the script in bash.
        if (e instanceof ShellError && !e.fatal) throw new ShellError(e.message, e.status, true);
        throw e;
      }
    }
    const status = sh.substRan ? sh.status : 0;
    sh.lastArg = '';
    return withRedirs(sh, cmd.redirs, () => status);
  }
  try {
    return invoke(sh, argv, cmd.assigns, cmd.redirs, true);
  } finally {
    sh.lastArg = argv[argv.length - 1];
    closeProcSubsts(sh);
  }
}

function closeProcSubsts(sh: Shell): void {
  for (const p of sh.procSubsts.splice(0)) {
    try {
      sh.sys.close(p.fd);
    } catch {
      /* closed by the command */
    }
  }
}

/**
 * Run argv with its prefix assignments and redirections: a function, a
 * builtin, or a program. Exported for `command`, `exec` and pipelines.
 * `traced`: show the assignments and argv under set -x (a simple command's own run).
 */
export function invoke(sh: Shell, argv: string[], assigns: Assign[], redirs: SimpleCommand['redirs'], traced = false, functions = true): number {
  const name = argv[0];
  const ctx = expandContext(sh);
  const trace = traced && sh.opts.on('xtrace');
  if (name === 'exec' && (argv.length === 1 || (argv.length === 2 && argv[1] === '--'))) {
    if (trace) traceArgv(sh, argv);
    // `exec` with only redirections: they stay in effect for the rest of the shell.
    try {
      const saved = applyRedirs(sh, redirs);
      keep(sh, saved);
      if (sh.execSaved) sh.execSaved.push(saved);
      else for (const [, copy] of saved) if (copy >= 0) sh.sys.close(copy);
      return 0;
    } catch (e) {
      if (!(e instanceof ShellError)) throw e;
      if (!(e instanceof RedirectFailed)) sh.error(e.message);
      return e.status;
    }
  }
  const fn = functions ? sh.functions.get(name) : undefined;
  // Functions come before builtins, special ones too, except in POSIX mode (bash):
  // `:(){ :|:& };:` calls the function.
  const special = SPECIAL_BUILTINS.has(name) && (!fn || sh.opts.on('posix'));
  const builtin = BUILTINS[name];
  if (special || (!fn && builtin)) {
    // In POSIX mode special builtins keep their assignments; otherwise bash gives them only to the running builtin.
    const keep = special && sh.opts.on('posix');
    const restoreVars = keep ? null : tempAssign(sh, assigns, ctx, trace);
    if (keep) for (const a of assigns) assign(sh, a, ctx, { trace });
    if (trace) traceArgv(sh, argv);
    try {
      const run = () => runBuiltin(sh, builtin, argv);
      return withOutputFile(sh, name, redirs, run) ?? withRedirs(sh, redirs, run);
    } finally {
      restoreVars?.();
    }
  }
  if (fn) {
    const restoreVars = tempAssign(sh, assigns, ctx, trace);
    if (trace) traceArgv(sh, argv);
    try {
      return withRedirs(sh, redirs, () => callFunction(sh, fn.name, argv.slice(1)));
    } finally {
      restoreVars();
    }
  }
  // The prefix assignments, made in order (a later one sees an earlier one), are exported to the program only.
  const restoreVars = tempAssign(sh, assigns, ctx, trace);
  let env: string[];
  try {
    env = [...sh.vars.environ()];
  } finally {
    restoreVars();
  }
  if (sh.oneShot) {
    // bash execs the only command of a $(...) in the forked child, one shell level down.
    const i = env.findIndex((e) => e.startsWith('SHLVL='));
    if (i >= 0) env[i] = `SHLVL=${Number(env[i].slice(6)) - 1}`;
  }
  if (trace) traceArgv(sh, argv);
  return withRedirs(sh, redirs, () => runProgram(sh, argv, env));
}

function runBuiltin(sh: Shell, builtin: (sh: Shell, argv: string[]) => number, argv: string[]): number {
  try {
    return builtin(sh, argv);
  } catch (e) {
    if (e instanceof ShellError) {
      sh.error(e.message);
      return e.status;
    }
    throw e;
  }
}

/** Assignments visible only for one command: set now, undone by the returned function. */
function tempAssign(sh: Shell, assigns: Assign[], ctx: ExpandContext, trace = false): () => void {
  if (!assigns.length) return () => {};
  sh.vars.pushScope(true);
  for (const a of assigns) {
    // A readonly variable is reported and left alone; the command still runs.
    if (sh.vars.lookup(a.name)?.readonly) {
      sh.error(`${a.name}: readonly variable`);
      continue;
    }
    if (a.append && a.index === null && a.array === null) {
      // `x+=b cmd`: the command sees the outer value with b appended (and set -x shows that value).
      const value = (sh.vars.get(a.name) ?? '') + (a.value ? expandAssignValue(a.value, ctx) : '');
      if (trace) traceAssign(sh, { ...a, append: false }, value);
      sh.vars.tempVar(a.name);
      sh.vars.set(a.name, value, { local: true });
    } else if (a.array) {
      // `B=(b b) cmd`: the command gets the text of the array literal, as bash exports it.
      if (trace) sh.trace(print(a));
      sh.vars.tempVar(a.name);
      sh.vars.set(a.name, print(a).slice(print(a).indexOf('=') + 1), { local: true });
    } else if (a.index === null) {
      // Expanded before the binding exists (`PATH=$BIN:$PATH cmd` sees the outer PATH).
      const value = a.value ? expandAssignValue(a.value, ctx) : '';
      if (trace) traceAssign(sh, a, value);
      sh.vars.tempVar(a.name);
      sh.vars.set(a.name, value, { local: true });
    } else {
      sh.vars.tempVar(a.name);
      assign(sh, a, ctx, { local: true, trace });
    }
    sh.vars.lookup(a.name)!.exported = true;
  }
  return () => sh.vars.popScope();
}

export function callFunction(sh: Shell, name: string, args: string[]): number {
  const fn = sh.functions.get(name)!;
  // bash's FUNCNEST: deeper calls are a fatal error (the shell, or its subshell, ends with status 1).
  const funcnest = sh.vars.get('FUNCNEST');
  if (funcnest !== undefined && sh.funcStack.length >= Number(funcnest) && Number(funcnest) > 0) {
    throw new ShellError(`${name}: maximum function nesting level exceeded (${Number(funcnest)})`, 1, true);
  }
  const positional = sh.positional;
  const callLine = sh.lineno;
  sh.positional = args;
  sh.vars.pushScope();
  sh.funcStack.push(name);
  sh.frames.push({ name, source: sh.functionSources.get(name) ?? 'environment', line: callLine, fn: true });
  publishFrames(sh, true);
  // Without set -T, functions do not inherit the DEBUG and RETURN traps, nor ERR without set -E; the caller's come back
  // afterwards unless the function set its own.
  const inherited = sh.untracedTraps().filter((t) => sh.traps.has(t)).map((t) => [t, sh.traps.get(t)!] as const);
  for (const [t] of inherited) sh.traps.delete(t);
  // With set -T, the DEBUG trap also runs as the function starts ($BASH_COMMAND: the call).
  if (sh.opts.on('functrace') && sh.trapDepth === 0) sh.runTrap('DEBUG');
  try {
    let status: number;
    try {
      status = runCommand(sh, fn.body);
    } catch (e) {
      if (!(e instanceof ReturnSignal)) throw e;
      status = e.status;
    }
    sh.runTrap('RETURN', status);
    return status;
  } finally {
    for (const [t, action] of inherited) if (!sh.traps.has(t)) sh.traps.set(t, action);
    // Back at the call: $LINENO (and an ERR trap for the call's status) is the caller's line.
    sh.lineno = callLine;
    sh.funcStack.pop();
    sh.frames.pop();
    sh.vars.popScope();
    sh.positional = positional;
  }
}

/** Find and run a program; returns its shell status (127 not found, 126 not runnable). */
export function runProgram(sh: Shell, argv: string[], env: string[]): number {
  // With job control the program leads its own process group, which SIGINT is forwarded to.
  const pid = spawnProgram(sh, argv, env, sh.jobControl ? 0 : undefined, sh.terminal !== null);
  if (pid < 0) return -pid;
  if (sh.terminal) return sh.terminal.waitForeground([pid], pid, argv.join(' '))[0];
  const fg = sh.fgPgid;
  if (sh.jobControl) sh.fgPgid = pid;
  let status: number;
  try {
    status = waitFor(sh, pid, (sig) => reportSignal(sh, sig));
  } finally {
    sh.fgPgid = fg;
  }
  return status;
}

/** The path `name` was hashed at under this PATH (a changed PATH empties the table, as assigning PATH does in bash). */
function hashedPath(sh: Shell, name: string, searchPath: string, count: boolean): string | null {
  if (sh.hashPath !== searchPath) {
    sh.hashed.clear();
    sh.hashPath = searchPath;
  }
  const entry = sh.hashed.get(name);
  if (!entry) return null;
  if (count) entry.hits++;
  return entry.path;
}

function remember(sh: Shell, name: string, path: string, searchPath: string): void {
  if (sh.hashPath !== searchPath) return;
  if (!sh.hashed.has(name)) sh.hashed.set(name, { path, hits: 1 });
}

/**
 * The last command of this process, redirected as a forked child would be: for good, with no
 * saved copies of what the redirections replaced — a saved copy of a pipe's write end would keep
 * its reader waiting until the command ends (`(server) >log 2>&1 &` under `| cat`).
 */
function runLast(sh: Shell, cmd: Command & { redirs: Redirect[] }, failed: (status: number) => number): number {
  let saved: Saved;
  try {
    saved = applyRedirs(sh, cmd.redirs);
  } catch (e) {
    if (!(e instanceof RedirectFailed)) throw e;
    return failed(e.status);
  }
  letGo(sh, saved);
  return runCommand(sh, { ...cmd, redirs: [] } as Command);
}

/** Spawn a program found on $PATH; returns its pid, or minus the error status (reported). */
export function spawnProgram(
  sh: Shell, argv: string[], env: string[], pgid?: number, foreground = false, hashing = true, fds?: [number, number][],
): number {
  reap(sh);
  const name = argv[0];
  // bash's hash table: a name found once runs from that path until `hash -r` or PATH changes.
  const searchPath = env.find((e) => e.startsWith('PATH='))?.slice(5) ?? '';
  const hashed = sh.opts.on('hashall') && !name.includes('/') ? hashedPath(sh, name, searchPath, hashing) : null;
  try {
    // fds: set by the kernel in the child, the caller's other fds inherited as usual.
    const req: SpawnRequest & { env: string[] } = { path: hashed ?? name, argv, env, pgid, foreground, ...(fds?.length ? { fds, inheritFds: true } : {}) };
    const [pid, path] = spawnSearched(sh, req);
    if (hashing && hashed === null && sh.opts.on('hashall') && !name.includes('/')) remember(sh, name, path, searchPath);
    return pid;
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    if (e.errno === Errno.ENOENT && hashed !== null) {
      sh.error(`${hashed}: ${strerror(e.errno)}`);
      return -127;
    }
    if (e.errno === Errno.ENOENT && !name.includes('/')) {
      sh.error(`${name}: command not found`);
      return -127;
    }
    let reason = strerror(e.errno);
    if (e.errno === Errno.EACCES && name.includes('/') && isDir(sh, name)) reason = 'Is a directory';
    if (e.errno === Errno.ENOEXEC) reason = 'cannot execute binary file: Exec format error';
    sh.error(`${name}: ${reason}`);
    return e.errno === Errno.ENOENT ? -127 : -126;
  }
}

/** Spawn `req.path` searched on the command's PATH → [pid, the path that ran]. */
function spawnSearched(sh: Shell, req: SpawnRequest & { env: string[] }): [number, string] {
  const { path: file, argv, env } = req;
  try {
    // The whole search in one syscall (the kernel's spawnp), not one failed spawn per directory.
    return retryingSpawn(sh, () => sh.sys.spawnp(req, pathOf(env)));
  } catch (e) {
    if (!(e instanceof SysError && e.errno === Errno.ENOEXEC)) throw e;
  }
  // A file the kernel has no runtime for: found again by the walk, to run as a script without #!
  // (the shell's fallback, not the kernel's) unless it looks binary.
  return walkPath(file, env, (path) => {
    try {
      return [sh.sys.spawn({ ...req, path }), path];
    } catch (e) {
      if (!(e instanceof SysError && e.errno === Errno.ENOEXEC && !isBinary(sh, path))) throw e;
      return [sh.sys.spawn({ ...req, path: sh.selfPath, argv: [sh.selfPath, path, ...argv.slice(1)] }), path];
    }
  });
}

function isDir(sh: Shell, path: string): boolean {
  try {
    return (sh.sys.stat(path).mode & 0o170000) === 0o040000;
  } catch {
    return false;
  }
}

/** bash runs a headerless file as a script unless it looks binary (binary-file.ts). */
export function isBinary(sh: Shell, path: string): boolean {
  try {
    const fd = sh.sys.open(path);
    const head = sh.sys.read(fd, SAMPLE_BYTES);
    sh.sys.close(fd);
    return looksBinary(head);
  } catch {
    return true;
  }
}

/** Wait for `pid`; `onSignal` hears of its death by a signal. */
/** Wait for child `pid` (or take its status if the reaper has: reap.ts); its shell status, 127 if it is no child. */
export function waitFor(sh: Shell, pid: number, onSignal?: (sig: number) => void): number {
  for (;;) {
    let status = takeEarly(sh, pid);
    try {
      if (status === undefined && sh.unreaped.size && !sh.unreaped.has(pid)) {
        // As bash's SIGCHLD handler: an async child that ends meanwhile is reaped too, not left a
        // zombie that still answers kill(pid, 0) (`tail --pid=$!` would never end).
        const [got, raw] = sh.sys.waitpid(-1, 0);
        if (got !== pid) {
          exited(sh, got, raw);
          continue;
        }
        status = raw;
      } else if (status === undefined) {
        status = sh.sys.waitpid(pid, 0)[1];
        if (sh.unreaped.has(pid)) exited(sh, pid, status);
      }
      if (onSignal && WIFSIGNALED(status)) onSignal(WTERMSIG(status));
      return shellStatus(status);
    } catch (e) {
      if (e instanceof SysError && e.errno === Errno.EINTR) continue;
      // Reaped already: by the reaper (a trap run during the wait may have started a process), or an async child's kept status.
      if (e instanceof SysError && e.errno === Errno.ECHILD) return sh.early.has(pid) ? waitFor(sh, pid, onSignal) : (sh.reaped.get(pid) ?? 127);
      throw e;
    }
  }
}

// ---- declaration commands (declare, local, export, readonly, typeset) ---------

function runDecl(sh: Shell, cmd: DeclCommand): number {
  debugTrap(sh, cmd);
  const ctx = expandContext(sh);
  // Words are expanded as arguments; assignment arguments are not split or globbed. All are
  // expanded before the builtin runs, as in bash: `export x=$(printenv x)` does not yet see x
  // exported, and `local a=1 b=$a` gives b the $a from before.
  const args: (string | Assign)[] = [];
  for (const a of cmd.args) {
    if (a.type !== 'Assign') args.push(...expandWords([a], ctx));
    else if (!a.value) args.push(a);
    else args.push({ ...a, value: { ...a.value, parts: [{ type: 'SglQuoted', value: expandAssignValue(a.value, ctx), line: a.line, col: a.col }] } });
  }
  const restoreVars = tempAssign(sh, cmd.assigns, ctx);
  try {
    return withRedirs(sh, cmd.redirs, () => runBuiltin(sh, (s) => declare(s, cmd.variant, args, ctx), [cmd.variant]));
  } finally {
    restoreVars();
    // $_: the last argument as the builtin got it (`s=bar`; an array assignment gives its name).
    const last = args.at(-1) ?? cmd.variant;
    const value = typeof last === 'string' ? undefined : last.value?.parts[0];
    sh.lastArg = typeof last === 'string' ? last : last.array ? last.name : `${last.name}=${value?.type === 'SglQuoted' ? value.value : ''}`;
  }
}

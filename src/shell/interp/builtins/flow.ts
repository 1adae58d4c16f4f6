// exit, return, break, continue, eval, source/., exec, trap, :, true, false, let, wait.

import { Errno, strerror, SysError } from '../../../abi/errno.js';
import { NSIG, SIG_DFL, SIG_HANDLE, SIG_IGN, signalFromName, signalName } from '../../../abi/signal.js';
import { walkPath } from '../../../libc/execvp.js';
import { evalArithText } from '../../expand/index.js';
import { expandContext } from '../context.js';
import { AbortSignal, BreakSignal, ContinueSignal, ExitSignal, ReturnSignal } from '../control.js';
import { isBinary, waitFor } from '../exec.js';
import { publishFrames } from '../frames.js';
import { findJob } from '../jobspec.js';
import { exited, reap } from '../reap.js';
import type { Job } from '../state.js';
import { noOptions } from './options.js';
import type { Shell } from '../shell.js';
import { ShellError } from '../../errors.js';
import type { Builtin } from './types.js';
import { decodeShell } from '../../bytes.js';

function statusArg(sh: Shell, name: string, arg: string | undefined): number {
  if (arg === undefined) return sh.status;
  if (!/^[+-]?\d+$/.test(arg)) {
    sh.error(`${name}: ${arg}: numeric argument required`);
    return 2;
  }
  return Number(arg) & 0xff;
}

export const exit: Builtin = (sh, argv) => {
  if (argv.length > 2) {
    // bash 5.2 says so and goes on with status 1 in a script, but exits under -c.
    sh.error('exit: too many arguments');
    if (sh.modeFlags.includes('c')) throw new ExitSignal(1, true);
    return 1;
  }
  throw new ExitSignal(statusArg(sh, 'exit', argv[1]), true);
};

export const logout: Builtin = (sh, argv) => {
  if (!sh.opts.shoptOn('login_shell')) {
    sh.error("logout: not login shell: use `exit'");
    return 1;
  }
  return exit(sh, argv);
};

export const return_: Builtin = (sh, argv) => {
  if (sh.funcStack.length === 0 && sh.sourceStack.length === 0) {
    sh.error("return: can only `return' from a function or sourced script");
    return 2;
  }
  throw new ReturnSignal(statusArg(sh, 'return', argv[1]));
};

function loopLevels(sh: Shell, name: string, arg: string | undefined): number {
  if (arg !== undefined && !/^[+-]?\d+$/.test(arg)) {
    // bash treats this as fatal (status 128).
    sh.error(`${name}: ${arg}: numeric argument required`);
    throw new ExitSignal(128);
  }
  const n = arg === undefined ? 1 : Number(arg);
  if (n < 1) throw new ShellError(`${name}: ${arg}: loop count out of range`);
  return Math.min(n, sh.loopDepth);
}

function loopControl(sh: Shell, argv: string[], Signal: typeof BreakSignal | typeof ContinueSignal): number {
  if (sh.loopDepth === 0) {
    sh.error(`${argv[0]}: only meaningful in a \`for', \`while', or \`until' loop`);
    return 0;
  }
  if (argv.length > 2) {
    // bash: ends a -c shell with status 1; a script abandons the rest of the command line.
    sh.error(`${argv[0]}: too many arguments`);
    throw sh.modeFlags.includes('c') ? new ExitSignal(1) : new AbortSignal(1, false);
  }
  throw new Signal(loopLevels(sh, argv[0], argv[1]));
}

export const break_: Builtin = (sh, argv) => loopControl(sh, argv, BreakSignal);

export const continue_: Builtin = (sh, argv) => loopControl(sh, argv, ContinueSignal);

export const eval_: Builtin = (sh, argv) => {
  const args = noOptions(sh, argv, 'eval [arg ...]');
  if (typeof args === 'number') return args;
  const src = args.join(' ');
  if (!src.trim()) return 0;
  return sh.runSource(src, sh.lineno, 'eval');
};

/**
 * The file `source NAME` reads: NAME itself when it has a slash, else the
 * first readable file (not a directory) on $PATH, else — outside POSIX mode —
 * NAME in the current directory (bash).
 */
function sourcePath(sh: Shell, file: string): string {
  if (file.includes('/')) return file;
  try {
    return walkPath(file, sh.vars.environ().concat(`PATH=${sh.vars.get('PATH') ?? ''}`), (p) => {
      if ((sh.sys.stat(p).mode & 0o170000) === 0o040000) throw new SysError(Errno.ENOENT, p);
      sh.sys.access(p, 4);
      return p;
    });
  } catch (e) {
    if (!(e instanceof SysError) || sh.opts.on('posix')) throw e;
    return file;
  }
}

export const source: Builtin = (sh, given) => {
  const args = noOptions(sh, given, `${given[0]} filename [arguments]`);
  if (typeof args === 'number') return args;
  const argv = [given[0], ...args];
  const file = argv[1];
  if (file === undefined) {
    sh.error(`${argv[0]}: filename argument required`);
    return 2;
  }
  let text: string;
  try {
    text = decodeShell(sh.sys.readFile(sourcePath(sh, file)));
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    sh.error(`${file}: ${strerror(e.errno === Errno.EACCES ? Errno.ENOENT : e.errno)}`);
    return 1;
  }
  const positional = sh.positional;
  if (argv.length > 2) sh.positional = argv.slice(2);
  sh.sourceStack.push(file);
  sh.frames.push({ name: 'source', source: file, line: sh.lineno, fn: false });
  publishFrames(sh);
  try {
    let status: number;
    try {
      status = sh.runSource(text);
    } catch (e) {
      if (!(e instanceof ReturnSignal)) throw e;
      status = e.status;
    }
    // The RETURN trap also runs when a sourced file ends.
    sh.runTrap('RETURN');
    return status;
  } finally {
    sh.sourceStack.pop();
    sh.frames.pop();
    publishFrames(sh);
    if (argv.length > 2) sh.positional = positional;
  }
};

export const exec: Builtin = (sh, argv) => {
  const args = argv.slice(1);
  // -a NAME: the program's argv[0]; -c: an empty environment; -l: a login program (`-` before argv[0]).
  let argv0: string | undefined;
  let clear = false;
  let login = false;
  while (args.length && /^-[acl]+$/.test(args[0])) {
    const flags = args.shift()!;
    if (flags.includes('c')) clear = true;
    if (flags.includes('l')) login = true;
    if (flags.includes('a')) {
      if (!args.length) {
        sh.error('exec: -a: option requires an argument');
        return 2;
      }
      argv0 = args.shift();
    }
  }
  if (args[0] === '--') args.shift();
  if (args.length === 0) return 0; // redirections only: they stay (handled by the caller not restoring)
  const env = clear ? [] : sh.vars.environ();
  const name0 = `${login ? '-' : ''}${argv0 ?? args[0]}`;
  const run = [name0, ...args.slice(1)];
  try {
    walkPath(args[0], env, (path) => {
      try {
        return sh.sys.execve(path, run, env);
      } catch (e) {
        // A file the kernel cannot run and that is not binary is a script for this shell (bash).
        if (e instanceof SysError && e.errno === Errno.ENOEXEC && !isBinary(sh, path)) return sh.sys.execve(sh.selfPath, [sh.selfPath, path, ...args.slice(1)], env);
        throw e;
      }
    });
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    if (e.errno === Errno.ENOENT && !args[0].includes('/')) sh.error(`exec: ${args[0]}: not found`);
    else sh.error(`exec: ${args[0]}: ${strerror(e.errno)}`);
    const status = e.errno === Errno.ENOENT ? 127 : 126;
    // bash: a failed exec ends a non-interactive shell; an interactive one (a session here) goes on.
    if (sh.keepGoing) return status;
    throw new ExitSignal(status);
  }
  return 0;
};

export const colon: Builtin = () => 0;
export const true_: Builtin = () => 0;
export const false_: Builtin = () => 1;

export const let_: Builtin = (sh, argv) => {
  if (argv.length < 2) {
    sh.error('let: expression expected');
    return 1;
  }
  let v = 0;
  try {
    for (const e of argv.slice(1)) v = evalArithText(e, expandContext(sh));
  } catch (e) {
    // bash names the builtin: `let: EXPR: syntax error ...`.
    if (e instanceof ShellError) throw new ShellError(`let: ${e.message}`, e.status);
    throw e;
  }
  return v === 0 ? 1 : 0;
};

const SIGNALS = ['EXIT', 'HUP', 'INT', 'QUIT', 'ILL', 'TRAP', 'ABRT', 'BUS', 'FPE', 'KILL', 'USR1', 'SEGV', 'USR2', 'PIPE', 'ALRM', 'TERM'];

function trapName(spec: string): string | null {
  if (spec === '0' || /^(SIG)?EXIT$/i.test(spec)) return 'EXIT';
  if (/^(ERR|DEBUG|RETURN)$/.test(spec)) return spec;
  const n = signalFromName(spec);
  return n === undefined ? null : signalName(n).replace(/^SIG/, '');
}

/** Per shell: the disposition each trapped signal had before its first trap, restored by `trap - SIG`. */
const savedDispositions = new WeakMap<Shell, Map<number, number>>();
const dispatching = new WeakSet<Shell>();

/**
 * Run trap actions for caught signals. The process runtime calls
 * `sys.raw.onSignals` after a syscall when the kernel holds caught signals;
 * the shell takes over that hook: signals with a trap run their action
 * (with $? preserved), and any others are raised again and handed to the
 * runtime's own handlers (a session shell's SIGINT).
 */
function installDispatcher(sh: Shell): void {
  if (dispatching.has(sh)) return;
  dispatching.add(sh);
  const raw = sh.sys.raw;
  const runtime = raw.onSignals;
  let busy = false;
  raw.onSignals = () => {
    if (busy) return;
    busy = true;
    const mine: number[] = [];
    let others = 0;
    try {
      const set = raw.call('sigtake') as number;
      for (let sig = 1; sig < NSIG; sig++) {
        if (!(set & (1 << sig))) continue;
        const action = sh.traps.get(signalName(sig).replace(/^SIG/, ''));
        if (action) mine.push(sig);
        else others |= 1 << sig;
      }
      if (others && runtime) {
        const pid = sh.sys.getpid();
        for (let sig = 1; sig < NSIG; sig++) if (others & (1 << sig)) sh.sys.kill(pid, sig);
      }
    } finally {
      busy = false;
    }
    if (runtime && others) runtime();
    for (const sig of mine) {
      const action = sh.traps.get(signalName(sig).replace(/^SIG/, ''));
      if (!action) continue;
      busy = true; // signals arriving meanwhile wait for this action to finish
      const saved = sh.status;
      try {
        sh.runSource(action);
      } finally {
        busy = false;
      }
      sh.status = saved;
    }
    raw.pollSignals();
  };
}

function setDisposition(sh: Shell, sig: number, action: string | undefined): void {
  let saved = savedDispositions.get(sh);
  if (!saved) savedDispositions.set(sh, (saved = new Map()));
  const disp = action === undefined ? (saved.get(sig) ?? SIG_DFL) : action === '' ? SIG_IGN : SIG_HANDLE;
  if (disp === SIG_HANDLE) installDispatcher(sh);
  try {
    const old = sh.sys.sigaction(sig, disp);
    if (!saved.has(sig)) saved.set(sig, old);
    if (action === undefined) saved.delete(sig);
  } catch {
    /* KILL/STOP cannot be trapped */
  }
}

/** bash lists traps by signal number (EXIT is 0), then DEBUG, ERR and RETURN. */
function trapOrder(sig: string): number {
  const pseudo = ['EXIT', 'DEBUG', 'ERR', 'RETURN'].indexOf(sig);
  return pseudo === 0 ? 0 : pseudo > 0 ? NSIG + pseudo : (signalFromName(sig) ?? NSIG);
}

function printTrap(sh: Shell, sig: string, action: string): void {
  sh.out(`trap -- '${action.replace(/'/g, "'\\''")}' ${/^(EXIT|ERR|DEBUG|RETURN)$/.test(sig) ? sig : `SIG${sig}`}\n`);
}

export const trap: Builtin = (sh, argv) => {
  const args = argv.slice(1);
  if (args[0] === '--') args.shift();
  if (args.length === 0 || args[0] === '-p') {
    const want = args.slice(1);
    const traps = sh.shownTraps ?? sh.traps;
    if (!want.length) for (const [sig, action] of [...traps].sort((a, b) => trapOrder(a[0]) - trapOrder(b[0]))) printTrap(sh, sig, action);
    for (const spec of want) {
      const name = trapName(spec);
      if (!name) {
        sh.error(`trap: ${spec}: invalid signal specification`);
        return 1;
      }
      const action = traps.get(name);
      if (action !== undefined) printTrap(sh, name, action);
    }
    return 0;
  }
  if (args[0] === '-l') {
    sh.out(SIGNALS.slice(1).map((s, i) => `${i + 1}) SIG${s}`).join(' ') + '\n');
    return 0;
  }
  if (/^-./.test(args[0])) {
    sh.error(`trap: ${args[0]}: invalid option`);
    sh.write(2, 'trap: usage: trap [-lp] [[arg] signal_spec ...]\n');
    return 2;
  }
  // Setting a trap ends a subshell's view of its parent's.
  sh.shownTraps = null;
  // A single argument, or a first argument that is a number, resets the signals named.
  const reset = args.length === 1 || /^\d+$/.test(args[0]);
  const action = reset ? '-' : args[0];
  let status = 0;
  for (const spec of reset && args[0] !== '-' ? args : args.slice(1)) {
    const name = trapName(spec);
    if (!name) {
      sh.error(`trap: ${spec}: invalid signal specification`);
      status = 1;
      continue;
    }
    if (action === '-') sh.traps.delete(name);
    else sh.traps.set(name, action);
    const sig = signalFromName(name);
    if (sig !== undefined && name !== 'EXIT') setDisposition(sh, sig, action === '-' ? undefined : action);
  }
  return status;
};

export const wait: Builtin = (sh, argv) => {
  const ids = argv.slice(1);
  let next = false;
  while (ids.length && /^-./.test(ids[0])) {
    const a = ids.shift()!;
    if (a === '--') break;
    if (/^-[fn]+$/.test(a)) {
      next ||= a.includes('n');
      continue;
    }
    sh.error(`wait: ${a.slice(0, 2)}: invalid option`);
    sh.write(2, 'wait: usage: wait [-fn] [-p var] [id ...]\n');
    return 2;
  }
  reap(sh);
  if (ids.length === 0) {
    // Without ids: every job (status 0; bash then forgets the statuses it kept), or with -n the next one to end.
    if (next) return waitNext(sh, null);
    for (const job of sh.jobs) for (const pid of job.pids) waitFor(sh, pid);
    sh.jobs = [];
    sh.reaped.clear();
    return 0;
  }
  let status = next ? 127 : 0;
  const wanted = new Set<number>();
  for (const id of ids) {
    if (!id.startsWith('%') && !/^\d+$/.test(id)) {
      sh.error(`wait: \`${id}': not a pid or valid job spec`);
      if (!next) status = 1;
      continue;
    }
    const job = id.startsWith('%') ? findJob(sh.jobs, id) : undefined;
    const pid = id.startsWith('%') ? job?.pids.at(-1) : Number(id);
    if (pid === undefined) {
      sh.error(`wait: ${id}: no such job`);
      status = 127;
      continue;
    }
    const known = sh.jobs.some((j) => j.pids.includes(pid)) || sh.procSubsts.some((p) => p.pid === pid) || sh.unreaped.has(pid) || sh.reaped.has(pid);
    if (!known && pid !== sh.lastBg) {
      sh.error(`wait: pid ${pid} is not a child of this shell`);
      status = 127;
      continue;
    }
    if (next) {
      for (const p of job?.pids ?? [pid]) wanted.add(p);
      continue;
    }
    // A job's status is its last process's; the others are reaped with it.
    for (const p of job?.pids ?? [pid]) status = waitFor(sh, p);
    sh.jobs = sh.jobs.filter((j) => !j.pids.includes(pid));
  }
  if (next && wanted.size) return waitNext(sh, wanted);
  return status;
};

/**
 * wait -n: the status of the next job (of those holding `pids`, if given) to
 * finish, one that already has first (bash); 127 when none is left.
 */
function waitNext(sh: Shell, pids: Set<number> | null): number {
  const mine = (j: Job) => !pids || j.pids.some((p) => pids.has(p));
  for (;;) {
    const done = sh.jobs.find((j) => j.status === 'Done' && mine(j));
    if (done) {
      sh.jobs = sh.jobs.filter((j) => j !== done);
      return done.exit ?? 0;
    }
    if (!sh.jobs.some(mine)) return 127;
    try {
      const [pid, raw] = sh.sys.waitpid(-1, 0);
      exited(sh, pid, raw);
    } catch (e) {
      if (e instanceof SysError && e.errno === Errno.EINTR) continue;
      if (e instanceof SysError && e.errno === Errno.ECHILD) return 127;
      throw e;
    }
  }
}

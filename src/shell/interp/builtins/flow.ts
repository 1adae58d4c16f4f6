// exit, return, break, continue, eval, source/., exec, trap, :, true, false, let, wait.

import { Errno, strerror, SysError } from '../../../abi/errno.js';
import { signalFromName, signalName } from '../../../abi/signal.js';
import { walkPath } from '../../../user/execvp.js';
import { evalArithText } from '../../expand/index.js';
import { expandContext } from '../context.js';
import { BreakSignal, ContinueSignal, ExitSignal, ReturnSignal } from '../control.js';
import { waitFor } from '../exec.js';
import type { Shell } from '../shell.js';
import { ShellError } from '../vars.js';
import type { Builtin } from './types.js';

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
    sh.error('exit: too many arguments');
    return 1;
  }
  throw new ExitSignal(statusArg(sh, 'exit', argv[1]));
};

export const return_: Builtin = (sh, argv) => {
  if (sh.funcStack.length === 0 && sh.sourceStack.length === 0) {
    sh.error("return: can only `return' from a function or sourced script");
    return 1;
  }
  throw new ReturnSignal(statusArg(sh, 'return', argv[1]));
};

function loopLevels(sh: Shell, name: string, arg: string | undefined): number {
  const n = arg === undefined ? 1 : Number(arg);
  if (!Number.isInteger(n) || n < 1) throw new ShellError(`${name}: ${arg}: loop count out of range`);
  return Math.min(n, sh.loopDepth);
}

export const break_: Builtin = (sh, argv) => {
  if (sh.loopDepth === 0) return 0;
  throw new BreakSignal(loopLevels(sh, 'break', argv[1]));
};

export const continue_: Builtin = (sh, argv) => {
  if (sh.loopDepth === 0) return 0;
  throw new ContinueSignal(loopLevels(sh, 'continue', argv[1]));
};

export const eval_: Builtin = (sh, argv) => {
  const src = argv.slice(1).join(' ');
  if (!src.trim()) return 0;
  return sh.runSource(src, sh.lineno);
};

export const source: Builtin = (sh, argv) => {
  const file = argv[1];
  if (file === undefined) {
    sh.error(`${argv[0]}: filename argument required`);
    return 2;
  }
  let text: string;
  try {
    const path = file.includes('/') ? file : walkPath(file, sh.vars.environ().concat(`PATH=${sh.vars.get('PATH') ?? ''}`), (p) => {
      sh.sys.access(p, 4);
      return p;
    });
    text = new TextDecoder().decode(sh.sys.readFile(path));
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    sh.error(`${file}: ${strerror(e.errno === Errno.EACCES ? Errno.ENOENT : e.errno)}`);
    return 1;
  }
  const positional = sh.positional;
  if (argv.length > 2) sh.positional = argv.slice(2);
  sh.sourceStack.push(file);
  try {
    return sh.runSource(text);
  } catch (e) {
    if (e instanceof ReturnSignal) return e.status;
    throw e;
  } finally {
    sh.sourceStack.pop();
    if (argv.length > 2) sh.positional = positional;
  }
};

export const exec: Builtin = (sh, argv) => {
  const args = argv.slice(1).filter((a, i) => !(i === 0 && a === '--'));
  if (args.length === 0) return 0; // redirections only: they stay (handled by the caller not restoring)
  const env = sh.vars.environ();
  try {
    walkPath(args[0], env, (path) => sh.sys.execve(path, args, env));
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    if (e.errno === Errno.ENOENT && !args[0].includes('/')) sh.error(`${args[0]}: command not found`);
    else sh.error(`${args[0]}: ${strerror(e.errno)}`);
    throw new ExitSignal(e.errno === Errno.ENOENT ? 127 : 126);
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
  for (const e of argv.slice(1)) v = evalArithText(e, expandContext(sh));
  return v === 0 ? 1 : 0;
};

const SIGNALS = ['EXIT', 'HUP', 'INT', 'QUIT', 'ILL', 'TRAP', 'ABRT', 'BUS', 'FPE', 'KILL', 'USR1', 'SEGV', 'USR2', 'PIPE', 'ALRM', 'TERM'];

function trapName(spec: string): string | null {
  if (spec === '0' || /^(SIG)?EXIT$/i.test(spec)) return 'EXIT';
  if (/^(ERR|DEBUG|RETURN)$/.test(spec)) return spec;
  const n = signalFromName(spec);
  return n === undefined ? null : signalName(n).replace(/^SIG/, '');
}

export const trap: Builtin = (sh, argv) => {
  const args = argv.slice(1).filter((a) => a !== '--');
  if (args.length === 0 || args[0] === '-p') {
    for (const [sig, action] of sh.traps) sh.out(`trap -- '${action.replace(/'/g, "'\\''")}' ${sig === 'EXIT' ? 'EXIT' : `SIG${sig}`}\n`);
    return 0;
  }
  if (args[0] === '-l') {
    sh.out(SIGNALS.slice(1).map((s, i) => `${i + 1}) SIG${s}`).join(' ') + '\n');
    return 0;
  }
  const single = args.length === 1;
  const action = single ? '-' : args[0];
  let status = 0;
  for (const spec of single ? args : args.slice(1)) {
    const name = trapName(spec);
    if (!name) {
      sh.error(`trap: ${spec}: invalid signal specification`);
      status = 1;
      continue;
    }
    if (action === '-') sh.traps.delete(name);
    else sh.traps.set(name, action);
    const sig = signalFromName(name);
    if (sig !== undefined && name !== 'EXIT') {
      try {
        // Ignored signals are ignored by the kernel too, so children inherit it.
        sh.sys.sigaction(sig, action === '' ? 1 : 0);
      } catch {
        /* KILL/STOP */
      }
    }
  }
  return status;
};

export const wait: Builtin = (sh, argv) => {
  const ids = argv.slice(1).filter((a) => a !== '-n');
  if (ids.length === 0) {
    let status = 0;
    for (const job of sh.jobs) for (const pid of job.pids) status = waitFor(sh, pid);
    sh.jobs = [];
    return status;
  }
  let status = 0;
  for (const id of ids) {
    const pid = id.startsWith('%') ? sh.jobs.find((j) => j.id === Number(id.slice(1)))?.pids.at(-1) : Number(id);
    if (!pid) {
      sh.error(`wait: ${id}: no such job`);
      status = 127;
      continue;
    }
    status = waitFor(sh, pid);
    sh.jobs = sh.jobs.filter((j) => !j.pids.includes(pid));
  }
  return status;
};

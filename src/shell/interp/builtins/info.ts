// type, command, hash, help, alias/unalias, getopts, umask, ulimit, times,
// jobs/fg/bg, kill, history.

import { strerror, SysError } from '../../../abi/errno.js';
import { defaultAction, signalFromName, signalName } from '../../../abi/signal.js';
import { SignalDeath } from '../control.js';
import { candidates } from '../../../user/execvp.js';
import { printFunction } from '../../syntax/index.js';
import { invoke } from '../exec.js';
import type { Shell } from '../shell.js';
import type { Builtin } from './types.js';
import { historyBuiltin } from '../../interactive/history-builtin.js';
import { BUILTINS, SPECIAL_BUILTINS } from './index.js';

const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', '{', '}', '!', '[[', ']]', 'coproc']);

/** The executable file a name resolves to, if any (first executable regular file on $PATH). */
export function findFile(sh: Shell, name: string): string | null {
  const env = [`PATH=${sh.vars.get('PATH') ?? ''}`];
  for (const path of candidates(name, env)) {
    try {
      const st = sh.sys.stat(path);
      if ((st.mode & 0o170000) !== 0o100000) continue;
      sh.sys.access(path, 1);
      return path;
    } catch {
      /* next */
    }
  }
  return null;
}

type Kind = 'alias' | 'keyword' | 'function' | 'builtin' | 'file';

function kinds(sh: Shell, name: string): [Kind, string][] {
  const out: [Kind, string][] = [];
  if (sh.aliases.has(name)) out.push(['alias', sh.aliases.get(name)!]);
  if (KEYWORDS.has(name)) out.push(['keyword', name]);
  if (sh.functions.has(name)) out.push(['function', printFunction(sh.functions.get(name)!)]);
  if (BUILTINS[name] || SPECIAL_BUILTINS.has(name)) out.push(['builtin', name]);
  const f = findFile(sh, name);
  if (f) out.push(['file', f]);
  return out;
}

export const type: Builtin = (sh, argv) => {
  let flag = '';
  let all = false;
  const names: string[] = [];
  for (const a of argv.slice(1)) {
    if (/^-[atpP]+$/.test(a)) {
      if (a.includes('a')) all = true;
      flag = a.replace('a', '').slice(1) || flag;
    } else names.push(a);
  }
  let status = 0;
  for (const n of names) {
    const ks = kinds(sh, n);
    if (!ks.length) {
      if (!flag) sh.error(`type: ${n}: not found`);
      status = 1;
      continue;
    }
    for (const [k, v] of all ? ks : ks.slice(0, 1)) {
      if (flag === 't') sh.out(`${k}\n`);
      else if (flag === 'p' || flag === 'P') {
        if (k === 'file') sh.out(`${v}\n`);
      } else if (k === 'alias') sh.out(`${n} is aliased to \`${v}'\n`);
      else if (k === 'keyword') sh.out(`${n} is a shell keyword\n`);
      else if (k === 'function') sh.out(`${n} is a function\n${v}\n`);
      else if (k === 'builtin') sh.out(`${n} is a shell builtin\n`);
      else sh.out(`${n} is ${v}\n`);
    }
  }
  return status;
};

export const command: Builtin = (sh, argv) => {
  let i = 1;
  let mode = '';
  for (; i < argv.length && /^-[pvV]+$/.test(argv[i]); i++) mode += argv[i].slice(1);
  if (argv[i] === '--') i++;
  const args = argv.slice(i);
  if (!args.length) return 0;
  if (mode.includes('v') || mode.includes('V')) {
    let status = 0;
    for (const n of args) {
      const [k] = kinds(sh, n).filter(([kind]) => kind !== 'function' || true);
      if (!k) {
        if (mode.includes('V')) sh.error(`command: ${n}: not found`);
        status = 1;
        continue;
      }
      if (mode.includes('V')) {
        sh.out(k[0] === 'file' ? `${n} is ${k[1]}\n` : k[0] === 'builtin' ? `${n} is a shell builtin\n` : k[0] === 'keyword' ? `${n} is a shell keyword\n` : k[0] === 'alias' ? `${n} is aliased to \`${k[1]}'\n` : `${n} is a function\n`);
      } else sh.out(k[0] === 'file' ? `${k[1]}\n` : k[0] === 'alias' ? `alias ${n}='${k[1]}'\n` : `${n}\n`);
    }
    return status;
  }
  // Skip functions: look up builtins, then the filesystem.
  const fns = sh.functions;
  sh.functions = new Map();
  try {
    return invoke(sh, args, [], []);
  } finally {
    sh.functions = fns;
  }
};

export const hash: Builtin = (sh, argv) => {
  // No cache to manage (seed 000: every lookup asks the filesystem); -r is accepted.
  for (const n of argv.slice(1).filter((a) => !a.startsWith('-'))) {
    if (!findFile(sh, n)) {
      sh.error(`hash: ${n}: not found`);
      return 1;
    }
  }
  if (argv.length === 1) sh.out('hash: hash table empty\n');
  return 0;
};

export const help: Builtin = (sh, argv) => {
  const names = Object.keys(BUILTINS).concat([...SPECIAL_BUILTINS]).sort();
  const want = argv[1];
  if (want && !names.includes(want)) {
    sh.error(`help: no help topics match \`${want}'.  Try \`help help' or \`man -k ${want}' or \`info ${want}'.`);
    return 1;
  }
  sh.out(`agentos-shell, a bash-compatible shell for agentOS.\nThese shell commands are defined internally:\n\n${names.filter((n) => !want || n === want).join('\n')}\n`);
  return 0;
};

export const alias: Builtin = (sh, argv) => {
  const args = argv.slice(1).filter((a) => a !== '-p');
  if (!args.length) {
    for (const [k, v] of [...sh.aliases].sort()) sh.out(`alias ${k}='${v.replace(/'/g, "'\\''")}'\n`);
    return 0;
  }
  let status = 0;
  for (const a of args) {
    const eq = a.indexOf('=');
    if (eq > 0) sh.aliases.set(a.slice(0, eq), a.slice(eq + 1));
    else if (sh.aliases.has(a)) sh.out(`alias ${a}='${sh.aliases.get(a)!.replace(/'/g, "'\\''")}'\n`);
    else {
      sh.error(`alias: ${a}: not found`);
      status = 1;
    }
  }
  return status;
};

export const unalias: Builtin = (sh, argv) => {
  if (argv[1] === '-a') {
    sh.aliases.clear();
    return 0;
  }
  let status = 0;
  for (const a of argv.slice(1)) {
    if (!sh.aliases.delete(a)) {
      sh.error(`unalias: ${a}: not found`);
      status = 1;
    }
  }
  return status;
};

export const getopts: Builtin = (sh, argv) => {
  const [, spec, name, ...given] = argv;
  if (spec === undefined || name === undefined) {
    sh.error('getopts: usage: getopts optstring name [arg ...]');
    return 2;
  }
  const args = given.length ? given : sh.positional;
  const silent = spec.startsWith(':');
  const optspec = silent ? spec.slice(1) : spec;
  let optind = Number(sh.vars.get('OPTIND') ?? '1') || 1;
  const sub = Number(sh.vars.get('__OPTSUB') ?? '1') || 1;
  const arg = args[optind - 1];
  if (arg === undefined || arg === '-' || !arg.startsWith('-') || arg === '--') {
    if (arg === '--') sh.vars.set('OPTIND', String(optind + 1));
    sh.vars.set(name, '?');
    return 1;
  }
  const c = arg[sub];
  let nextSub = sub + 1;
  const advance = () => {
    if (nextSub >= arg.length) {
      optind++;
      nextSub = 1;
    }
  };
  const idx = optspec.indexOf(c);
  if (idx < 0 || c === ':') {
    advance();
    sh.vars.set(name, '?');
    if (silent) sh.vars.set('OPTARG', c);
    else {
      sh.vars.unset('OPTARG');
      sh.write(2, `${sh.errorName}: illegal option -- ${c}\n`);
    }
  } else if (optspec[idx + 1] === ':') {
    let value: string | undefined;
    if (sub + 1 < arg.length) value = arg.slice(sub + 1);
    else value = args[optind++];
    optind++;
    nextSub = 1;
    if (value === undefined) {
      optind--;
      if (silent) {
        sh.vars.set(name, ':');
        sh.vars.set('OPTARG', c);
      } else {
        sh.vars.set(name, '?');
        sh.vars.unset('OPTARG');
        sh.write(2, `${sh.errorName}: option requires an argument -- ${c}\n`);
      }
    } else {
      sh.vars.set(name, c);
      sh.vars.set('OPTARG', value);
    }
  } else {
    advance();
    sh.vars.set(name, c);
    sh.vars.unset('OPTARG');
  }
  sh.vars.set('OPTIND', String(optind));
  sh.vars.set('__OPTSUB', String(nextSub));
  return 0;
};

export const umask: Builtin = (sh, argv) => {
  const arg = argv.filter((a) => a !== '-S')[1];
  if (arg === undefined) {
    const m = sh.sys.umask(0);
    sh.sys.umask(m);
    if (argv.includes('-S')) {
      const p = (shift: number) => ['r', 'w', 'x'].filter((_, i) => !((m >> shift) & (4 >> i))).join('');
      sh.out(`u=${p(6)},g=${p(3)},o=${p(0)}\n`);
    } else sh.out(`${m.toString(8).padStart(4, '0')}\n`);
    return 0;
  }
  if (!/^[0-7]{1,4}$/.test(arg)) {
    sh.error(`umask: ${arg}: octal number out of range`);
    return 1;
  }
  sh.sys.umask(parseInt(arg, 8));
  return 0;
};

export const ulimit: Builtin = (sh, argv) => {
  // Resource limits are the VM policy's (the permissions issue); report unlimited honestly.
  if (argv.includes('-a')) sh.out('core file size          (blocks, -c) 0\nopen files                      (-n) 1024\nprocesses                       (-u) unlimited\n');
  else if (argv.includes('-n')) sh.out('1024\n');
  else sh.out('unlimited\n');
  return 0;
};

export const times: Builtin = (sh) => {
  sh.out('0m0.000s 0m0.000s\n0m0.000s 0m0.000s\n');
  return 0;
};

export const jobs: Builtin = (sh, argv) => {
  if (sh.terminal) return sh.terminal.jobs(argv);
  for (const j of sh.jobs) sh.out(`[${j.id}]  ${j.status.padEnd(24)}${j.command}\n`);
  return 0;
};

export const fg: Builtin = (sh, argv) => {
  if (sh.terminal) return argv[0] === 'bg' ? sh.terminal.bg(argv) : sh.terminal.fg(argv);
  sh.error(`${argv[0]}: no job control`);
  return 1;
};

export const kill: Builtin = (sh, argv) => {
  let sig = 15;
  const args = argv.slice(1);
  if (args[0] === '-l' || args[0] === '-L') {
    if (args[1]) {
      const n = Number(args[1]);
      sh.out(`${Number.isInteger(n) ? (n === 0 ? 'EXIT' : signalName(n > 128 ? n - 128 : n).replace(/^SIG/, '')) : signalFromName(args[1])}\n`);
    } else sh.out(Array.from({ length: 31 }, (_, i) => signalName(i + 1).replace(/^SIG/, '')).join(' ') + '\n');
    return 0;
  }
  if (args[0] === '-s' || args[0] === '-n') {
    const s = killSignal(args[1] ?? '');
    if (s === undefined) {
      sh.error(`kill: ${args[1]}: invalid signal specification`);
      return 1;
    }
    sig = s;
    args.splice(0, 2);
  } else if (args[0]?.startsWith('-') && args[0] !== '--') {
    const s = killSignal(args[0].slice(1));
    if (s === undefined) {
      sh.error(`kill: ${args[0].slice(1)}: invalid signal specification`);
      return 1;
    }
    sig = s;
    args.shift();
  }
  if (args[0] === '--') args.shift();
  if (!args.length) {
    sh.error('kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]');
    return 2;
  }
  let status = 0;
  for (const a of args) {
    const job = a.startsWith('%') ? sh.jobs.find((j) => j.id === Number(a.slice(1))) : undefined;
    // A job with its own process group (job control) is signalled as a whole.
    const pid = a.startsWith('%') ? (job?.pgid ? -job.pgid : job?.pids[0]) : Number(a);
    if (pid === undefined || !Number.isInteger(pid)) {
      sh.error(`kill: ${a}: arguments must be process or job IDs`);
      status = 1;
      continue;
    }
    if (sh.fakePid && pid === sh.fakePid) {
      signalInProcessSubshell(sh, sig);
      continue;
    }
    try {
      sh.sys.kill(pid, sig);
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
      sh.error(`kill: (${a}) - ${strerror(e.errno)}`);
      status = 1;
    }
  }
  return status;
};

/** A signal for kill: a name or number, or 0 (no signal: is the process there, may I signal it?). */
const killSignal = (spec: string): number | undefined => (spec === '0' ? 0 : signalFromName(spec));

export const history: Builtin = (sh, argv) => (sh.history ? historyBuiltin(sh, sh.history, argv) : 0);

/**
 * A signal sent to $BASHPID of a subshell that runs in-process (it has no
 * process of its own): run its trap, or end the subshell as the signal's
 * default action would (status 128+N).
 */
function signalInProcessSubshell(sh: Shell, sig: number): void {
  if (sig === 0) return;
  const action = sh.traps.get(signalName(sig).replace(/^SIG/, ''));
  if (action !== undefined) {
    if (action === '') return;
    const saved = sh.status;
    sh.runSource(action);
    sh.status = saved;
    return;
  }
  const what = defaultAction(sig);
  if (what === 'term' || what === 'core') throw new SignalDeath(sig);
}

/**
 * Builtins turned off with `enable -n`. They are taken out of the builtin
 * table itself (which the interpreter consults), so a disabled name resolves
 * as a program, as in bash. The table is per process; an in-process $(...)
 * shares it.
 */
const disabled = new Map<string, { fn: Builtin; special: boolean }>();

export const enable: Builtin = (sh, argv) => {
  let off = false;
  let all = false;
  const names: string[] = [];
  for (const a of argv.slice(1)) {
    if (/^-[nap]+$/.test(a)) {
      if (a.includes('n')) off = true;
      if (a.includes('a')) all = true;
    } else if (a === '--') continue;
    else if (a.startsWith('-')) {
      sh.error(`enable: ${a}: invalid option`);
      sh.write(2, 'enable: usage: enable [-a] [-dnps] [-f filename] [name ...]\n');
      return 2;
    } else names.push(a);
  }
  if (!names.length) {
    const on = Object.keys(BUILTINS).map((n) => [n, true] as const);
    const offList = [...disabled.keys()].map((n) => [n, false] as const);
    const list = (all ? [...on, ...offList] : off ? offList : on).sort((a, b) => (a[0] < b[0] ? -1 : 1));
    for (const [n, isOn] of list) sh.out(`enable ${isOn ? '' : '-n '}${n}\n`);
    return 0;
  }
  let status = 0;
  for (const n of names) {
    if (off && BUILTINS[n]) {
      disabled.set(n, { fn: BUILTINS[n], special: SPECIAL_BUILTINS.has(n) });
      delete BUILTINS[n];
      SPECIAL_BUILTINS.delete(n);
    } else if (!off && disabled.has(n)) {
      const d = disabled.get(n)!;
      BUILTINS[n] = d.fn;
      if (d.special) SPECIAL_BUILTINS.add(n);
      disabled.delete(n);
    } else if (!BUILTINS[n]) {
      sh.error(`enable: ${n}: not a shell builtin`);
      status = 1;
    }
  }
  return status;
};

/** caller [N]: where the running function was called from (LINE FILE, or LINE FUNCTION FILE with N). */
export const caller: Builtin = (sh, argv) => {
  if (sh.funcStack.length === 0) return 1;
  const file = sh.sourceStack.at(-1);
  if (argv[1] === undefined) {
    sh.out(`${sh.lineno} ${file ?? 'NULL'}\n`);
    return 0;
  }
  const n = Number(argv[1]);
  if (!/^\d+$/.test(argv[1])) {
    sh.error(`caller: ${argv[1]}: invalid number`);
    sh.write(2, 'caller: usage: caller [expr]\n');
    return 2;
  }
  // Without a source file (bash -c) bash has no frames to describe.
  const fn = sh.funcStack.length - 2 - n >= -1 ? (sh.funcStack[sh.funcStack.length - 2 - n] ?? 'main') : undefined;
  if (file === undefined || fn === undefined) return 1;
  sh.out(`${sh.lineno} ${fn} ${file}\n`);
  return 0;
};

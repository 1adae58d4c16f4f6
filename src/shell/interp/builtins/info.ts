// type, command, hash, help, alias/unalias, getopts, umask, ulimit, times,
// jobs/fg/bg, kill, history.

import { DEFAULT_PATH } from '../../../abi/env.js';
import { strerror, SysError } from '../../../abi/errno.js';
import { defaultAction, NSIG, signalFromName, signalName } from '../../../abi/signal.js';
import { SignalDeath } from '../control.js';
import { candidates } from '../../../user/execvp.js';
import { printFunction } from '../../syntax/index.js';
import { invoke } from '../exec.js';
import type { Shell } from '../shell.js';
import { findJob } from '../jobspec.js';
import { noOptions } from './options.js';
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
  let noFunctions = false;
  const names: string[] = [];
  for (const a of argv.slice(1)) {
    if (/^-[aftpP]+$/.test(a)) {
      if (a.includes('a')) all = true;
      if (a.includes('f')) noFunctions = true;
      flag = a.replace(/[af]/g, '').slice(1) || flag;
    } else names.push(a);
  }
  let status = 0;
  for (const n of names) {
    let ks = kinds(sh, n);
    // -f skips functions; -P searches PATH whatever else the name is.
    if (noFunctions) ks = ks.filter(([k]) => k !== 'function');
    if (flag === 'P') ks = ks.filter(([k]) => k === 'file');
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
    // Success when any name is found (bash).
    let found = false;
    for (const n of args) {
      const [k] = kinds(sh, n);
      if (!k) {
        if (mode.includes('V')) sh.error(`command: ${n}: not found`);
        continue;
      }
      found = true;
      if (mode.includes('V')) {
        const fn = sh.functions.get(n);
        sh.out(k[0] === 'file' ? `${n} is ${k[1]}\n` : k[0] === 'builtin' ? `${n} is a shell builtin\n` : k[0] === 'keyword' ? `${n} is a shell keyword\n` : k[0] === 'alias' ? `${n} is aliased to \`${k[1]}'\n` : `${n} is a function\n${fn ? `${printFunction(fn)}\n` : ''}`);
      } else sh.out(k[0] === 'file' ? `${k[1]}\n` : k[0] === 'alias' ? `alias ${n}='${k[1]}'\n` : `${n}\n`);
    }
    return found ? 0 : 1;
  }
  // Not a function: a builtin, else a program — found on the default PATH under -p.
  if (!mode.includes('p')) return invoke(sh, args, [], [], false, false);
  sh.vars.pushScope();
  try {
    sh.vars.set('PATH', DEFAULT_PATH, { local: true });
    sh.vars.lookup('PATH')!.exported = true;
    return invoke(sh, args, [], [], false, false);
  } finally {
    sh.vars.popScope();
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
  if (args[0] === '--') args.shift();
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
  const names = noOptions(sh, argv, 'unalias [-a] name [name ...]');
  if (typeof names === 'number') return names;
  if (!names.length) {
    sh.write(2, 'unalias: usage: unalias [-a] name [name ...]\n');
    return 2;
  }
  let status = 0;
  for (const a of names) {
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
    // The end: OPTIND names the first operand (never past the end), OPTARG is unset.
    sh.vars.set('OPTIND', String(arg === '--' ? optind + 1 : Math.min(optind, args.length + 1)));
    sh.vars.set(name, '?');
    sh.vars.unset('OPTARG');
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
  const args = argv.slice(1);
  let symbolic = false;
  let reusable = false;
  while (args.length && /^-./.test(args[0])) {
    const a = args.shift()!;
    if (a === '--') break;
    if (!/^-[Sp]+$/.test(a)) {
      sh.error(`umask: ${a.slice(0, 2)}: invalid option`);
      sh.write(2, 'umask: usage: umask [-p] [-S] [mode]\n');
      return 2;
    }
    symbolic ||= a.includes('S');
    reusable ||= a.includes('p');
  }
  const current = sh.sys.umask(0);
  sh.sys.umask(current);
  const arg = args[0];
  if (arg === undefined) {
    const p = (shift: number) => ['r', 'w', 'x'].filter((_, i) => !((current >> shift) & (4 >> i))).join('');
    const text = symbolic ? `u=${p(6)},g=${p(3)},o=${p(0)}` : current.toString(8).padStart(4, '0');
    sh.out(`${reusable ? `umask ${symbolic ? '-S ' : ''}` : ''}${text}\n`);
    return 0;
  }
  let mask: number;
  if (/^[0-7]/.test(arg)) {
    if (!/^[0-7]+$/.test(arg) || parseInt(arg, 8) > 0o7777) {
      sh.error(`umask: ${arg}: octal number out of range`);
      return 1;
    }
    mask = parseInt(arg, 8);
  } else {
    const allowed = symbolicMode(sh, arg, ~current & 0o777);
    if (allowed === null) return 1;
    mask = ~allowed & 0o777;
  }
  sh.sys.umask(mask);
  return 0;
};

/**
 * A symbolic mode (`u=rwx,g-w,o=`, `a=u`) applied to the permissions a umask
 * lets through: clauses of who (ugoa, none = all), one operator (+ - =), then
 * rwx letters or one of ugo (a class to copy). null: an error, reported.
 */
function symbolicMode(sh: Shell, mode: string, bits: number): number | null {
  const CLASS: Record<string, number> = { u: 0o700, g: 0o070, o: 0o007, a: 0o777 };
  const LETTER: Record<string, number> = { r: 0o444, w: 0o222, x: 0o111 };
  const initial = bits;
  let i = 0;
  for (;;) {
    let who = 0;
    while (i < mode.length && CLASS[mode[i]]) who |= CLASS[mode[i++]];
    const op = mode[i++];
    if (op !== '+' && op !== '-' && op !== '=') {
      sh.error(`umask: \`${op ?? ''}': invalid symbolic mode operator`);
      return null;
    }
    let perm = 0;
    let copy = false;
    if (i < mode.length && 'ugo'.includes(mode[i])) {
      // A class to copy from: bash 5.2 then leaves the mask as it was before the whole mode.
      copy = true;
      i++;
    } else while (i < mode.length && LETTER[mode[i]]) perm |= LETTER[mode[i++]];
    if (i < mode.length && mode[i] !== ',') {
      sh.error(`umask: \`${mode[i]}': invalid symbolic mode character`);
      return null;
    }
    if (who) perm &= who;
    if (copy) bits = initial;
    else if (op === '+') bits |= perm;
    else if (op === '-') bits &= ~perm;
    else bits = (bits & ~(who || 0o777)) | perm;
    if (i >= mode.length) return bits;
    i++;
  }
}

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
  // Without job control, as bash: the jobs not yet known to be done, + the current, - the previous; -p pids, -l with pids.
  const opts = argv.slice(1).filter((a) => a.startsWith('-')).join('');
  const live = sh.jobs.filter((j) => j.status !== 'Done');
  live.forEach((j, i) => {
    if (opts.includes('p')) return sh.out(`${j.pids[0]}\n`);
    const mark = i === live.length - 1 ? '+' : i === live.length - 2 ? '-' : ' ';
    const pid = opts.includes('l') ? ` ${j.pids[0]}` : ' ';
    sh.out(`[${j.id}]${mark}${pid} ${j.status.padEnd(24)}${j.command}${j.status === 'Running' ? ' &' : ''}\n`);
  });
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
    const specs = args.slice(args[1] === '--' ? 2 : 1);
    if (!specs.length) {
      sh.out(Array.from({ length: NSIG - 1 }, (_, i) => signalName(i + 1).replace(/^SIG/, '')).join(' ') + '\n');
      return 0;
    }
    // Each number to its name (an exit status 128+N to N's; 0 is EXIT), each name to its number.
    let status = 0;
    for (const a of specs) {
      const n = /^\d+$/.test(a) ? Number(a) : null;
      const sig = n === null ? (/^(SIG)?EXIT$/i.test(a) ? 0 : /^[A-Za-z]/.test(a) ? signalFromName(a) : undefined) : n > 128 ? n - 128 : n;
      if (sig === undefined || sig >= NSIG || (n === null ? false : n === 128)) {
        sh.error(`kill: ${a}: invalid signal specification`);
        status = 1;
      } else sh.out(`${n === null ? sig : sig === 0 ? 'EXIT' : signalName(sig).replace(/^SIG/, '')}\n`);
    }
    return status;
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
    const job = a.startsWith('%') ? findJob(sh.jobs, a) : undefined;
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

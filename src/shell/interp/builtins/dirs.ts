// cd, pwd, pushd, popd, dirs — logical paths ($PWD) unless -P.

import { Errno, strerror, SysError } from '../../../abi/errno.js';
import type { Shell } from '../shell.js';
import type { Builtin } from './types.js';

/** Resolve `target` against $PWD textually (cd -L), like bash; a leading `//` (exactly two) is kept (POSIX). */
/** `target` made absolute and canonical without following symlinks; null when a directory before a `..` does not exist (bash). */
function logical(base: string, target: string, isDir: (path: string) => boolean): string | null {
  const abs = target.startsWith('/');
  const parts = abs ? [] : base.split('/').filter(Boolean);
  for (const p of target.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') {
      if (parts.length && !isDir(`/${parts.join('/')}`)) return null;
      parts.pop();
    } else parts.push(p);
  }
  const root = /^\/\/(?!\/)/.test(abs ? target : base) ? '//' : '/';
  return `${root}${parts.join('/')}`;
}

function pwdOf(sh: Shell): string {
  return sh.vars.get('PWD') ?? sh.sys.getcwd();
}

/** DIRSTACK mirrors the directory stack (current directory first), once the stack is in use. */
function syncDirStack(sh: Shell): void {
  if (!sh.dirStack.length && !sh.vars.lookup('DIRSTACK')) return;
  try {
    sh.vars.setArray('DIRSTACK', [pwdOf(sh), ...sh.dirStack].map((value) => ({ key: null, value })));
  } catch {
    /* made readonly by the script */
  }
}

export function changeDir(sh: Shell, target: string, physical: boolean, name = 'cd'): number {
  const old = pwdOf(sh);
  const isDir = (path: string) => {
    try {
      return (sh.sys.stat(path).mode & 0o170000) === 0o040000;
    } catch {
      return false;
    }
  };
  const dest = physical ? target : logical(old, target, isDir);
  try {
    if (dest === null) throw new SysError(Errno.ENOENT, target);
    sh.chdir(physical ? target : dest);
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    sh.error(`${name}: ${target}: ${strerror(e.errno)}`);
    return 1;
  }
  sh.vars.set('OLDPWD', old);
  // bash exports OLDPWD once cd sets it.
  sh.vars.lookup('OLDPWD')!.exported = true;
  sh.vars.set('PWD', physical ? sh.sys.getcwd() : dest);
  syncDirStack(sh);
  return 0;
}

export const cd: Builtin = (sh, argv) => {
  let physical = sh.opts.on('physical');
  let i = 1;
  for (; i < argv.length && /^-[LPe@]+$/.test(argv[i]); i++) if (/[LP]/.test(argv[i])) physical = argv[i].replace(/[e@]/g, '').endsWith('P');
  if (argv[i] === '--') i++;
  else if (argv[i] !== undefined && /^-./.test(argv[i])) {
    sh.error(`cd: ${argv[i].slice(0, 2)}: invalid option`);
    sh.write(2, 'cd: usage: cd [-L|[-P [-e]] [-@]] [dir]\n');
    return 2;
  }
  if (argv.length - i > 1) {
    sh.error('cd: too many arguments');
    return 1;
  }
  let target = argv[i];
  let print = false;
  if (target === undefined) {
    target = sh.vars.get('HOME') ?? '';
    if (!target) {
      sh.error('cd: HOME not set');
      return 1;
    }
  } else if (target === '-') {
    target = sh.vars.get('OLDPWD') ?? '';
    if (!target) {
      sh.error('cd: OLDPWD not set');
      return 1;
    }
    print = true;
  } else if (!target.startsWith('/') && !/^\.\.?(\/|$)/.test(target)) {
    for (const dir of (sh.vars.get('CDPATH') ?? '').split(':').filter(Boolean)) {
      const cand = `${dir}/${target}`;
      try {
        if ((sh.sys.stat(cand).mode & 0o170000) === 0o040000) {
          target = cand;
          print = true;
          break;
        }
      } catch {
        /* not there */
      }
    }
  }
  const status = changeDir(sh, target, physical);
  if (status === 0 && print) sh.out(`${pwdOf(sh)}\n`);
  return status;
};

export const pwd: Builtin = (sh, argv) => {
  let physical = sh.opts.on('physical');
  for (const a of argv.slice(1)) {
    if (a === '--' || !a.startsWith('-') || a === '-') break;
    for (const c of a.slice(1)) {
      if (c === 'P') physical = true;
      else if (c === 'L') physical = false;
      else {
        sh.error(`pwd: -${c}: invalid option`);
        sh.write(2, 'pwd: usage: pwd [-LP]\n');
        return 2;
      }
    }
  }
  sh.out(`${physical ? sh.sys.getcwd() : pwdOf(sh)}\n`);
  return 0;
};

/**
 * Take the stack from DIRSTACK when it is set: child shells (pipeline stages)
 * get the variables but not the shell's own state, and bash lets scripts edit
 * stack entries through the array.
 */
function loadStack(sh: Shell): void {
  if (sh.vars.isArray('DIRSTACK')) sh.dirStack = sh.vars.values('DIRSTACK').slice(1);
}

/** The whole stack, current directory first. */
function stack(sh: Shell): string[] {
  return [pwdOf(sh), ...sh.dirStack];
}

function tilde(sh: Shell, d: string): string {
  const home = sh.vars.get('HOME');
  return home && (d === home || d.startsWith(`${home}/`)) ? `~${d.slice(home.length)}` : d;
}

function showStack(sh: Shell): void {
  sh.out(`${stack(sh).map((d) => tilde(sh, d)).join(' ')}\n`);
}

/** +N counts from the left, -N from the right (both from 0); null if not of that form. */
function stackIndex(sh: Shell, arg: string): number | null {
  const m = /^([+-])(\d+)$/.exec(arg);
  if (!m) return null;
  const n = Number(m[2]);
  const len = stack(sh).length;
  return m[1] === '+' ? n : len - 1 - n;
}

function outOfRange(sh: Shell, name: string, arg: string): number {
  sh.error(`${name}: ${arg}: directory stack index out of range`);
  return 1;
}

function badOption(sh: Shell, name: string, arg: string, usage: string): number {
  sh.error(`${name}: ${arg}: invalid number`);
  sh.write(2, `${name}: usage: ${name} ${usage}\n`);
  return 2;
}

/** The leading `-n` and `--` that pushd and popd share. */
function noCdArgs(argv: string[]): { noCd: boolean; args: string[] } {
  const args = argv.slice(1);
  const noCd = args[0] === '-n';
  if (noCd) args.shift();
  if (args[0] === '--') args.shift();
  return { noCd, args };
}

export const pushd: Builtin = (sh, argv) => {
  loadStack(sh);
  const { noCd, args } = noCdArgs(argv);
  if (args.length > 1) {
    sh.error('pushd: too many arguments');
    return 1;
  }
  const target = args[0];
  if (target === undefined) {
    if (!sh.dirStack.length) {
      sh.error('pushd: no other directory');
      return 1;
    }
    if (!noCd) {
      const here = pwdOf(sh);
      if (changeDir(sh, sh.dirStack[0], false, 'pushd')) return 1;
      sh.dirStack[0] = here;
    } else if (sh.dirStack.length > 1) [sh.dirStack[0], sh.dirStack[1]] = [sh.dirStack[1], sh.dirStack[0]];
  } else if (/^[+-]/.test(target) && target !== '-') {
    const k = stackIndex(sh, target);
    if (k === null) return badOption(sh, 'pushd', target, '[-n] [+N | -N | dir]');
    const all = stack(sh);
    if (k < 0 || k >= all.length) return outOfRange(sh, 'pushd', target);
    // Rotate so entry k is on top.
    const rotated = [...all.slice(k), ...all.slice(0, k)];
    if (!noCd && k !== 0 && changeDir(sh, rotated[0], false, 'pushd')) return 1;
    sh.dirStack = rotated.slice(1);
  } else if (noCd) {
    sh.dirStack.unshift(target);
  } else {
    const here = pwdOf(sh);
    if (changeDir(sh, target === '-' ? (sh.vars.get('OLDPWD') ?? '') : target, false, 'pushd')) return 1;
    sh.dirStack.unshift(here);
  }
  syncDirStack(sh);
  showStack(sh);
  return 0;
};

export const popd: Builtin = (sh, argv) => {
  loadStack(sh);
  const { noCd, args } = noCdArgs(argv);
  // A bad argument is a usage error even when the stack is empty (bash).
  if (args[0] !== undefined && stackIndex(sh, args[0]) === null) return badOption(sh, 'popd', args[0], '[-n] [+N | -N]');
  if (!sh.dirStack.length) {
    sh.error('popd: directory stack empty');
    return 1;
  }
  let k = noCd ? 1 : 0;
  if (args[0] !== undefined) {
    const n = stackIndex(sh, args[0]);
    if (n === null) return badOption(sh, 'popd', args[0], '[-n] [+N | -N]');
    if (n < 0 || n > sh.dirStack.length) return outOfRange(sh, 'popd', args[0]);
    k = n;
  }
  if (k === 0) {
    if (changeDir(sh, sh.dirStack[0], false, 'popd')) return 1;
    sh.dirStack.shift();
  } else sh.dirStack.splice(k - 1, 1);
  syncDirStack(sh);
  showStack(sh);
  return 0;
};

export const dirs: Builtin = (sh, argv) => {
  loadStack(sh);
  let long = false;
  let perLine = false;
  let numbered = false;
  let pick: string | null = null;
  for (const a of argv.slice(1)) {
    if (/^[+-]\d+$/.test(a)) {
      pick = a;
      continue;
    }
    if (!/^-[clpv]+$/.test(a)) return badOption(sh, 'dirs', a, '[-clpv] [+N] [-N]');
    for (const c of a.slice(1)) {
      if (c === 'c') sh.dirStack = [];
      else if (c === 'l') long = true;
      else if (c === 'p') perLine = true;
      else if (c === 'v') [perLine, numbered] = [true, true];
    }
  }
  if (argv.slice(1).some((a) => /^-[lpv]*c/.test(a))) {
    syncDirStack(sh);
    return 0;
  }
  const show = (d: string) => (long ? d : tilde(sh, d));
  const all = stack(sh);
  if (pick !== null) {
    const k = stackIndex(sh, pick)!;
    if (k < 0 || k >= all.length) return outOfRange(sh, 'dirs', pick);
    sh.out(`${numbered ? `${String(k).padStart(2)}  ` : ''}${show(all[k])}\n`);
    return 0;
  }
  if (numbered) sh.out(all.map((d, k) => `${String(k).padStart(2)}  ${show(d)}\n`).join(''));
  else if (perLine) sh.out(all.map((d) => `${show(d)}\n`).join(''));
  else sh.out(`${all.map(show).join(' ')}\n`);
  return 0;
};

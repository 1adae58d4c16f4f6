// cd, pwd, pushd, popd, dirs — logical paths ($PWD) unless -P.

import { strerror, SysError } from '../../../abi/errno.js';
import type { Shell } from '../shell.js';
import type { Builtin } from './types.js';

/** Resolve `target` against $PWD textually (cd -L), like bash. */
function logical(base: string, target: string): string {
  const parts = target.startsWith('/') ? [] : base.split('/').filter(Boolean);
  for (const p of target.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') parts.pop();
    else parts.push(p);
  }
  return `/${parts.join('/')}`;
}

function pwdOf(sh: Shell): string {
  return sh.vars.get('PWD') ?? sh.sys.getcwd();
}

export function changeDir(sh: Shell, target: string, physical: boolean, name = 'cd'): number {
  const old = pwdOf(sh);
  const dest = physical ? target : logical(old, target);
  try {
    sh.sys.chdir(physical ? target : dest);
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    sh.error(`${name}: ${target}: ${strerror(e.errno)}`);
    return 1;
  }
  sh.vars.set('OLDPWD', old);
  sh.vars.set('PWD', physical ? sh.sys.getcwd() : dest);
  return 0;
}

export const cd: Builtin = (sh, argv) => {
  let physical = sh.opts.on('physical');
  let i = 1;
  for (; i < argv.length && /^-[LP]+$/.test(argv[i]); i++) physical = argv[i].endsWith('P');
  if (argv[i] === '--') i++;
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
  const physical = argv.includes('-P') || sh.opts.on('physical');
  sh.out(`${physical ? sh.sys.getcwd() : pwdOf(sh)}\n`);
  return 0;
};

function showStack(sh: Shell): void {
  const home = sh.vars.get('HOME');
  const t = (d: string) => (home && (d === home || d.startsWith(`${home}/`)) ? `~${d.slice(home.length)}` : d);
  sh.out(`${[pwdOf(sh), ...sh.dirStack].map(t).join(' ')}\n`);
}

export const pushd: Builtin = (sh, argv) => {
  const target = argv[1];
  if (target === undefined) {
    if (!sh.dirStack.length) {
      sh.error('pushd: no other directory');
      return 1;
    }
    const top = sh.dirStack[0];
    const here = pwdOf(sh);
    if (changeDir(sh, top, false, 'pushd')) return 1;
    sh.dirStack[0] = here;
  } else {
    const here = pwdOf(sh);
    if (changeDir(sh, target, false, 'pushd')) return 1;
    sh.dirStack.unshift(here);
  }
  showStack(sh);
  return 0;
};

export const popd: Builtin = (sh) => {
  const top = sh.dirStack.shift();
  if (top === undefined) {
    sh.error('popd: directory stack empty');
    return 1;
  }
  if (changeDir(sh, top, false, 'popd')) return 1;
  showStack(sh);
  return 0;
};

export const dirs: Builtin = (sh, argv) => {
  if (argv.includes('-c')) sh.dirStack = [];
  else showStack(sh);
  return 0;
};

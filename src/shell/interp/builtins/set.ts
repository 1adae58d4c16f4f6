// set, shopt, shift.

import { flagName, SET_OPTION_NAMES, SHOPT_NAMES, type SetOption } from '../options.js';
import type { Shell } from '../shell.js';
import { setLine } from './declare.js';
import type { Builtin } from './types.js';

/**
 * Keep $SHELLOPTS and $BASHOPTS in step with the options (bash computes them;
 * here they are refreshed whenever set or shopt changes something).
 */
export function syncOptionVars(sh: Shell): void {
  for (const [name, value] of [['SHELLOPTS', sh.opts.shellopts()], ['BASHOPTS', sh.opts.bashopts()]] as const) {
    const v = sh.vars.lookup(name);
    if (v?.readonly) v.value = value;
    else sh.vars.set(name, value);
  }
}

/** Shells whose job control `set -m` turned on (and `set +m` may turn off again). */
const monitorBySet = new WeakSet<Shell>();

function setOption(sh: Shell, name: string, on: boolean): boolean {
  if (!(SET_OPTION_NAMES as string[]).includes(name)) {
    sh.error(`set: ${name}: invalid option name`);
    return false;
  }
  sh.opts.set.set(name as SetOption, on);
  // The two editing modes exclude each other.
  if (on && (name === 'vi' || name === 'emacs')) sh.opts.set.set(name === 'vi' ? 'emacs' : 'vi', false);
  if (name === 'monitor') monitor(sh, on);
  return true;
}

/**
 * `set -m` in a script: each job gets a process group of its own, as in bash
 * (so `kill -- -$!` reaches a whole background pipeline). A shell that does
 * job control anyway (interactive, exec sessions) keeps it after `set +m`.
 */
function monitor(sh: Shell, on: boolean): void {
  if (on && !sh.jobControl) {
    sh.jobControl = true;
    monitorBySet.add(sh);
  } else if (!on && monitorBySet.delete(sh)) sh.jobControl = false;
}

export const set: Builtin = (sh, argv) => {
  try {
    return setOptions(sh, argv);
  } finally {
    syncOptionVars(sh);
  }
};

function setOptions(sh: Shell, argv: string[]): number {
  const args = argv.slice(1);
  if (args.length === 0) {
    for (const n of sh.vars.names()) {
      const v = sh.vars.lookupRef(n);
      if (v && !v.declaredOnly) sh.out(`${setLine(n, v)}\n`);
    }
    return 0;
  }
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      i++;
      sh.positional = args.slice(i);
      return 0;
    }
    // A lone `+` is ignored; a lone `-` turns off -x and -v and ends the options.
    if (a === '+') continue;
    if (a === '-') {
      sh.opts.set.set('xtrace', false);
      sh.opts.set.set('verbose', false);
      i++;
      break;
    }
    if (!/^[-+]/.test(a)) break;
    const on = a[0] === '-';
    for (let j = 1; j < a.length; j++) {
      const c = a[j];
      if (c === 'o') {
        const name = args[++i];
        if (name === undefined) {
          for (const n of SET_OPTION_NAMES) {
            const v = sh.opts.on(n);
            sh.out(on ? `${n.padEnd(15)}\t${v ? 'on' : 'off'}\n` : `set ${v ? '-' : '+'}o ${n}\n`);
          }
          continue;
        }
        if (!setOption(sh, name, on)) return 2;
        continue;
      }
      const name = flagName(c);
      if (!name) {
        sh.error(`set: ${a[0]}${c}: invalid option`);
        sh.write(2, 'set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]\n');
        return 2;
      }
      setOption(sh, name, on);
    }
  }
  if (i < args.length) sh.positional = args.slice(i);
  return 0;
}

export const shopt: Builtin = (sh, argv) => {
  try {
    return shoptOptions(sh, argv);
  } finally {
    syncOptionVars(sh);
  }
};

function shoptOptions(sh: Shell, argv: string[]): number {
  let mode: 's' | 'u' | 'p' | 'q' | null = null;
  let useSet = false;
  const names: string[] = [];
  let quiet = false;
  for (const a of argv.slice(1)) {
    if (/^-[supqo]+$/.test(a)) {
      for (const c of a.slice(1)) {
        if (c === 'q') quiet = true;
        else if (c === 'o') useSet = true;
        else mode = c as 's' | 'u' | 'p';
      }
    } else names.push(a);
  }
  const known = (n: string) => ((useSet ? SET_OPTION_NAMES : SHOPT_NAMES) as readonly string[]).includes(n);
  const get = (n: string) => (useSet ? sh.opts.on(n as SetOption) : sh.opts.shoptOn(n));
  // An invalid name is reported and the others still act (status 1).
  let invalid = 0;
  for (const n of names.filter((x) => !known(x))) {
    sh.error(useSet ? `shopt: ${n}: invalid option name` : `shopt: ${n}: invalid shell option name`);
    names.splice(names.indexOf(n), 1);
    invalid = 1;
  }
  if (invalid && !names.length) return 1;
  if (mode === 's' || mode === 'u') {
    if (!names.length) {
      for (const n of useSet ? SET_OPTION_NAMES : SHOPT_NAMES) if (get(n) === (mode === 's')) sh.out(`${n.padEnd(15)}\t${mode === 's' ? 'on' : 'off'}\n`);
      return 0;
    }
    for (const n of names) {
      if (useSet) sh.opts.set.set(n as SetOption, mode === 's');
      else sh.opts.shopt.set(n, mode === 's');
    }
    return invalid;
  }
  const list = names.length ? names : [...(useSet ? SET_OPTION_NAMES : SHOPT_NAMES)];
  let status = 0;
  for (const n of list) {
    const v = get(n);
    if (!v) status = 1;
    if (quiet) continue;
    sh.out(mode === 'p' ? (useSet ? `set ${v ? '-' : '+'}o ${n}\n` : `shopt ${v ? '-s' : '-u'} ${n}\n`) : `${n.padEnd(15)}\t${v ? 'on' : 'off'}\n`);
  }
  return names.length ? status | invalid : 0;
}

export const shift: Builtin = (sh, argv) => {
  if (argv.length > 2) {
    sh.error('shift: too many arguments');
    return 1;
  }
  if (argv[1] !== undefined && !/^[+-]?\d+$/.test(argv[1])) {
    sh.error(`shift: ${argv[1]}: numeric argument required`);
    return 1;
  }
  const n = argv[1] === undefined ? 1 : Number(argv[1]);
  if (n < 0) {
    sh.error(`shift: ${argv[1]}: shift count out of range`);
    return 1;
  }
  if (n > sh.positional.length) return 1;
  sh.positional = sh.positional.slice(n);
  return 0;
};

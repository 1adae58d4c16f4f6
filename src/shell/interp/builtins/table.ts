// The builtin table itself: help lists it, enable takes entries out and puts them back.

import type { Builtin } from './types.js';
import { BUILTINS, SPECIAL_BUILTINS } from './index.js';

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

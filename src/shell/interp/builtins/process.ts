// The shell process's own attributes: umask and times (ulimit: ulimit.ts).

import type { Shell } from '../shell.js';
import type { Builtin } from './types.js';

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
  const current = sh.umask();
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
  sh.setUmask(mask);
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

export const times: Builtin = (sh) => {
  sh.out('0m0.000s 0m0.000s\n0m0.000s 0m0.000s\n');
  return 0;
};

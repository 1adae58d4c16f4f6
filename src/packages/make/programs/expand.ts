// Expansion of `$(…)`, `${…}` and `$x`: variable references, substitution
// references ($(v:a=b), $(v:%.c=%.o)) and the built-in functions.

import type { Make } from './context.js';
import { FUNCTIONS } from './functions.js';
import { findTop, patsubstWord, splitArgs, words } from './text.js';
import type { Scope } from './vars.js';

export function expand(mk: Make, s: string, scope: Scope): string {
  if (!s.includes('$')) return s;
  let out = '';
  let i = 0;
  while (i < s.length) {
    const j = s.indexOf('$', i);
    if (j < 0) {
      out += s.slice(i);
      break;
    }
    out += s.slice(i, j);
    const c = s[j + 1];
    if (c === undefined) break;
    if (c === '$') {
      out += '$';
      i = j + 2;
      continue;
    }
    if (c !== '(' && c !== '{') {
      out += mk.value(c, scope);
      i = j + 2;
      continue;
    }
    const close = c === '(' ? ')' : '}';
    let depth = 0;
    let k = j + 1;
    for (; k < s.length; k++) {
      if (s[k] === c) depth++;
      else if (s[k] === close && --depth === 0) break;
    }
    if (k >= s.length) mk.fatal(`unterminated variable reference`);
    out += reference(mk, s.slice(j + 2, k), scope);
    i = k + 1;
  }
  return out;
}

/** The body of one `$(…)`: a function call, a substitution reference, or a variable. */
function reference(mk: Make, body: string, scope: Scope): string {
  const fm = /^([a-z-]+)[ \t]/.exec(body);
  const fn = fm ? FUNCTIONS[fm[1]] : undefined;
  if (fn && fm) {
    const rest = body.slice(fm[0].length).replace(/^[ \t]+/, '');
    const args = splitArgs(rest, fn.max);
    if (args.length < fn.min) mk.fatal(`insufficient number of arguments (${args.length}) to function '${fm[1]}'`);
    return fn.run(mk, args, scope);
  }
  const colon = findTop(body, ':');
  if (colon >= 0) {
    const eq = findTop(body, '=', colon + 1);
    if (eq >= 0) {
      const name = expand(mk, body.slice(0, colon), scope);
      const from = expand(mk, body.slice(colon + 1, eq), scope);
      const to = expand(mk, body.slice(eq + 1), scope);
      const val = mk.value(name, scope);
      const pat = from.includes('%') ? from : `%${from}`;
      const rep = from.includes('%') ? to : `%${to}`;
      return words(val).map((w) => patsubstWord(pat, rep, w)).join(' ');
    }
  }
  return mk.value(expand(mk, body, scope), scope);
}

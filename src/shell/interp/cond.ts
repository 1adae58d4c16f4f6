// [[ ... ]]: no word splitting or globbing; == and != match patterns, =~ an
// extended regular expression (captures in BASH_REMATCH).

import { expandPattern, expandRegex, expandWord, matchPattern, type Pattern } from '../expand/index.js';
import { POSIX_CLASSES_WORD } from '../../common/posix-classes.js';
import type { Cond } from '../syntax/index.js';
import { expandContext } from './context.js';
import type { Shell } from './shell.js';
import { binaryTest, unaryTest } from './test-ops.js';

export function runTest(sh: Shell, c: Cond): number {
  return evalCond(sh, c, '') ? 0 : 1;
}

/** set -x shows each test [[ ]] performs, operands expanded (an empty one as ''), after any `!` before it. */
function trace(sh: Shell, neg: string, ...words: string[]): void {
  if (sh.opts.on('xtrace')) sh.trace(`[[ ${neg}${words.map((w) => (w === '' ? "''" : w)).join(' ')} ]]`);
}

/** A pattern as bash shows it: quoted characters backslash-escaped. */
const patternText = (p: Pattern): string => p.map((s) => (s.quoted ? s.text.replace(/[^]/g, '\\$&') : s.text)).join('');

function evalCond(sh: Shell, c: Cond, neg: string): boolean {
  const ctx = expandContext(sh);
  switch (c.type) {
    case 'CondWord': {
      const w = expandWord(c.word, ctx);
      trace(sh, neg, '-n', w);
      return w !== '';
    }
    case 'CondNot':
      return !evalCond(sh, c.arg, '! ');
    case 'CondParen':
      return evalCond(sh, c.arg, '');
    case 'CondAndOr':
      return c.op === '&&' ? evalCond(sh, c.left, '') && evalCond(sh, c.right, '') : evalCond(sh, c.left, '') || evalCond(sh, c.right, '');
    case 'CondUnary': {
      const arg = expandWord(c.arg, ctx);
      trace(sh, neg, c.op, arg);
      return unaryTest(sh, c.op, arg);
    }
    case 'CondBinary': {
      const left = expandWord(c.left, ctx);
      if (c.op === '==' || c.op === '=' || c.op === '!=') {
        const pat = expandPattern(c.right, ctx);
        trace(sh, neg, left, c.op, patternText(pat));
        const hit = matchPattern(pat, left, { extglob: true, nocase: ctx.opts.nocasematch });
        return c.op === '!=' ? !hit : hit;
      }
      if (c.op === '=~') {
        const re = expandRegex(c.right, ctx);
        trace(sh, neg, left, c.op, re);
        return regexMatch(sh, left, re);
      }
      const right = expandWord(c.right, ctx);
      trace(sh, neg, left, c.op, right);
      return binaryTest(sh, c.op, left, right, true);
    }
  }
}

function regexMatch(sh: Shell, text: string, source: string): boolean {
  let re: RegExp;
  try {
    re = new RegExp(posixToJs(source), sh.opts.shoptOn('nocasematch') ? 'i' : '');
  } catch {
    sh.vars.setArray('BASH_REMATCH', []);
    return false;
  }
  const m = re.exec(text);
  sh.vars.setArray('BASH_REMATCH', m ? m.map((g) => ({ key: null, value: g ?? '' })) : []);
  return m !== null;
}

/** POSIX ERE bracket classes to JavaScript. */
function posixToJs(re: string): string {
  return re.replace(/\[:(\w+):\]/g, (m, name: string) => POSIX_CLASSES_WORD[name] ?? m);
}

// tr's SET syntax: escapes, ranges, [:class:], [=c=] and [c*n] repeats,
// expanded to byte lists (as latin1 chars).

import { quote } from '../../../userland/lib/index.js';
import { decode } from '../../../userland/lib/utf8.js';

const CLASSES: Record<string, (b: number) => boolean> = {
  alnum: (b) => CLASSES.alpha(b) || CLASSES.digit(b),
  alpha: (b) => CLASSES.upper(b) || CLASSES.lower(b),
  blank: (b) => b === 32 || b === 9,
  cntrl: (b) => b < 32 || b === 127,
  digit: (b) => b >= 48 && b <= 57,
  graph: (b) => b > 32 && b < 127,
  lower: (b) => b >= 97 && b <= 122,
  print: (b) => b >= 32 && b < 127,
  punct: (b) => CLASSES.graph(b) && !CLASSES.alnum(b),
  space: (b) => b === 32 || (b >= 9 && b <= 13),
  upper: (b) => b >= 65 && b <= 90,
  xdigit: (b) => CLASSES.digit(b) || (b >= 65 && b <= 70) || (b >= 97 && b <= 102),
};

const ESC: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };

/** One element of a set: a literal char, or a [c*n] repeat waiting for its length. */
type Item = { ch: string; escaped: boolean };

export class SetError extends Error {}

/** Unescape into items, remembering which chars were escaped (an escaped '-' or '[' is literal). */
function unescape(s: string): Item[] {
  const out: Item[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '\\' || i === s.length - 1) {
      out.push({ ch: s[i], escaped: false });
      continue;
    }
    const n = s[++i];
    if (n >= '0' && n <= '7') {
      let v = '';
      while (v.length < 3 && s[i] >= '0' && s[i] <= '7' && parseInt(v + s[i], 8) < 256) v += s[i++];
      i--;
      out.push({ ch: String.fromCharCode(parseInt(v, 8)), escaped: true });
    } else out.push({ ch: ESC[n] ?? n, escaped: true });
  }
  return out;
}

export interface Expanded {
  chars: string[];
  /** Index in chars where a [c*] fill goes (set2 only), or -1. */
  fill: number;
  fillChar: string;
  hasClass: boolean;
}

export function expand(spec: string, isSet2: boolean): Expanded {
  const it = unescape(spec);
  const out: Expanded = { chars: [], fill: -1, fillChar: '', hasClass: false };
  const raw = (j: number) => (it[j] && !it[j].escaped ? it[j].ch : null);
  for (let i = 0; i < it.length; i++) {
    const { ch } = it[i];
    if (raw(i) === '[') {
      const close = findClose(it, i);
      if (close > 0) {
        const inner = it.slice(i + 1, close);
        const body = inner.map((x) => x.ch).join('');
        if (raw(i + 1) === ':' && raw(close - 1) === ':' && inner.length >= 2) {
          const name = body.slice(1, -1);
          const test = CLASSES[name];
          if (!test) throw new SetError(`invalid character class ${quote(decode(name))}`);
          if (isSet2 && name !== 'upper' && name !== 'lower') throw new SetError('when translating, the only character classes that may appear in\nstring2 are \'upper\' and \'lower\'');
          for (let b = 0; b < 256; b++) if (test(b)) out.chars.push(String.fromCharCode(b));
          out.hasClass = true;
          i = close;
          continue;
        }
        if (raw(i + 1) === '=' && raw(close - 1) === '=' && inner.length === 3) {
          out.chars.push(inner[1].ch);
          i = close;
          continue;
        }
        const star = inner.findIndex((x, k) => k === 1 && x.ch === '*' && !x.escaped);
        if (star === 1 && inner.length >= 2) {
          const c0 = inner[0].ch;
          const n = body.slice(2);
          if (!/^\d*$/.test(n)) throw new SetError(`invalid repeat count ${quote(decode(n))} in [c*n] construct`);
          if (!isSet2) throw new SetError('the [c*] repeat construct may not appear in string1');
          const count = n === '' ? 0 : parseInt(n, n.startsWith('0') ? 8 : 10);
          if (count === 0) {
            out.fill = out.chars.length;
            out.fillChar = c0;
          } else for (let k = 0; k < count; k++) out.chars.push(c0);
          i = close;
          continue;
        }
      }
    }
    if (raw(i + 1) === '-' && i + 2 < it.length) {
      const hi = it[i + 2].ch;
      if (hi < ch) throw new SetError(`range-endpoints of '${ch}-${hi}' are in reverse collating sequence order`);
      for (let b = ch.charCodeAt(0); b <= hi.charCodeAt(0); b++) out.chars.push(String.fromCharCode(b));
      i += 2;
      continue;
    }
    out.chars.push(ch);
  }
  return out;
}

function findClose(it: Item[], open: number): number {
  for (let j = open + 2; j < it.length; j++) if (it[j].ch === ']' && !it[j].escaped) return j;
  return -1;
}

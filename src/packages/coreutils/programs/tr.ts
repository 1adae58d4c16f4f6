// tr [OPTION]... STRING1 [STRING2]: translate, squeeze and/or delete bytes (streams).

import { chunks, command, quote } from '../../../userland/lib/index.js';
import { encode } from '../../../userland/lib/utf8.js';
import { expand, SetError } from './tr-sets.js';

const USAGE = `Usage: tr [OPTION]... STRING1 [STRING2]
Translate, squeeze, and/or delete characters from standard input,
writing to standard output.  STRING1 and STRING2 specify arrays of
characters ARRAY1 and ARRAY2 that control the action.

  -c, -C, --complement    use the complement of ARRAY1
  -d, --delete            delete characters in ARRAY1, do not translate
  -s, --squeeze-repeats   replace each sequence of a repeated character
                            that is listed in the last specified ARRAY,
                            with a single occurrence of that character
  -t, --truncate-set1     first truncate ARRAY1 to length of ARRAY2
      --help     display this help and exit
      --version  output version information and exit
`;

export const tr = command(
  {
    name: 'tr',
    usage: USAGE,
    short: 'cCdst',
    long: { complement: ['c', 'none'], delete: ['d', 'none'], 'squeeze-repeats': ['s', 'none'], 'truncate-set1': ['t', 'none'] },
  },
  (c) => {
    const del = c.has('d');
    const squeeze = c.has('s');
    const ops = c.operands;
    const translating = !del && ops.length >= 2;
    if (ops.length === 0) c.usage('missing operand');
    if (del && !squeeze && ops.length > 1) c.usage(`extra operand ${quote(ops[1])}\nOnly one string may be given when deleting without squeezing repeats.`);
    if (!del && !squeeze && ops.length < 2) c.usage(`missing operand after ${quote(ops[0])}\nTwo strings must be given when translating.`);
    if (del && squeeze && ops.length < 2) c.usage(`missing operand after ${quote(ops[0])}\nTwo strings must be given when both deleting and squeezing repeats.`);
    if (ops.length > 2) c.usage(`extra operand ${quote(ops[2])}`);
    let s1: string[];
    let s2: string[] = [];
    try {
      // GNU tr works on bytes in every locale: a set is the bytes of its argument.
      s1 = expand(encode(ops[0]), false).chars;
      if (c.has('c') || c.has('C')) {
        const inSet = new Set(s1);
        s1 = [];
        for (let b = 0; b < 256; b++) if (!inSet.has(String.fromCharCode(b))) s1.push(String.fromCharCode(b));
      }
      if (ops.length > 1) {
        const e2 = expand(encode(ops[1]), translating);
        s2 = e2.chars;
        if (e2.fill >= 0) s2.splice(e2.fill, 0, ...Array<string>(Math.max(0, s1.length - s2.length)).fill(e2.fillChar));
      }
    } catch (e) {
      if (e instanceof SetError) return c.fail(e.message);
      throw e;
    }
    const map = new Uint16Array(256).map((_, i) => i);
    const drop = new Uint8Array(256);
    const squeezeSet = new Uint8Array(256);
    if (translating) {
      if (c.has('t')) s1 = s1.slice(0, s2.length);
      else if (s2.length === 0 && s1.length) return c.fail('when not truncating set1, string2 must be non-empty');
      for (let i = 0; i < s1.length; i++) map[s1[i].charCodeAt(0)] = (s2[Math.min(i, s2.length - 1)] ?? s1[i]).charCodeAt(0);
    }
    if (del) for (const ch of s1) drop[ch.charCodeAt(0)] = 1;
    if (squeeze) for (const ch of del || translating ? s2 : s1) squeezeSet[ch.charCodeAt(0)] = 1;
    let last = -1;
    for (const b of chunks(c.sys, 0)) {
      const out = new Uint8Array(b.byteLength);
      let n = 0;
      for (const x of b) {
        if (drop[x]) continue;
        const y = map[x];
        if (squeezeSet[y] && y === last) continue;
        out[n++] = y;
        last = y;
      }
      c.out.write(out.subarray(0, n));
    }
  },
);

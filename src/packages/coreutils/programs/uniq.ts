// uniq [OPTION]... [INPUT [OUTPUT]]: report or omit repeated adjacent lines (streams).

import { O_CREAT, O_TRUNC, O_WRONLY } from '../../../abi/fcntl.js';
import { command, lines, openInput, quote, quotef, Writer } from '../../../userland/lib/index.js';
import { bin, count, isBlank, str } from './text.js';

const USAGE = `Usage: uniq [OPTION]... [INPUT [OUTPUT]]
Filter adjacent matching lines from INPUT (or standard input),
writing to OUTPUT (or standard output).

With no options, matching lines are merged to the first occurrence.

Mandatory arguments to long options are mandatory for short options too.
  -c, --count           prefix lines by the number of occurrences
  -d, --repeated        only print duplicate lines, one for each group
  -D                    print all duplicate lines
  -f, --skip-fields=N   avoid comparing the first N fields
  -i, --ignore-case     ignore differences in case when comparing
  -s, --skip-chars=N    avoid comparing the first N characters
  -u, --unique          only print unique lines
  -z, --zero-terminated     line delimiter is NUL, not newline
  -w, --check-chars=N   compare no more than N characters in lines
      --help     display this help and exit
      --version  output version information and exit
`;

export const uniq = command(
  {
    name: 'uniq',
    usage: USAGE,
    short: 'cdDf:is:uw:z',
    long: {
      count: ['c', 'none'], repeated: ['d', 'none'], 'all-repeated': ['D', 'optional'], 'skip-fields': ['f', 'required'],
      'ignore-case': ['i', 'none'], 'skip-chars': ['s', 'required'], unique: ['u', 'none'], 'check-chars': ['w', 'required'],
      'zero-terminated': ['z', 'none'],
    },
  },
  (c) => {
    const num = (k: string, what: string): number => {
      const v = c.get(k);
      if (v === undefined) return k === 'w' ? Infinity : 0;
      const n = count(v);
      return n === null ? c.fail(`${v}: invalid number of ${what}`) : n;
    };
    const fields = num('f', 'fields to skip');
    const chars = num('s', 'bytes to skip');
    const width = num('w', 'bytes to compare');
    if (c.operands.length > 2) c.usage(`extra operand ${quote(c.operands[2])}`);
    if (c.has('c') && c.has('D')) c.usage('printing all duplicated lines and repeat counts is meaningless');
    const fold = c.has('i');
    const key = (l: string): string => {
      let p = 0;
      for (let f = 0; f < fields; f++) {
        while (p < l.length && isBlank(l[p])) p++;
        while (p < l.length && !isBlank(l[p])) p++;
      }
      const k = l.slice(Math.min(p + chars, l.length)).slice(0, width);
      return fold ? k.toUpperCase() : k;
    };
    const delim = c.has('z') ? 0 : 10;
    const [inName, outName] = c.operands;
    const fd = openInput(c, inName ?? '-');
    if (fd === null) return 1;
    let out = c.out;
    if (outName !== undefined && outName !== '-') {
      try {
        out = new Writer(c.sys, c.sys.open(outName, O_WRONLY | O_CREAT | O_TRUNC));
      } catch (e) {
        c.sysError(quotef(outName), e);
        return 1;
      }
    }
    const dOnly = c.has('d') || c.has('D');
    const uOnly = c.has('u');
    const all = c.has('D');
    const term = String.fromCharCode(delim);
    let prev: string | null = null;
    let prevKey = '';
    let n = 0;
    const flush = () => {
      if (prev === null) return;
      if ((dOnly && n < 2) || (uOnly && n > 1)) return;
      if (all) return;
      out.write(bin((c.has('c') ? `${String(n).padStart(7)} ` : '') + prev + term));
    };
    for (const b of lines(c.sys, fd, delim)) {
      let l = str(b);
      if (l.endsWith(term)) l = l.slice(0, -1);
      const k = key(l);
      if (prev !== null && k === prevKey) {
        n++;
        if (all && !uOnly) {
          if (n === 2) out.write(bin(prev + term));
          out.write(bin(l + term));
        }
        continue;
      }
      flush();
      prev = l;
      prevKey = k;
      n = 1;
    }
    flush();
    if (out !== c.out) out.flush();
  },
);

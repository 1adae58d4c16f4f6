// tsort [FILE]: a total order consistent with the partial order given as
// pairs of words. Knuth's algorithm as GNU tsort runs it: words are visited in
// byte order, each word's successors most recent first, and a loop is
// reported (its members on stderr) and broken by dropping one relation.

import { command, forEachInput, chunks, type Cmd } from '../../../userland/lib/index.js';
import { quote, quotef } from '../../../userland/lib/quote.js';
import { put, str } from './text.js';

const USAGE = `Usage: tsort [OPTION] [FILE]
Write totally ordered list consistent with the partial ordering in FILE.

With no FILE, or when FILE is -, read standard input.

      --help     display this help and exit
      --version  output version information and exit
`;

interface Item {
  str: string | null;
  count: number;
  /** Successors, most recently added first. */
  top: Item[];
  qlink: Item | null;
}

function run(c: Cmd, file: string, text: string): void {
  const toks = text.split(/[ \t\n]+/).filter((t) => t !== '');
  if (toks.length % 2 === 1) c.fail(`${quotef(file)}: input contains an odd number of tokens`);
  const items = new Map<string, Item>();
  const get = (s: string) => {
    let it = items.get(s);
    if (!it) items.set(s, (it = { str: s, count: 0, top: [], qlink: null }));
    return it;
  };
  for (let i = 0; i < toks.length; i += 2) {
    const j = get(toks[i]);
    const k = get(toks[i + 1]);
    if (j !== k) {
      k.count++;
      j.top.unshift(k);
    }
  }
  const order = [...items.values()].sort((a, b) => (a.str! < b.str! ? -1 : a.str! > b.str! ? 1 : 0));
  let left = order.length;
  let head: Item | null = null;
  let zeros: Item | null = null;
  let loop: Item | null = null;
  const scanZeros = () => {
    for (const k of order) {
      if (k.count === 0 && k.str !== null) {
        if (head === null) head = k;
        else zeros!.qlink = k;
        zeros = k;
      }
    }
  };
  /** GNU tsort's detect_loop over one item; true when a loop was found and broken. */
  const detectLoop = (k: Item): boolean => {
    if (k.count <= 0) return false;
    if (loop === null) {
      loop = k;
      return false;
    }
    for (let pi = 0; pi < k.top.length; pi++) {
      if (k.top[pi] !== loop) continue;
      if (k.qlink) {
        while (loop) {
          const tmp: Item | null = loop.qlink;
          c.warn(loop.str ?? '');
          if (loop === k) {
            k.top[pi].count--;
            k.top.splice(pi, 1);
            break;
          }
          loop.qlink = null;
          loop = tmp;
        }
        while (loop) {
          const tmp: Item | null = loop.qlink;
          loop.qlink = null;
          loop = tmp;
        }
        return true;
      }
      k.qlink = loop;
      loop = k;
      break;
    }
    return false;
  };
  while (left > 0) {
    head = null;
    zeros = null;
    scanZeros();
    while (head !== null) {
      const h: Item = head;
      put(c, `${h.str}\n`);
      h.str = null;
      left--;
      for (const s of h.top) {
        if (--s.count === 0) {
          zeros!.qlink = s;
          zeros = s;
        }
      }
      head = h.qlink;
    }
    if (left > 0) {
      c.error(`${quotef(file)}: input contains a loop:`);
      do {
        for (const k of order) if (detectLoop(k)) break;
      } while (loop);
    }
  }
}

export const tsort = command({ name: 'tsort', usage: USAGE }, (c) => {
  if (c.operands.length > 1) return c.usage(`extra operand ${quote(c.operands[1])}`);
  const file = c.operands[0] ?? '-';
  forEachInput(c, [file], (fd) => {
    const parts: string[] = [];
    for (const b of chunks(c.sys, fd)) parts.push(str(b));
    run(c, file, parts.join(''));
  });
});

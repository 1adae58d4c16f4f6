// expand [OPTION]... [FILE]...: convert tabs to spaces (streams, line by line).

import { command, forEachInput, lines, quote, type Cmd } from '../../../userland/lib/index.js';
import { bin, str } from './text.js';

const USAGE = `Usage: expand [OPTION]... [FILE]...
Convert tabs in each FILE to spaces, writing to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -i, --initial    do not convert tabs after non blanks
  -t, --tabs=N     have tabs N characters apart, not 8
  -t, --tabs=LIST  use comma separated list of tab positions.
      --help     display this help and exit
      --version  output version information and exit
`;

/** Tab stops from -t: one number is a repeating width; a list gives positions. */
export function tabStops(c: Cmd): (col: number) => number {
  const specs = c.all.filter(([k]) => k === 't').map(([, v]) => v!);
  const list = specs.join(',').split(/[ ,]/).filter((s) => s !== '');
  if (list.length === 0) return (col) => col + 8 - (col % 8);
  for (const s of list) if (!/^\d+$/.test(s)) c.fail(`tab size contains invalid character(s): ${quote(s.replace(/^\d+/, ''))}`);
  const nums = list.map(Number);
  if (nums.some((n) => n === 0)) c.fail('tab size cannot be 0');
  for (let i = 1; i < nums.length; i++) if (nums[i] <= nums[i - 1]) c.fail('tab sizes must be ascending');
  if (nums.length === 1) return (col) => col + nums[0] - (col % nums[0]);
  // Past the last listed stop a tab is one space.
  return (col) => nums.find((n) => n > col) ?? col + 1;
}

export const expand = command(
  {
    name: 'expand',
    usage: USAGE,
    short: 'it:',
    long: { initial: ['i', 'none'], tabs: ['t', 'required'] },
  },
  (c) => {
    const next = tabStops(c);
    const initial = c.has('i');
    forEachInput(c, c.operands, (fd) => {
      for (const b of lines(c.sys, fd)) {
        let out = '';
        let col = 0;
        let leading = true;
        for (const ch of str(b)) {
          if (ch === '\t' && (!initial || leading)) {
            const to = next(col);
            out += ' '.repeat(to - col);
            col = to;
            continue;
          }
          if (ch !== ' ' && ch !== '\t') leading = false;
          out += ch;
          col = ch === '\b' ? Math.max(0, col - 1) : col + 1;
        }
        c.out.write(bin(out));
      }
    });
  },
);

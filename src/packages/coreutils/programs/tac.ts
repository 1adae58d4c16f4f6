// tac [OPTION]... [FILE]...: concatenate and print files in reverse, record by record.

import { command } from '../../../userland/lib/index.js';
import { bin, readInputs } from './text.js';

const USAGE = `Usage: tac [OPTION]... [FILE]...
Write each FILE to standard output, last line first.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -b, --before             attach the separator before instead of after
  -r, --regex              interpret the separator as a regular expression
  -s, --separator=STRING   use STRING as the separator instead of newline
      --help     display this help and exit
      --version  output version information and exit
`;

export const tac = command(
  {
    name: 'tac',
    usage: USAGE,
    short: 'brs:',
    long: { before: ['b', 'none'], regex: ['r', 'none'], separator: ['s', 'required'] },
  },
  (c) => {
    const sep = c.get('s') ?? '\n';
    if (sep === '') return c.fail('separator cannot be empty');
    const before = c.has('b');
    for (const text of readInputs(c, c.operands, 'failed-to-open')) {
      // Records end with the separator (begin with it under -b); the first/last may lack it.
      const parts = text.split(sep);
      const recs: string[] = [];
      if (before) {
        if (parts[0] !== '') recs.push(parts[0]);
        for (let i = 1; i < parts.length; i++) recs.push(sep + parts[i]);
      } else {
        for (let i = 0; i < parts.length - 1; i++) recs.push(parts[i] + sep);
        if (parts[parts.length - 1] !== '') recs.push(parts[parts.length - 1]);
      }
      c.out.write(bin(recs.reverse().join('')));
    }
  },
);

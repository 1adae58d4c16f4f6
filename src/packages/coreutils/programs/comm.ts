// comm [OPTION]... FILE1 FILE2: compare two sorted files line by line.

import { command, quote } from '../../../userland/lib/index.js';
import { bin, readInputs, records } from './text.js';

const USAGE = `Usage: comm [OPTION]... FILE1 FILE2
Compare sorted files FILE1 and FILE2 line by line.

When FILE1 or FILE2 (not both) is -, read standard input.

With no options, produce three-column output.  Column one contains
lines unique to FILE1, column two contains lines unique to FILE2,
and column three contains lines common to both files.

  -1                      suppress column 1 (lines unique to FILE1)
  -2                      suppress column 2 (lines unique to FILE2)
  -3                      suppress column 3 (lines that appear in both files)

      --check-order       check that the input is correctly sorted, even
                            if all input lines are pairable
      --nocheck-order     do not check that the input is correctly sorted
      --output-delimiter=STR  separate columns with STR
      --total             output a summary
  -z, --zero-terminated   line delimiter is NUL, not newline
      --help     display this help and exit
      --version  output version information and exit
`;

export const comm = command(
  {
    name: 'comm',
    usage: USAGE,
    short: '123z',
    long: {
      'check-order': ['C', 'none'], 'nocheck-order': ['N', 'none'], 'output-delimiter': ['O', 'required'],
      total: ['T', 'none'], 'zero-terminated': ['z', 'none'],
    },
  },
  (c) => {
    const ops = c.operands;
    if (ops.length === 0) c.usage('missing operand');
    if (ops.length === 1) c.usage(`missing operand after ${quote(ops[0])}`);
    if (ops.length > 2) c.usage(`extra operand ${quote(ops[2])}`);
    const term = c.has('z') ? '\0' : '\n';
    const texts = readInputs(c, ops);
    if (texts.length < 2) return 1;
    const [a, b] = texts.map((t) => records(t, term));
    const d = c.get('O') ?? '\t';
    if (d === '') return void c.fail('empty output delimiter');
    const show = [!c.has('1'), !c.has('2'), !c.has('3')];
    const indent = (col: number) => show.slice(0, col).filter(Boolean).length;
    const totals = [0, 0, 0];
    let out = '';
    const emit = (col: number, l: string) => {
      totals[col]++;
      if (show[col]) out += d.repeat(indent(col)) + l + term;
    };
    let i = 0;
    let j = 0;
    while (i < a.length || j < b.length) {
      if (j >= b.length || (i < a.length && a[i] < b[j])) emit(0, a[i++]);
      else if (i >= a.length || b[j] < a[i]) emit(1, b[j++]);
      else {
        emit(2, a[i++]);
        j++;
      }
    }
    if (c.has('T')) out += `${totals[0]}${d}${totals[1]}${d}${totals[2]}${d}total${term}`;
    c.out.write(bin(out));
  },
);

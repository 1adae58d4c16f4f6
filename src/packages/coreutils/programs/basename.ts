// basename NAME [SUFFIX] | basename -a [-s SUFFIX] [-z] NAME...: strip directory and suffix.

import { baseName, command, quote } from '../../../userland/lib/index.js';

const USAGE = `Usage: basename NAME [SUFFIX]
  or:  basename OPTION... NAME...
Print NAME with any leading directory components removed.
If specified, also remove a trailing SUFFIX.

  -a, --multiple       support multiple arguments and treat each as a NAME
  -s, --suffix=SUFFIX  remove a trailing SUFFIX; implies -a
  -z, --zero           end each output line with NUL, not newline
      --help     display this help and exit
      --version  output version information and exit
`;

export const basename = command(
  {
    name: 'basename',
    usage: USAGE,
    short: 'as:z',
    long: { multiple: ['a', 'none'], suffix: ['s', 'required'], zero: ['z', 'none'] },
  },
  (c) => {
    const ops = c.operands;
    if (ops.length === 0) c.usage('missing operand');
    const multiple = c.has('a') || c.has('s');
    let suffix = c.get('s') ?? '';
    let names = ops;
    if (!multiple) {
      if (ops.length > 2) c.usage(`extra operand ${quote(ops[2])}`);
      suffix = ops[1] ?? '';
      names = [ops[0]];
    }
    const end = c.has('z') ? '\0' : '\n';
    for (const n of names) {
      let b = baseName(n);
      if (suffix && b !== suffix && b.endsWith(suffix) && !/^\/+$/.test(n)) b = b.slice(0, -suffix.length);
      c.out.write(b + end);
    }
  },
);

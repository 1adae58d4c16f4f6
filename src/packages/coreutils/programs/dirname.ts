// dirname [-z] NAME...: strip the last component of each NAME.

import { command, dirName } from '../../../userland/lib/index.js';

const USAGE = `Usage: dirname [OPTION] NAME...
Output each NAME with its last non-slash component and trailing slashes
removed; if NAME contains no /'s, output '.' (meaning the current directory).

  -z, --zero     end each output line with NUL, not newline
      --help     display this help and exit
      --version  output version information and exit
`;

export const dirname = command({ name: 'dirname', usage: USAGE, short: 'z', long: { zero: ['z', 'none'] } }, (c) => {
  if (c.operands.length === 0) c.usage('missing operand');
  const end = c.has('z') ? '\0' : '\n';
  for (const n of c.operands) c.out.write(dirName(n) + end);
});

// caller: the call frames as the script sees them.

import type { Builtin } from './types.js';

/** caller [N]: where the running function was called from (LINE FILE, or LINE FUNCTION FILE with N). */
export const caller: Builtin = (sh, argv) => {
  if (sh.funcStack.length === 0) return 1;
  const file = sh.sourceStack.at(-1);
  if (argv[1] === undefined) {
    sh.out(`${sh.lineno} ${file ?? 'NULL'}\n`);
    return 0;
  }
  const n = Number(argv[1]);
  if (!/^\d+$/.test(argv[1])) {
    sh.error(`caller: ${argv[1]}: invalid number`);
    sh.write(2, 'caller: usage: caller [expr]\n');
    return 2;
  }
  // Without a source file (bash -c) bash has no frames to describe.
  const fn = sh.funcStack.length - 2 - n >= -1 ? (sh.funcStack[sh.funcStack.length - 2 - n] ?? 'main') : undefined;
  if (file === undefined || fn === undefined) return 1;
  sh.out(`${sh.lineno} ${fn} ${file}\n`);
  return 0;
};

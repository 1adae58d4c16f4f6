// Option handling shared by builtins that take no options (bash's no_options):
// a leading `--` ends the options and is dropped; `-X` is an invalid option
// (status 2, with the builtin's usage line); `-` alone is an operand.

import type { Shell } from '../shell.js';

/** The operands after an optional `--`, or a status (2) after reporting an invalid option. */
export function noOptions(sh: Shell, argv: string[], usage: string): string[] | number {
  const args = argv.slice(1);
  if (args[0] === '--') return args.slice(1);
  if (args[0] !== undefined && /^-./.test(args[0])) {
    sh.error(`${argv[0]}: ${args[0].slice(0, 2)}: invalid option`);
    sh.write(2, `${argv[0]}: usage: ${usage}\n`);
    return 2;
  }
  return args;
}

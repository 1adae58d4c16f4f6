import type { Shell } from '../shell.js';

/** A builtin: argv[0] is its name; writes go to the shell's fds 0/1/2; returns the status. */
export type Builtin = (sh: Shell, argv: string[]) => number;

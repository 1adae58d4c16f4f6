// The builtin table. Special builtins (POSIX) keep prefix assignments and are found before functions.

import { echo } from './echo.js';
import { noOptions } from './options.js';
import { printf } from './printf.js';
import { test } from './test.js';
import { cd, dirs, popd, pushd, pwd } from './dirs.js';
import { declare, unset } from './declare.js';
import { expandContext } from '../context.js';
import { set, shift, shopt } from './set.js';
import { break_, colon, continue_, eval_, exec, exit, false_, let_, logout, return_, source, trap, true_, wait } from './flow.js';
import { mapfile, read } from './read.js';
import { alias, unalias } from './aliases.js';
import { caller } from './caller.js';
import { getopts } from './getopts.js';
import { fg, jobs, kill } from './jobs.js';
import { command, hash, type } from './lookup.js';
import { times, umask } from './process.js';
import { ulimit } from './ulimit.js';
import { enable, help } from './table.js';
import { historyBuiltin } from '../../interactive/history-builtin.js';
import type { Builtin } from './types.js';

export const SPECIAL_BUILTINS = new Set([':', '.', 'break', 'continue', 'eval', 'exec', 'exit', 'export', 'readonly', 'return', 'set', 'shift', 'source', 'trap', 'unset', 'times']);

/** Declaration builtins reached as plain words (`command export x=1`, `eval`): string arguments. */
const decl: Builtin = (sh, argv) => declare(sh, argv[0], argv.slice(1), expandContext(sh));

/** builtin NAME [ARG...]: run the builtin even if a function has that name. */
const builtin: Builtin = (sh, given) => {
  const args = noOptions(sh, given, 'builtin [shell-builtin [arg ...]]');
  if (typeof args === 'number') return args;
  const argv = [given[0], ...args];
  const b = BUILTINS[argv[1] ?? ''];
  if (!argv[1]) return 0;
  if (!b) {
    sh.error(`builtin: ${argv[1]}: not a shell builtin`);
    return 1;
  }
  return b(sh, argv.slice(1));
};

/** history: the interactive shell's (interactive/history-builtin.ts); nothing to do without one. */
const history: Builtin = (sh, argv) => (sh.history ? historyBuiltin(sh, sh.history, argv) : 0);

export const BUILTINS: Record<string, Builtin> = {
  echo, printf, test, '[': test, cd, pwd, pushd, popd, dirs, unset, set, shopt, shift,
  break: break_, continue: continue_, ':': colon, true: true_, false: false_, eval: eval_, '.': source, source, exec,
  exit, logout, return: return_, trap, wait, let: let_, read, mapfile, readarray: mapfile, type, command, hash, help,
  alias, unalias, getopts, umask, ulimit, times, jobs, fg, bg: fg, kill, history, enable, caller,
  declare: decl, typeset: decl, local: decl, export: decl, readonly: decl, builtin,
};

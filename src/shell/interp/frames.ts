// bash's call stack as the script sees it: FUNCNAME, BASH_SOURCE and
// BASH_LINENO, one element per function call or `source`, innermost first.
// A script file has a bottom frame ("main", the script, line 0); under -c
// there is none and functions defined there come from "environment".

import type { Shell } from './shell.js';

export interface Frame {
  /** The function's name, `source`, or `main` for a script's bottom frame. */
  name: string;
  /** The file the running code comes from (a function's: where it was defined). */
  source: string;
  /** The line it was called from (0 for the bottom frame). */
  line: number;
  fn: boolean;
}

/** Where a function defined now comes from. */
export function definitionSource(sh: Shell): string {
  return sh.sourceStack.at(-1) ?? sh.frames[0]?.source ?? 'environment';
}

/** Set the three arrays from the frames; `local`: in the current (function) scope. FUNCNAME only inside a function. */
export function publishFrames(sh: Shell, local = false): void {
  const top = [...sh.frames].reverse();
  const set = (name: string, values: string[]) => {
    try {
      sh.vars.setArray(name, values.map((value) => ({ key: null, value })), { local });
    } catch {
      /* made readonly by the script */
    }
  };
  if (top.some((f) => f.fn)) set('FUNCNAME', top.map((f) => f.name));
  else if (sh.vars.isSet('FUNCNAME')) sh.vars.unset('FUNCNAME');
  set('BASH_SOURCE', top.map((f) => f.source));
  set('BASH_LINENO', top.map((f) => String(f.line)));
}

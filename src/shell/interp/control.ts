// Control flow that unwinds the interpreter's stack: break/continue N, return, exit.

export class BreakSignal {
  constructor(public levels: number) {}
}

export class ContinueSignal {
  constructor(public levels: number) {}
}

export class ReturnSignal {
  constructor(readonly status: number) {}
}

export class ExitSignal {
  /** `command`: thrown by the exit builtin itself (a session ends there; other exits end only the exec). */
  constructor(readonly status: number, readonly command = false) {}
}

/** An in-process subshell ended by a signal's default action (status 128+N). */
export class SignalDeath extends ExitSignal {
  constructor(readonly signal: number) {
    super(128 + signal);
  }
}

/** SIGINT in a session shell: abandon the running command (status 130). */
export class InterruptSignal {}

/**
 * A fatal expansion error (bad substitution, $((1/0)), set -u, ${x:?}): ends a
 * non-interactive shell, or the subshell it happens in. eval and source catch
 * it and go on with their next command, unless `pastEval` (set -u, ${x:?}).
 */
export class AbortSignal extends ExitSignal {
  constructor(status: number, readonly pastEval: boolean) {
    super(status);
  }
}

/**
 * A JavaScript stack overflow: the script recursed deeper than the interpreter's
 * stack allows (where bash, without FUNCNEST, would segfault). Engines throw a
 * RangeError (V8, JavaScriptCore) or an InternalError (SpiderMonkey).
 */
export function isStackOverflow(e: unknown): boolean {
  if (e instanceof RangeError) return /call stack/i.test(e.message);
  return e instanceof Error && e.name === 'InternalError' && /recursion/i.test(e.message);
}

// The error the expander and the interpreter throw for a shell-level failure
// (bash's message text, without the `NAME: line N:` prefix the shell adds).

export class ShellError extends Error {
  /** `fatal`: expansion errors that end a non-interactive shell (bash: ${x:?}, set -u). */
  constructor(message: string, readonly status = 1, readonly fatal = false) {
    super(message);
  }
}

// Control flow and fatal errors, as exceptions that unwind the interpreter.

/** A runtime fatal error: `awk: cmd. line:N: fatal: MSG`, exit status 2. */
export class AwkFatal extends Error {
  /** Reported without the source position (input files). */
  constructor(
    msg: string,
    readonly bare = false,
  ) {
    super(msg);
  }
}

export class NextSignal {}
export class NextFileSignal {}

export class ExitSignal {
  constructor(readonly status: number | null) {}
}

export class ReturnSignal {
  constructor(readonly value: import('./value.js').Val) {}
}

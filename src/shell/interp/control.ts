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
  constructor(readonly status: number) {}
}

/** SIGINT in a session shell: abandon the running command (status 130). */
export class InterruptSignal {}

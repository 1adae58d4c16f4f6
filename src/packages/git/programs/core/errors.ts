// How git ends: `fatal: ...` (128), `error: ...` (usually 1), usage errors (129).
// Commands throw these; the entry prints nothing more and exits with the status.

/** Unwind to the entry with an exit status; messages were already printed. */
export class GitExit {
  constructor(readonly status: number) {}
}

/** `fatal: <msg>`, exit 128 (or the given status). */
export class Fatal {
  constructor(
    readonly message: string,
    readonly status = 128,
  ) {}
}

// Signals into CPython. CPython polls Pyodide's "interrupt buffer" between
// bytecodes (and when a blocking call returns EINTR); ours is an object whose
// `[0]` looks at the kernel's caught-signals flag in the channel header (no
// syscall unless one is pending), runs the kernel-side handlers, and hands
// CPython one caught signal at a time. CPython then runs the Python handler
// (SIGINT's default is KeyboardInterrupt), so even `while True: pass` is
// interrupted. Which signals are caught follows Python's signal.signal().

import { SIG_DFL, SIG_HANDLE, SIG_IGN, SIGINT } from '../../abi/signal.js';
import type { ProcessContext } from '../context.js';
import type { Pyodide } from './engine.js';

export class PySignals {
  private pending: number[] = [];

  constructor(private readonly ctx: ProcessContext) {}

  /** Start delivering: SIGINT is caught from the start, as CPython installs default_int_handler. */
  install(py: Pyodide): void {
    this.disposition(SIGINT, SIG_HANDLE);
    const ctx = this.ctx;
    const pending = this.pending;
    const buffer = {
      get 0(): number {
        ctx.sys.raw.pollSignals();
        return pending[0] ?? 0;
      },
      set 0(_: number) {
        pending.shift(); // CPython clears the slot once it has taken the signal
      },
    };
    py.setInterruptBuffer(buffer as unknown as Int32Array);
  }

  /**
   * A caught signal CPython has not taken yet: a blocking call must not start
   * (it would wait with the signal unhandled); it fails with EINTR instead, and
   * CPython runs the handler before retrying, as PEP 475 says.
   */
  interrupted(): boolean {
    this.ctx.sys.raw.pollSignals();
    return this.pending.length > 0;
  }

  /** Python's signal.signal(): SIG_DFL, SIG_IGN, or SIG_HANDLE (a Python handler). */
  disposition(sig: number, how: number): void {
    if (how === SIG_HANDLE) this.ctx.signal(sig, (s) => this.pending.push(s));
    else this.ctx.signal(sig, how === SIG_IGN ? SIG_IGN : SIG_DFL);
  }
}

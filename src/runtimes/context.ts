// What every runtime gets for one process: its syscalls, argv/env, exit and signal plumbing.

import { SysError } from '../abi/errno.js';
import { NSIG, SIG_DFL, SIG_HANDLE, SIG_IGN } from '../abi/signal.js';
import type { RunMessage } from '../abi/runtime.js';
import type { Sys } from '../libc/sys.js';
import { hideHostPaths } from './host-frames.js';

/** Thrown to unwind the program's stack after exit(); never caught by the runtime's callers. */
export class ExitUnwind {
  constructor(readonly code: number) {}
}

export type SignalHandler = (sig: number) => void;

export class ProcessContext {
  readonly pid: number;
  /** argv as the runtime received it (interpreter and script included). */
  readonly argv: string[];
  /** The file the kernel ran, by its canonical path (/proc/self/exe): how a runtime starts itself again. */
  readonly file: string;
  readonly env: string[];
  /** The compiled wasm image the kernel sent, or why it cannot run. */
  readonly module?: WebAssembly.Module | string;
  /** The VM's memory limit per process, for a runtime that makes its own WebAssembly memory (Pyodide). */
  readonly memoryBytes?: number;
  /** The js runtime's script as the kernel opened it for this process (abi/runtime.ts programKey). */
  readonly script?: string;
  exited = false;
  /** Set by a runtime that leaves its worker unfit for another program: the kernel ends it instead of pooling it. */
  retire = false;
  private handlers = new Map<number, SignalHandler>();
  private inHandler = false;

  constructor(
    readonly sys: Sys,
    msg: RunMessage,
  ) {
    this.pid = msg.pid;
    this.argv = msg.image.argv;
    this.file = msg.image.file;
    this.env = msg.env;
    this.module = msg.module;
    this.memoryBytes = msg.memoryBytes;
    this.script = msg.script;
    sys.raw.onSignals = () => this.runHandlers();
  }

  /** exit(2): end the process now. Throws to unwind the program. */
  exit(code: number): never {
    if (this.sys.raw.invalidated) this.exited = true; // replaced by execve: nothing to exit
    if (!this.exited) {
      this.exited = true;
      this.sys.raw.call('exit', code & 0xff);
      this.sys.raw.invalidate();
    }
    throw new ExitUnwind(code);
  }

  /** An uncaught error: report it like node does, exit 1. */
  fatal(e: unknown): void {
    if (e instanceof ExitUnwind || this.exited) return;
    const name = this.argv[1] ?? this.argv[0] ?? 'agentos';
    const text = hideHostPaths(e instanceof SysError ? `${name}: ${e.message}\n` : `${name}: ${errorText(e)}\n`);
    try {
      this.sys.writeAll(2, text);
    } catch {
      // stderr may be closed; the exit status still tells.
    }
    try {
      this.exit(1);
    } catch {
      // ExitUnwind: done.
    }
  }

  /** Install a handler (function), or SIG_DFL / SIG_IGN. */
  signal(sig: number, handler: SignalHandler | typeof SIG_DFL | typeof SIG_IGN): void {
    if (typeof handler === 'function') {
      this.handlers.set(sig, handler);
      this.sys.sigaction(sig, SIG_HANDLE);
    } else {
      this.handlers.delete(sig);
      this.sys.sigaction(sig, handler);
    }
  }

  private runHandlers(): void {
    if (this.inHandler || this.exited) return;
    this.inHandler = true;
    try {
      const set = this.sys.raw.call('sigtake') as number;
      for (let sig = 1; sig < NSIG; sig++) if (set & (1 << sig)) this.handlers.get(sig)?.(sig);
    } finally {
      this.inHandler = false;
    }
  }
}

/** An error as V8 prints it: Firefox's and WebKit's `stack` leave out the `Name: message` line. */
export function errorText(e: unknown): string {
  const stack = (e as Error)?.stack;
  if (typeof stack !== 'string' || !stack) return String(e);
  const head = String(e);
  return stack.startsWith(head) ? stack : `${head}\n${stack}`;
}

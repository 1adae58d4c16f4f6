// What one node process's built-in modules share: its syscalls, event loop,
// `process` object and the lazy built-in table.

import type { ProcessContext } from '../context.js';
import type { Sys } from '../../libc/sys.js';
import type { EventLoop } from './loop.js';
import type { PathModule } from './path.js';

export const NODE_VERSION = 'v20.19.0';

export interface Rt {
  ctx: ProcessContext;
  sys: Sys;
  loop: EventLoop;
  path: PathModule;
  /** The guest's `process` (created lazily: `node -e 0` never builds streams it does not use). */
  process: NodeProcess;
  /** A built-in module by bare name (no `node:`), instantiated on first use. */
  builtin(name: string): unknown;
  /** Buffered stdout/stderr; flush before anything another process could observe. */
  stdio: import('./stdio.js').StdioSink;
  /** Terminal modes the process changed (setRawMode), restored at exit. */
  tty: import('./tty-mode.js').TtyMode;
  /** The guest's global console. */
  console: object;
  /** A `require` that resolves from a file's directory (module.createRequire). */
  requireFrom(file: string): unknown;
}

export interface NodeProcess extends Record<string | symbol, unknown> {
  env: Record<string, string>;
  argv: string[];
  exitCode: number | undefined;
  exit(code?: number): never;
  emit(name: string | symbol, ...a: unknown[]): boolean;
  listenerCount(name: string | symbol): number;
  nextTick(cb: (...a: unknown[]) => void, ...args: unknown[]): void;
  stdout: import('./stream.js').Writable;
  stderr: import('./stream.js').Writable;
  stdin: import('./stream.js').Readable;
}

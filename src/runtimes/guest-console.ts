// The process worker's global `console` belongs to the guest. Left as the
// worker's host made it, it would print on the host's own terminal (on Node a
// worker's stdout and stderr are piped to the host process's; under `agentos
// mcp` that is the protocol stream) or in the page's devtools console. This
// one writes, formatted as Node's, to the running process's fds 1 and 2 like
// any other output of the program, and between programs prints nothing.

import { SysError } from '../abi/errno.js';
import type { Sys } from '../libc/sys.js';
import { Console } from './node/console.js';

let current: Sys | null = null;

function fd(n: number): { write(s: string): void } {
  return {
    write(s) {
      if (!current || current.raw.invalidated) return;
      try {
        current.writeAll(n, s);
      } catch (e) {
        // As Node's console: a closed or broken fd is not the program's error.
        if (!(e instanceof SysError)) throw e;
      }
    },
  };
}

/** Replace the worker's console; called by the worker entry before anything else runs. */
export function installGuestConsole(): void {
  const out = fd(1);
  const err = fd(2);
  // Writable and configurable: programs may replace it, and the node runtime installs its own per process.
  Object.defineProperty(globalThis, 'console', { value: new Console(() => out, () => err), writable: true, configurable: true, enumerable: false });
}

/** The process the console prints for: set around each program's run, null between runs. */
export function consoleFor(sys: Sys | null): void {
  current = sys;
}

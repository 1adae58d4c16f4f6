// Errors guest code leaves uncaught outside its program's own call — thrown by
// a callback the worker's host runs (a timer, a microtask, a Pyodide proxy) or
// a promise rejection no one handles — surface on the worker's host: Node's
// 'uncaughtException'/'unhandledRejection' (whose defaults print the error on
// the host's stderr and end the worker) or the worker scope's 'error'/
// 'unhandledrejection' events (which the page's console reports). Both would
// carry guest text out of the VM. The worker entry takes them here once,
// before confinement hides the host's `process` and before any guest code
// runs, and they go to the running process's handler: the node runtime's
// process events, or else the process dies as from an uncaught error (its
// report on its own stderr, status 1). With no program running they are
// dropped, as is an error the handler itself throws.

export type GuestErrorHandler = (error: unknown, fromPromise: boolean) => void;

let current: GuestErrorHandler | null = null;

function report(error: unknown, fromPromise: boolean): void {
  try {
    current?.(error, fromPromise);
  } catch {
    // nowhere to report it that the guest does not control
  }
}

/** Take the worker host's reports of uncaught errors (Node's process events, or the worker scope's). */
export function takeGuestErrors(): void {
  const host = globalThis as unknown as {
    process?: { on?: (ev: string, cb: (e: unknown) => void) => void };
    addEventListener?: (ev: string, cb: (e: Event & { error?: unknown; message?: string; reason?: unknown }) => void) => void;
  };
  if (typeof host.process?.on === 'function') {
    host.process.on('uncaughtException', (e) => report(e, false));
    host.process.on('unhandledRejection', (r) => report(r, true));
  } else if (typeof host.addEventListener === 'function') {
    // preventDefault: the error is handled, so it is neither logged nor passed to the Worker object.
    host.addEventListener('error', (e) => {
      e.preventDefault();
      report(e.error ?? e.message, false);
    });
    host.addEventListener('unhandledrejection', (e) => {
      e.preventDefault();
      report(e.reason, true);
    });
  }
}

/** Who gets the errors from now on; returns the previous handler (a runtime restores it when its process ends). */
export function onGuestError(h: GuestErrorHandler | null): GuestErrorHandler | null {
  const prev = current;
  current = h;
  return prev;
}

// The worker's global object while a node process runs: `process`, `Buffer`,
// `global`, `console` and the timer functions are the process's own, so code
// that reaches them through globalThis (or eval/new Function) sees the guest's
// objects, not the worker host's (in the Node host: the real process, and a
// console writing to the host's terminal). Restored when the process ends, so
// the next program in this pooled worker finds the worker as it was.

/** The host's microtask queue, captured before any guest can replace it. */
export const hostQueueMicrotask: (cb: () => void) => void = globalThis.queueMicrotask.bind(globalThis);

export function installGlobals(values: Record<string, () => unknown>): () => void {
  const g = globalThis as unknown as Record<string, unknown>;
  const saved = new Map<string, PropertyDescriptor | undefined>();
  for (const [name, get] of Object.entries(values)) {
    saved.set(name, Object.getOwnPropertyDescriptor(g, name));
    try {
      Object.defineProperty(g, name, { get, set: (v) => Object.defineProperty(g, name, { value: v, writable: true, configurable: true, enumerable: false }), configurable: true, enumerable: false });
    } catch {
      // a non-configurable host global stays the host's
    }
  }
  return () => {
    for (const [name, d] of saved) {
      try {
        if (d) Object.defineProperty(g, name, d);
        else delete g[name];
      } catch {
        // as above
      }
    }
  };
}

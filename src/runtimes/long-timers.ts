// Guest timers of any length. A process worker's setTimeout is the host's,
// which fires a delay past 2^31-1 ms at once (Node: after 1 ms; browsers wrap
// it); guest code (the js runtime, Pyodide's event loop) means "far away".
// Installed once per worker: such delays become chains of host timers, and a
// delay of Infinity never fires. Shorter delays go straight to the host's.

import { longTimeout, MAX_TIMEOUT_MS, type LongTimeout } from '../abi/long-timeout.js';

type Fn = (...args: unknown[]) => void;

/** The handle of a long timer: clearTimeout takes it, and it answers Node's Timeout methods. */
class LongHandle {
  timer: LongTimeout | null = null;
  constructor(readonly id: number) {}
  ref(): this { return this; }
  unref(): this { return this; }
  hasRef(): boolean { return true; }
  [Symbol.toPrimitive](): number { return this.id; }
}

export function installLongTimers(g: typeof globalThis = globalThis): void {
  const { setTimeout: hostSet, setInterval: hostInterval, clearTimeout: hostClear, clearInterval: hostClearInterval } = g;
  const handles = new Map<number, LongHandle>();
  // Browsers number their timers from 1; these ids stay clear of them.
  let nextId = 2 ** 40;

  const start = (cb: unknown, ms: number, args: unknown[], repeat: boolean): LongHandle => {
    const h = new LongHandle(nextId++);
    handles.set(h.id, h);
    const arm = () => {
      h.timer = longTimeout(() => {
        if (repeat) arm();
        else handles.delete(h.id);
        if (typeof cb === 'function') (cb as Fn)(...args);
      }, ms);
    };
    arm();
    return h;
  };
  const clear = (t: unknown): boolean => {
    const h = t instanceof LongHandle ? t : typeof t === 'number' ? handles.get(t) : undefined;
    if (!h) return false;
    h.timer?.clear();
    handles.delete(h.id);
    return true;
  };

  g.setTimeout = ((cb: unknown, ms?: unknown, ...args: unknown[]) =>
    Number(ms) > MAX_TIMEOUT_MS ? start(cb, Number(ms), args, false) : hostSet(cb as Fn, ms as number, ...args)) as typeof setTimeout;
  g.setInterval = ((cb: unknown, ms?: unknown, ...args: unknown[]) =>
    Number(ms) > MAX_TIMEOUT_MS ? start(cb, Number(ms), args, true) : hostInterval(cb as Fn, ms as number, ...args)) as typeof setInterval;
  g.clearTimeout = ((t: unknown) => void (clear(t) || hostClear(t as number))) as typeof clearTimeout;
  g.clearInterval = ((t: unknown) => void (clear(t) || hostClearInterval(t as number))) as typeof clearInterval;
}

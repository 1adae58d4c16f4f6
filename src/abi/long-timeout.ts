// Timers of any length. setTimeout takes at most 2^31-1 ms: beyond it Node
// fires after 1 ms and browsers wrap the delay, so `sleep 1e10` or
// `alarm(1e300)` would fire at once. Every duration the guest or the host
// gives (kernel sleeps, alarms, poll timeouts, exec timeouts, guest timers)
// goes through here: longer delays are a chain of shorter timers, and
// Infinity never fires.

/** The longest delay setTimeout honours. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export interface LongTimeout {
  clear(): void;
}

/** Call `cb` after `ms` milliseconds (negative or NaN: at once, as setTimeout; Infinity: never). */
export function longTimeout(cb: () => void, ms: number): LongTimeout {
  let t: ReturnType<typeof setTimeout> | undefined;
  const handle = { clear: () => clearTimeout(t) };
  if (ms === Infinity) return handle;
  if (ms > MAX_TIMEOUT_MS) {
    const due = Date.now() + ms;
    const step = () => {
      const left = due - Date.now();
      t = left > MAX_TIMEOUT_MS ? setTimeout(step, MAX_TIMEOUT_MS) : setTimeout(cb, left);
    };
    step();
    return handle;
  }
  t = setTimeout(cb, ms);
  return handle;
}

/**
 * A timeout option (exec's `timeoutMs`): a non-negative number; 0 and
 * Infinity mean none, as GNU timeout's 0. NaN, negative and non-numbers are
 * the caller's error (RangeError), never "at once".
 */
export function timeoutOption(name: string, ms: unknown): number | undefined {
  if (ms === undefined) return undefined;
  if (typeof ms !== 'number' || !(ms >= 0)) throw new RangeError(`${name} must be a non-negative number of milliseconds (0 or Infinity: none), not ${String(ms)}`);
  return ms === 0 || ms === Infinity ? undefined : ms;
}

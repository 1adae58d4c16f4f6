// Kernel diagnostics a guest can provoke (malformed syscalls, handler faults):
// printed for whoever runs the host, but rate-limited like Linux's printk_ratelimit,
// so a process throwing garbage at the kernel cannot flood the host's stderr.

/** At most BURST messages per WINDOW_MS; the rest are counted and reported once. */
const BURST = 10;
const WINDOW_MS = 5000;

let windowStart = -Infinity;
let printed = 0;
let suppressed = 0;

export function complain(message: string): void {
  const now = Date.now();
  if (now - windowStart >= WINDOW_MS) {
    if (suppressed) console.error(`agentos kernel: ${suppressed} similar messages suppressed`);
    windowStart = now;
    printed = 0;
    suppressed = 0;
  }
  if (printed >= BURST) {
    suppressed++;
    return;
  }
  printed++;
  console.error(`agentos kernel: ${message}`);
}

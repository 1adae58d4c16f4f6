// The kernel's own diagnostics, on the host's console (stderr on Node, the
// devtools console in a browser). A guest may be able to cause one (a worker
// that crashes, a malformed syscall, a syscall that trips a kernel bug) and
// put its own strings in the detail, so each is one line: a fixed prefix,
// then the detail JSON-escaped (no newline or control character survives)
// and cut short. It cannot pass for anything but a kernel diagnostic. And
// like Linux's printk_ratelimit, a process throwing garbage at the kernel
// cannot flood the host's stderr: at most BURST lines per WINDOW_MS, the rest
// counted and reported once.

const MAX_DETAIL = 500;
const BURST = 10;
const WINDOW_MS = 5000;

let windowStart = -Infinity;
let printed = 0;
let suppressed = 0;

export function diagnose(what: string, detail: unknown): void {
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
  let text: string;
  try {
    text = detail instanceof Error ? detail.stack ?? String(detail) : String(detail);
  } catch {
    text = '(unprintable)';
  }
  if (text.length > MAX_DETAIL) text = `${text.slice(0, MAX_DETAIL)}...`;
  console.error(`agentos kernel: ${what}: ${JSON.stringify(text)}`);
}

// The kernel's own diagnostics, on the host's console (stderr on Node, the
// devtools console in a browser). A guest may be able to cause one (a worker
// that crashes, a malformed syscall, a syscall that trips a kernel bug) and
// put its own strings in the detail, so each is one line: a fixed prefix,
// then the detail JSON-escaped (no newline or control character survives)
// and cut short. It cannot pass for anything but a kernel diagnostic. And
// like Linux's printk_ratelimit, a process throwing garbage at the kernel
// cannot flood the host's stderr: at most BURST lines per WINDOW_MS, the rest
// counted and reported once. The Node host relays its VM process's stderr
// through the same rules (src/host/node/vm-link.ts).

const MAX_DETAIL = 500;
const BURST = 10;
const WINDOW_MS = 5000;

/** What JSON leaves raw and a terminal may still act on: DEL, the C1 controls (U+009B is CSI to some terminals), the line and paragraph separators, the bidirectional overrides. */
const RAW_ACTIVE = /[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const ACTIVE = /[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Whether `text` holds a character a terminal may act on (a newline too): such text is shown quoted. */
export const needsQuoting = (text: string): boolean => ACTIVE.test(text);

/** `text` as a JSON string, with those characters JSON leaves raw escaped too. */
export function quoteLine(text: string): string {
  return JSON.stringify(text).replace(RAW_ACTIVE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** At most `burst` lines per `windowMs`; the rest are counted, and the count printed once the next window opens. */
export class LineLimiter {
  private windowStart = -Infinity;
  private printed = 0;
  private suppressed = 0;

  constructor(
    private readonly print: (line: string) => void,
    private readonly prefix: string,
    private readonly burst = BURST,
    private readonly windowMs = WINDOW_MS,
  ) {}

  /** Print a line (no newline in it; made only if it is printed) unless over the rate. */
  line(make: () => string): void {
    const now = Date.now();
    if (now - this.windowStart >= this.windowMs) {
      if (this.suppressed) this.print(`${this.prefix}${this.suppressed} similar messages suppressed`);
      this.windowStart = now;
      this.printed = 0;
      this.suppressed = 0;
    }
    if (this.printed >= this.burst) {
      this.suppressed++;
      return;
    }
    this.printed++;
    this.print(`${this.prefix}${make()}`);
  }
}

const kernelLines = new LineLimiter((line) => console.error(line), 'agentos kernel: ');

export function diagnose(what: string, detail: unknown): void {
  kernelLines.line(() => {
    let text: string;
    try {
      text = detail instanceof Error ? detail.stack ?? String(detail) : String(detail);
    } catch {
      text = '(unprintable)';
    }
    if (text.length > MAX_DETAIL) text = `${text.slice(0, MAX_DETAIL)}...`;
    return `${what}: ${quoteLine(text)}`;
  });
}

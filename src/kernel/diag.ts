// The kernel's own diagnostics, on the host's console (stderr on Node, the
// devtools console in a browser). A guest may be able to cause one (a worker
// that crashes, a syscall that trips a kernel bug) and put its own strings in
// the detail, so each is one line: a fixed prefix, then the detail
// JSON-escaped (no newline or control character survives) and cut short.
// It cannot pass for anything but a kernel diagnostic.

const MAX_DETAIL = 500;

export function diagnose(what: string, detail: unknown): void {
  let text: string;
  try {
    text = detail instanceof Error ? detail.stack ?? String(detail) : String(detail);
  } catch {
    text = '(unprintable)';
  }
  if (text.length > MAX_DETAIL) text = `${text.slice(0, MAX_DETAIL)}...`;
  console.error(`agentos kernel: ${what}: ${JSON.stringify(text)}`);
}

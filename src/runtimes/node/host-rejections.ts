// Unhandled promise rejections of guest code surface on the worker's host
// (Node's process 'unhandledRejection', the browser's 'unhandledrejection').
// Registered once per worker, at load, before any guest code can run; the
// running node process gets them.

type Handler = (reason: unknown) => void;
let current: Handler | null = null;

const host = globalThis as unknown as {
  process?: { on?: (ev: string, cb: (r: unknown) => void) => void };
  addEventListener?: (ev: string, cb: (e: { reason: unknown; preventDefault(): void }) => void) => void;
};
if (typeof host.process?.on === 'function') {
  host.process.on('unhandledRejection', (r) => {
    if (!current) throw r; // no node process: the worker's own default (a crash) as before
    current(r);
  });
} else if (typeof host.addEventListener === 'function') {
  host.addEventListener('unhandledrejection', (e) => {
    if (!current) return;
    e.preventDefault();
    current(e.reason);
  });
}

export function onHostRejection(h: Handler | null): void {
  current = h;
}

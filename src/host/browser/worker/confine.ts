// Confinement of guest code in a browser process worker (issue 6): before
// any program runs, the worker removes every web API that reaches past the
// VM — network, storage, other contexts — from its global scope and the
// prototypes behind it, so a program cannot take them back from there. The
// worker entry keeps its own postMessage and message listener first; after
// that, no code in the worker can send to the kernel or read the kernel's
// messages to this worker (which carry the next process's channel).
//
// Wasmer's workers (decision 0021) get the same confinement through
// confineWasmerWorker, except that they keep postMessage/onmessage: their
// channel goes to their parent, the process worker running the same program,
// not to the kernel.
//
// Not covered (docs/security.md): `import()` of a URL (the page's CSP is the
// only control), and timing/side channels.

const REMOVED = [
  // network
  'XMLHttpRequest', 'WebSocket', 'WebSocketStream', 'EventSource', 'WebTransport', 'importScripts',
  // storage
  'indexedDB', 'caches', 'CacheStorage', 'IDBFactory', 'FileSystemHandle', 'FileSystemDirectoryHandle', 'FileSystemFileHandle', 'FileSystemSyncAccessHandle', 'StorageManager',
  // other contexts
  'BroadcastChannel', 'Worker', 'SharedWorker',
];
/** A process worker's channel is the kernel's: program code must not post on it or read it. */
const CHANNEL = ['postMessage', 'onmessage', 'onmessageerror'];

/**
 * The app's own static files that runtimes load at run time (Pyodide, the
 * Wasmer SDK, installable packages): same origin, GET, these directories,
 * no credentials. Everything else fetch refuses; guests reach the network
 * only through the kernel's `http` syscall and the VM's network policy.
 */
const ASSETS = /^(?:\/[^?#]*)?\/(?:pyodide|vendor\/wasmer-sdk|pkg)\//;

function assetFetch(real: typeof fetch): typeof fetch {
  return (input, init) => {
    const req = input instanceof Request ? input : null;
    const url = new URL(req ? req.url : String(input), location.href);
    const method = (init?.method ?? req?.method ?? 'GET').toUpperCase();
    if (url.origin !== location.origin || method !== 'GET' || !ASSETS.test(url.pathname)) {
      return Promise.reject(new TypeError('fetch is not available to agentOS programs (network access goes through the VM\'s network policy)'));
    }
    return real(url.href, { credentials: 'omit', signal: init?.signal ?? req?.signal ?? null });
  };
}

/** Delete `name` from the global object and every prototype of it. */
function remove(name: string): void {
  for (let o: object | null = globalThis; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    if (Object.getOwnPropertyDescriptor(o, name)) {
      try {
        delete (o as Record<string, unknown>)[name];
      } catch {
        // not configurable: shadow it below
      }
    }
  }
  if (name in globalThis) {
    Object.defineProperty(globalThis, name, { value: undefined, configurable: true, writable: false });
  }
}

export interface KeptPort {
  post(msg: unknown): void;
  onMessage(cb: (data: unknown) => void): void;
}

/** Keep this worker's own channel to the kernel, then confine the global scope. */
export function confine(): KeptPort {
  const self = globalThis as unknown as DedicatedWorkerGlobalScope;
  const post = self.postMessage.bind(self);
  const listeners: ((data: unknown) => void)[] = [];
  const addListener = EventTarget.prototype.addEventListener;
  // isTrusted: a MessageEvent a program dispatches itself is not the kernel's.
  addListener.call(self, 'message', (e: Event) => {
    if (e.isTrusted) listeners.forEach((l) => l((e as MessageEvent).data));
  });
  // Message listeners on the worker's scope are the kernel's to own.
  EventTarget.prototype.addEventListener = function (this: EventTarget, type: string, ...rest: unknown[]) {
    if (this === self && (type === 'message' || type === 'messageerror')) throw new DOMException('not available to agentOS programs', 'SecurityError');
    return (addListener as (...a: unknown[]) => void).call(this, type, ...rest);
  } as typeof EventTarget.prototype.addEventListener;
  lockDown(CHANNEL);
  return { post, onMessage: (cb) => listeners.push(cb) };
}

/**
 * Confine a worker Wasmer's SDK starts for a WASIX program: everything
 * confine() removes except the worker's own message channel (to its parent,
 * the process worker). `Worker` becomes `shim` — the same confined start for
 * workers the SDK nests — or is removed when there is none.
 */
export function confineWasmerWorker(shim: typeof Worker | undefined): void {
  lockDown([]);
  if (shim) Object.defineProperty(globalThis, 'Worker', { value: shim, configurable: false, writable: false });
}

/** Remove the network, storage and other-context APIs (and `extra`); fetch keeps only the app's assets. */
function lockDown(extra: string[]): void {
  // navigator.storage (OPFS, quotas) and navigator.locks (coordination with the page).
  const nav = Object.getPrototypeOf(globalThis.navigator) as object;
  for (const name of ['storage', 'locks', 'serviceWorker']) {
    try {
      delete (nav as Record<string, unknown>)[name];
    } catch {
      // ignore
    }
  }
  const realFetch = globalThis.fetch.bind(globalThis);
  for (const name of [...REMOVED, ...extra, 'fetch']) remove(name);
  Object.defineProperty(globalThis, 'fetch', { value: assetFetch(realFetch), configurable: false, writable: false });
}

// The host↔kernel control channel carries a per-VM secret: the
// host draws it, hands it to the kernel worker in the first message, and
// both ends wrap their Comlink endpoint so that every message carries it and
// messages without it are dropped unseen. Another script holding the worker
// (or a port to it) cannot drive the kernel without the secret; guest code
// never holds either end (process workers talk to the kernel only through
// their syscall channel).

import type { Endpoint } from 'comlink';

const KEY = '__agentosSecret';

type Listener = EventListenerOrEventListenerObject;

/** 32 random bytes, hex. */
export function newSecret(): string {
  const b = new Uint8Array(32);
  crypto.getRandomValues(b);
  return [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
}

/** Constant-time comparison: the answer does not tell how much of a guess was right. */
function same(a: unknown, b: string): boolean {
  if (typeof a !== 'string' || a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return d === 0;
}

export function sealEndpoint(ep: Endpoint, secret: string): Endpoint {
  const wrapped = new WeakMap<Listener, EventListener>();
  return {
    postMessage: (msg: unknown, transfer?: Transferable[]) => ep.postMessage({ [KEY]: secret, msg }, transfer),
    addEventListener: (type: string, listener: Listener, options?: object) => {
      const fn = (ev: Event) => {
        const data = (ev as MessageEvent).data as Record<string, unknown> | null;
        if (!data || typeof data !== 'object' || !same(data[KEY], secret)) return;
        const inner = { data: data.msg, origin: (ev as MessageEvent).origin ?? '' } as unknown as MessageEvent;
        if (typeof listener === 'function') listener(inner);
        else listener.handleEvent(inner);
      };
      wrapped.set(listener, fn);
      ep.addEventListener(type, fn, options);
    },
    removeEventListener: (type: string, listener: Listener, options?: object) => {
      const fn = wrapped.get(listener);
      if (fn) ep.removeEventListener(type, fn, options);
    },
  };
}

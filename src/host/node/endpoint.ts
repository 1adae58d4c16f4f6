// Adapt a worker_threads port (or a child process's IPC channel) to the Endpoint shape Comlink expects (addEventListener/postMessage).

import type { Endpoint } from 'comlink';

type Listener = (ev: { data: unknown }) => void;

/** What worker_threads ports and workers have in common (a child process's IPC channel, adapted: isolation.ts). */
export interface NodePort {
  postMessage(msg: unknown, transfer?: never): void;
  on(event: 'message', fn: (data: unknown) => void): unknown;
  off(event: 'message', fn: (data: unknown) => void): unknown;
}

export function nodeEndpoint(port: NodePort): Endpoint {
  const wrapped = new WeakMap<object, (data: unknown) => void>();
  return {
    postMessage: (msg: unknown, transfer?: Transferable[]) => port.postMessage(msg, transfer as never),
    addEventListener: (_type: string, listener: EventListenerOrEventListenerObject) => {
      const ev = (data: unknown) => ({ data }) as unknown as Event;
      const fn = (data: unknown) =>
        'handleEvent' in listener ? listener.handleEvent(ev(data)) : (listener as unknown as Listener)({ data });
      wrapped.set(listener, fn);
      port.on('message', fn);
    },
    removeEventListener: (_type: string, listener: EventListenerOrEventListenerObject) => {
      const fn = wrapped.get(listener);
      if (fn) port.off('message', fn);
    },
  };
}

// Adapt a worker_threads port to the Endpoint shape Comlink expects (addEventListener/postMessage).

import type { Endpoint } from 'comlink';
import type { MessagePort, Worker } from 'node:worker_threads';

type Listener = (ev: { data: unknown }) => void;

export function nodeEndpoint(port: MessagePort | Worker): Endpoint {
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

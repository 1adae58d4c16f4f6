// The `events` module: EventEmitter with Node's semantics (listener order,
// once, prepend, 'error' without a listener throws, newListener/removeListener,
// the max-listeners warning count) plus once() and on() helpers.

type Listener = ((...args: unknown[]) => unknown) & { listener?: Listener };

const kEvents = Symbol('kEvents');
const kMax = Symbol('kMaxListeners');

export class EventEmitter {
  static defaultMaxListeners = 10;
  static readonly errorMonitor = Symbol('events.errorMonitor');
  static captureRejections = false;
  declare [kEvents]: Map<string | symbol, Listener[]>;
  declare [kMax]: number | undefined;

  constructor() {
    EventEmitter.init.call(this);
  }

  static init(this: EventEmitter): void {
    if (!this[kEvents]) Object.defineProperty(this, kEvents, { value: new Map(), writable: true, configurable: true });
  }

  private get events(): Map<string | symbol, Listener[]> {
    if (!this[kEvents]) EventEmitter.init.call(this);
    return this[kEvents];
  }

  setMaxListeners(n: number): this { this[kMax] = n; return this; }
  getMaxListeners(): number { return this[kMax] ?? EventEmitter.defaultMaxListeners; }

  emit(name: string | symbol, ...args: unknown[]): boolean {
    const list = this.events.get(name);
    if (name === 'error') {
      const mon = this.events.get(EventEmitter.errorMonitor);
      if (mon) for (const l of [...mon]) l.apply(this, args);
      if (!list || list.length === 0) {
        const err = args[0];
        if (err instanceof Error) throw err;
        const e = new Error(`Unhandled error. (${String(err)})`) as Error & { code: string; context: unknown };
        e.code = 'ERR_UNHANDLED_ERROR';
        e.context = err;
        throw e;
      }
    }
    if (!list || list.length === 0) return false;
    for (const l of [...list]) l.apply(this, args);
    return true;
  }

  private add(name: string | symbol, l: Listener, prepend: boolean): this {
    if (typeof l !== 'function') {
      const e = new TypeError(`The "listener" argument must be of type function. Received ${l === null ? 'null' : typeof l}`) as TypeError & { code: string };
      e.code = 'ERR_INVALID_ARG_TYPE';
      throw e;
    }
    if (this.events.has('newListener')) this.emit('newListener', name, l.listener ?? l);
    let list = this.events.get(name);
    if (!list) this.events.set(name, (list = []));
    if (prepend) list.unshift(l);
    else list.push(l);
    return this;
  }

  on(name: string | symbol, l: Listener): this { return this.add(name, l, false); }
  addListener(name: string | symbol, l: Listener): this { return this.add(name, l, false); }
  prependListener(name: string | symbol, l: Listener): this { return this.add(name, l, true); }

  private wrapOnce(name: string | symbol, l: Listener): Listener {
    let fired = false;
    const w: Listener = (...args: unknown[]) => {
      if (fired) return undefined;
      fired = true;
      this.removeListener(name, w);
      return l.apply(this, args);
    };
    w.listener = l;
    return w;
  }

  // Through this.on/prependListener, as Node's: a subclass that overrides on() (to replay a cached event,
  // as make-fetch-happen's streams do) sees once() and events.once() too.
  once(name: string | symbol, l: Listener): this { return this.on(name, this.wrapOnce(name, l)); }
  prependOnceListener(name: string | symbol, l: Listener): this { return this.prependListener(name, this.wrapOnce(name, l)); }

  removeListener(name: string | symbol, l: Listener): this {
    const list = this.events.get(name);
    if (!list) return this;
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i] === l || list[i].listener === l) {
        const [gone] = list.splice(i, 1);
        if (list.length === 0) this.events.delete(name);
        if (this.events.has('removeListener')) this.emit('removeListener', name, gone.listener ?? gone);
        break;
      }
    }
    return this;
  }
  declare off: (name: string | symbol, l: Listener) => this;

  removeAllListeners(name?: string | symbol): this {
    if (name === undefined) this.events.clear();
    else this.events.delete(name);
    return this;
  }

  listeners(name: string | symbol): Listener[] { return (this.events.get(name) ?? []).map((l) => l.listener ?? l); }
  rawListeners(name: string | symbol): Listener[] { return [...(this.events.get(name) ?? [])]; }
  listenerCount(name: string | symbol): number { return this.events.get(name)?.length ?? 0; }
  eventNames(): (string | symbol)[] { return [...this.events.keys()]; }
}
// One function under both names, as in Node: a subclass overriding removeListener with `return this.off(..)`
// and off with `super.off(..)` (minipass does both) must not call itself back.
EventEmitter.prototype.off = EventEmitter.prototype.removeListener;

/** events.once(emitter, name): a promise of the next event's arguments (rejects on 'error'). */
export function once(em: EventEmitter, name: string | symbol): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const onErr = (e: unknown) => { em.removeListener(name, onEv); reject(e); };
    const onEv = (...args: unknown[]) => { if (name !== 'error') em.removeListener('error', onErr); resolve(args); };
    em.once(name, onEv);
    if (name !== 'error') em.once('error', onErr);
  });
}

/** events.on(emitter, name): an async iterator of events. */
export function on(em: EventEmitter, name: string | symbol): AsyncIterableIterator<unknown[]> {
  const queue: unknown[][] = [];
  const waiters: [(r: IteratorResult<unknown[]>) => void, (e: unknown) => void][] = [];
  let error: unknown = null;
  let done = false;
  const onEv = (...args: unknown[]) => {
    const w = waiters.shift();
    if (w) w[0]({ value: args, done: false });
    else queue.push(args);
  };
  const onErr = (e: unknown) => {
    error = e;
    const w = waiters.shift();
    if (w) w[1](e);
  };
  em.on(name, onEv);
  if (name !== 'error') em.on('error', onErr);
  const it: AsyncIterableIterator<unknown[]> = {
    next() {
      if (queue.length) return Promise.resolve({ value: queue.shift()!, done: false });
      if (error) { const e = error; error = null; return Promise.reject(e); }
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((res, rej) => waiters.push([res, rej]));
    },
    return() {
      done = true;
      em.removeListener(name, onEv);
      em.removeListener('error', onErr);
      for (const [res] of waiters.splice(0)) res({ value: undefined, done: true });
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() { return it; },
  };
  return it;
}

export function makeEvents(): unknown {
  const m = EventEmitter as unknown as Record<string, unknown>;
  m.EventEmitter = EventEmitter;
  m.once = once;
  m.on = on;
  m.default = EventEmitter;
  m.listenerCount = (em: EventEmitter, n: string) => em.listenerCount(n);
  return EventEmitter;
}

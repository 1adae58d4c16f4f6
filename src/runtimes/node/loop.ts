// The event loop of one node process, with Node's liveness rule: the process
// lives while ref'd timers, immediates, watched fds (stream reads) or child
// processes are pending, and ends when none are. Guest code runs on the
// worker's own JavaScript loop; when nothing is runnable the loop blocks in
// the kernel (poll, waitpid), so signals and pipes wake it as they would Node.

import { Errno, SysError } from '../../abi/errno.js';
import { WNOHANG } from '../../abi/wait.js';
import type { Sys } from '../../libc/sys.js';
import { hostQueueMicrotask } from './globals.js';

const POLLIN = 1, POLLERR = 8, POLLHUP = 16, POLLNVAL = 32;

/** The longest poll timeout the loop asks for. */
const MAX_SAFE_MS = 2 ** 53;

/** A macrotask boundary: lets every pending promise reaction of the guest run first. */
const HostChannel = globalThis.MessageChannel;
let channel: MessagePort | undefined;
let waiting: (() => void)[] = [];
function macrotask(): Promise<void> {
  if (!channel) {
    const ch = new HostChannel();
    ch.port1.onmessage = () => {
      const w = waiting;
      waiting = [];
      for (const f of w) f();
    };
    channel = ch.port2;
    (ch.port1 as { unref?: () => void }).unref?.();
    (ch.port2 as { unref?: () => void }).unref?.();
  }
  return new Promise((r) => {
    waiting.push(r);
    channel!.postMessage(0);
  });
}

export class Timeout {
  due = 0;
  active = true;
  refed = true;
  constructor(
    private loop: EventLoop,
    readonly id: number,
    public ms: number,
    readonly cb: (...a: unknown[]) => void,
    readonly args: unknown[],
    readonly repeat: boolean,
  ) {
    this.due = loop.now + ms;
  }
  ref(): this { this.refed = true; return this; }
  unref(): this { this.refed = false; return this; }
  hasRef(): boolean { return this.refed; }
  refresh(): this {
    this.due = this.loop.now + this.ms;
    if (!this.active) { this.active = true; this.loop.timers.add(this); }
    return this;
  }
  close(): this { this.loop.clearTimer(this); return this; }
  [Symbol.toPrimitive](): number { return this.id; }
}

export class Immediate {
  active = true;
  refed = true;
  constructor(readonly cb: (...a: unknown[]) => void, readonly args: unknown[]) {}
  ref(): this { this.refed = true; return this; }
  unref(): this { this.refed = false; return this; }
  hasRef(): boolean { return this.refed; }
}

/** An fd someone waits on in the background (process.stdin, a child's stdout, a socket). */
export interface Watcher {
  fd: number;
  refed: boolean;
  /** The poll events waited for; POLLIN (readable) when absent. Sockets wait for POLLOUT too. */
  events?: number;
  /** The fd is ready (or at EOF / error): `revents` as poll answered. */
  ready(revents: number): void;
}

export class EventLoop {
  timers = new Set<Timeout>();
  private byId = new Map<number, Timeout>();
  private immediates: Immediate[] = [];
  /** nextTick queue; `tickHead` indexes the next one (shift() would make long queues quadratic). */
  private ticks: [(...a: unknown[]) => void, unknown[]][] = [];
  private tickHead = 0;
  private ticking = false;
  watchers = new Set<Watcher>();
  children = new Map<number, (status: number) => void>();
  /** Children the process does not wait for (ChildProcess.unref()). */
  unrefChildren = new Set<number>();
  signals: number[] = [];
  onSignal: (sig: number) => void = () => {};
  /** Reports an exception thrown by a callback (uncaughtException). */
  onError: (e: unknown) => void = (e) => { throw e; };
  stopped = false;
  /** The loop's notion of now, updated once per iteration as libuv's: timers set by a long
   * synchronous run count from its start, so `setTimeout(f, 0)` in a script beats setImmediate. */
  now = performance.now();
  private nextId = 1;

  /** `flush` writes out buffered stdio: called at each turn and before blocking. */
  constructor(private sys: Sys, private flush: () => void = () => {}) {}

  setTimer(cb: (...a: unknown[]) => void, ms: unknown, args: unknown[], repeat: boolean): Timeout {
    // Node fires a delay past 2^31-1 ms after 1 ms (with a warning); here it
    // means what it says (decision 0031). NaN, negative and <1 are 1, as Node.
    let d = Number(ms);
    if (!(d >= 1)) d = 1;
    const t = new Timeout(this, this.nextId++, d, cb, args, repeat);
    this.timers.add(t);
    this.byId.set(t.id, t);
    return t;
  }

  clearTimer(t: unknown): void {
    const timer = t instanceof Timeout ? t : typeof t === 'number' || typeof t === 'string' ? this.byId.get(Number(t)) : undefined;
    if (!timer) return;
    timer.active = false;
    this.timers.delete(timer);
    this.byId.delete(timer.id);
  }

  setImmediate(cb: (...a: unknown[]) => void, args: unknown[]): Immediate {
    const im = new Immediate(cb, args);
    this.immediates.push(im);
    return im;
  }

  clearImmediate(im: unknown): void {
    if (im instanceof Immediate) im.active = false;
  }

  nextTick(cb: (...a: unknown[]) => void, args: unknown[]): void {
    this.ticks.push([cb, args]);
    if (this.ticks.length - this.tickHead === 1) hostQueueMicrotask(() => this.runTicks());
  }

  /** process.nextTick callbacks run before promise reactions at each boundary the runtime controls. */
  runTicks(): void {
    if (this.ticking) return;
    this.ticking = true;
    try {
      while (this.tickHead < this.ticks.length && !this.stopped) {
        const [cb, args] = this.ticks[this.tickHead++];
        this.call(cb, args);
      }
    } finally {
      this.ticking = false;
      if (this.tickHead === this.ticks.length) {
        this.ticks = [];
        this.tickHead = 0;
      }
    }
  }

  /** Run one guest callback; its exception is the process's uncaught exception. */
  call(cb: (...a: unknown[]) => void, args: unknown[] = [], self?: unknown): void {
    try {
      cb.apply(self, args);
    } catch (e) {
      this.onError(e);
    }
  }

  private alive(): boolean {
    if (this.immediates.some((i) => i.active && i.refed)) return true;
    for (const t of this.timers) if (t.refed) return true;
    for (const w of this.watchers) if (w.refed) return true;
    for (const pid of this.children.keys()) if (!this.unrefChildren.has(pid)) return true;
    return this.tickHead < this.ticks.length;
  }

  /** Run until nothing keeps the process alive. */
  async run(): Promise<void> {
    for (;;) {
      this.runTicks();
      this.flush();
      await macrotask();
      if (this.stopped) return;
      this.runTicks();
      this.dispatchSignals();
      this.now = performance.now();
      const timers = this.runTimers();
      if (timers) {
        this.runTicks();
        await macrotask();
      }
      if (this.runImmediates() || timers) continue;
      if (this.stopped) return;
      if (!this.alive()) return;
      this.block();
    }
  }

  private dispatchSignals(): void {
    while (this.signals.length && !this.stopped) {
      this.onSignal(this.signals.shift()!);
      // What the handler queued (a server's close) runs before the loop decides to block.
      this.runTicks();
    }
  }

  private runTimers(): boolean {
    const now = this.now;
    const due = [...this.timers].filter((t) => t.due <= now).sort((a, b) => a.due - b.due || a.id - b.id);
    for (const t of due) {
      if (!t.active || this.stopped) continue;
      if (t.repeat) t.due = Math.max(t.due + t.ms, this.now);
      else this.clearTimer(t);
      this.call(t.cb, t.args, t);
      this.runTicks();
    }
    return due.length > 0;
  }

  private runImmediates(): boolean {
    const list = this.immediates;
    if (!list.length) return false;
    this.immediates = [];
    for (const im of list) {
      if (!im.active || this.stopped) continue;
      im.active = false;
      this.call(im.cb, im.args, im);
      this.runTicks();
    }
    return true;
  }

  /** Sleep in the kernel until an fd is readable, a child changes, the next timer or a signal. */
  private block(): void {
    this.flush();
    let timeout = -1;
    if (this.immediates.length) timeout = 0;
    else {
      let next = Infinity;
      for (const t of this.timers) next = Math.min(next, t.due);
      // Capped so that the poll timeout stays a finite number (about 285,000 years).
      if (next !== Infinity) timeout = Math.min(MAX_SAFE_MS, Math.max(0, Math.ceil(next - performance.now())));
    }
    try {
      if (this.children.size) {
        this.reap(WNOHANG);
        if (!this.children.size) return;
        if (this.watchers.size === 0 && timeout < 0) return this.reap(0);
        // Children and fds or timers at once: poll with a short tick to notice exits.
        timeout = timeout < 0 ? 10 : Math.min(timeout, 10);
      }
      // One poll entry per fd (a socket may be watched for reading and writing at once).
      const byFd = new Map<number, Watcher[]>();
      for (const w of this.watchers) {
        const list = byFd.get(w.fd);
        if (list) list.push(w);
        else byFd.set(w.fd, [w]);
      }
      if (!byFd.size && timeout === 0) return;
      const fds = [...byFd].map(([fd, ws]) => [fd, ws.reduce((ev, w) => ev | (w.events ?? POLLIN), 0)] as [number, number]);
      const ready = this.sys.poll(fds, timeout);
      for (const [fd, revents] of ready) {
        for (const w of byFd.get(fd) ?? []) {
          // Errors and hang-ups wake every watcher of the fd; otherwise only the one whose event came.
          if (!this.watchers.has(w) || !(revents & ((w.events ?? POLLIN) | POLLERR | POLLHUP | POLLNVAL))) continue;
          w.ready(revents);
          this.runTicks();
        }
      }
    } catch (e) {
      if (!(e instanceof SysError && e.errno === Errno.EINTR)) throw e;
    }
  }

  private reap(options: number): void {
    for (;;) {
      let pid: number, status: number;
      try {
        [pid, status] = this.sys.waitpid(-1, options);
      } catch (e) {
        if (e instanceof SysError && e.errno === Errno.ECHILD) {
          this.children.clear();
          return;
        }
        throw e;
      }
      if (pid <= 0) return;
      const cb = this.children.get(pid);
      this.children.delete(pid);
      this.unrefChildren.delete(pid);
      if (cb) this.call(cb as (...a: unknown[]) => void, [status]);
      this.runTicks();
      if (options === 0 || !this.children.size) return;
    }
  }
}

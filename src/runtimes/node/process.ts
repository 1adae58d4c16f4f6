// The guest's `process`: an EventEmitter with argv/env/exit/cwd/..., stdio
// streams over fds 0-2 (created on first use) and signal events.

import { Errno, SysError } from '../../abi/errno.js';
import { SIG_DFL, signalFromName } from '../../abi/signal.js';
import { TIOCGWINSZ, type Winsize } from '../../abi/termios.js';
import type { ProcessContext } from '../context.js';
import { EventEmitter } from './events.js';
import { uv, uvError } from './errors.js';
import type { EventLoop, Watcher } from './loop.js';
import { NODE_VERSION, type NodeProcess } from './rt.js';
import { Readable, Writable } from './stream.js';
import type { StdioSink } from './stdio.js';
import { tick } from './tick.js';
import type { TtyMode } from './tty-mode.js';

const SIGNALS = ['SIGHUP', 'SIGINT', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2', 'SIGTERM', 'SIGPIPE', 'SIGALRM', 'SIGWINCH', 'SIGCONT', 'SIGTSTP', 'SIGCHLD'];

export interface ProcessInit {
  ctx: ProcessContext;
  loop: EventLoop;
  argv: string[];
  argv0: string;
  execArgv: string[];
  stdio: StdioSink;
  tty: TtyMode;
}

/** A Writable over an fd: writes go to the kernel, through the stdio buffer when given one. */
export function fdWriter(ctx: ProcessContext, fd: number, sink?: StdioSink): Writable {
  const w = new Writable({
    write(chunk, _enc, cb) {
      try {
        if (sink) sink.write(fd, chunk as Uint8Array);
        else ctx.sys.writeAll(fd, chunk as Uint8Array);
        cb();
      } catch (e) {
        cb(e instanceof SysError ? uvError(e.errno, 'write') : (e as Error));
      }
    },
  });
  Object.assign(w, { fd, _isStdio: fd <= 2 });
  lazyTty(ctx, w, fd);
  if (sink) {
    // Fast path for the common case (console.log): straight into the buffer, no stream queue.
    const queued = w.write.bind(w);
    const utf8 = new TextEncoder();
    w.write = (chunk: unknown, enc?: unknown, cb?: unknown): boolean => {
      if (typeof enc === 'function') [cb, enc] = [enc, undefined];
      const plain = typeof chunk === 'string' && (enc === undefined || enc === 'utf8' || enc === 'utf-8');
      if (w.writableEnded || w.destroyed || w.writableLength > 0 || !(plain || chunk instanceof Uint8Array)) {
        return queued(chunk, enc as string, cb as () => void);
      }
      sink.write(fd, plain ? utf8.encode(chunk as string) : (chunk as Uint8Array));
      if (typeof cb === 'function') tick(cb as () => void);
      return true;
    };
  }
  return w;
}

function lazyTty(ctx: ProcessContext, s: object, fd: number): void {
  let tty: boolean | undefined;
  const isTTY = () => (tty ??= (() => { try { return ctx.sys.isatty(fd); } catch { return false; } })());
  Object.defineProperty(s, 'isTTY', { get: () => isTTY() || undefined, configurable: true });
  // The terminal's size from TIOCGWINSZ, asked each time (it changes on resize).
  const size = (): Winsize => {
    try {
      const ws = ctx.sys.ioctl(fd, TIOCGWINSZ) as unknown as Winsize | null;
      if (ws && ws.cols > 0) return ws;
    } catch {
      // not a terminal, or no size: Node's fallback
    }
    return { cols: 80, rows: 24 };
  };
  Object.defineProperty(s, 'columns', { get: () => (isTTY() ? size().cols : undefined), configurable: true });
  Object.defineProperty(s, 'rows', { get: () => (isTTY() ? size().rows : undefined), configurable: true });
  Object.assign(s, { getWindowSize: () => [size().cols, size().rows], hasColors: () => isTTY(), getColorDepth: () => (isTTY() ? 8 : 1) });
}

/** A Readable over an fd, reading only when the loop finds the fd readable. */
export function fdReader(ctx: ProcessContext, loop: EventLoop, fd: number, close = false, tty?: TtyMode): Readable {
  let watcher: Watcher | null = null;
  let refed = true;
  let paused = false;
  const r = new Readable({
    read() {
      if (watcher) return;
      watcher = {
        fd,
        refed: refed && !paused,
        ready: () => {
          loop.watchers.delete(watcher!);
          watcher = null;
          let data: Uint8Array;
          try {
            data = ctx.sys.read(fd);
          } catch (e) {
            if (e instanceof SysError && e.errno === Errno.EAGAIN) return void r._read(0);
            r.destroy(e instanceof SysError ? uvError(e.errno, 'read') : (e as Error));
            return;
          }
          if (data.byteLength === 0) {
            if (close) try { ctx.sys.close(fd); } catch { /* already closed */ }
            r.push(null);
          } else r.push(data);
        },
      };
      loop.watchers.add(watcher);
    },
    destroy(err, cb) {
      if (watcher) loop.watchers.delete(watcher);
      watcher = null;
      cb(err);
    },
  });
  // A paused reader must not keep the process alive (Node exits when stdin is paused).
  const setRef = (on: boolean) => { refed = on; if (watcher) watcher.refed = on && !paused; };
  const pause = r.pause.bind(r);
  const resume = r.resume.bind(r);
  r.pause = () => { pause(); paused = true; if (watcher) watcher.refed = false; return r; };
  r.resume = () => { paused = false; resume(); if (watcher) watcher.refed = refed; return r; };
  const setRawMode = (on: boolean) => {
    Object.assign(r, { isRaw: tty ? tty.setRaw(fd, !!on) : false });
    return r;
  };
  Object.assign(r, { fd, _isStdio: fd <= 2, isRaw: false, setRawMode, ref: () => { setRef(true); return r; }, unref: () => { setRef(false); return r; } });
  lazyTty(ctx, r, fd);
  return r;
}

export function makeProcess(init: ProcessInit): NodeProcess {
  const { ctx, loop } = init;
  const sys = ctx.sys;
  const p = new EventEmitter() as unknown as NodeProcess & EventEmitter;
  const env: Record<string, string> = {};
  for (const kv of ctx.env) {
    const i = kv.indexOf('=');
    if (i > 0) env[kv.slice(0, i)] = kv.slice(i + 1);
  }
  const envProxy = new Proxy(env, {
    set: (t, k, v) => { if (typeof k === 'string') t[k] = String(v); return true; },
    defineProperty: (t, k, d) => { if (typeof k === 'string') t[k] = String(d.value); return true; },
  });
  let exiting = false;
  const t0 = performance.now();
  const hr = () => BigInt(Math.round((performance.timeOrigin + performance.now()) * 1e6));
  const stdio = new Map<string, unknown>();
  const lazy = (name: string, make: () => unknown) =>
    Object.defineProperty(p, name, {
      get: () => { if (!stdio.has(name)) stdio.set(name, make()); return stdio.get(name); },
      configurable: true,
      enumerable: true,
    });

  const hrtime = (prev?: [number, number]) => {
    const ns = hr();
    let s = Number(ns / 1_000_000_000n);
    let n = Number(ns % 1_000_000_000n);
    if (prev) {
      s -= prev[0];
      n -= prev[1];
      if (n < 0) { s--; n += 1e9; }
    }
    return [s, n];
  };
  hrtime.bigint = hr;

  Object.assign(p, {
    title: 'node',
    version: NODE_VERSION,
    versions: { node: NODE_VERSION.slice(1), v8: '11.3.244.8-node.31', uv: '1.51.0', modules: '115', agentos: '1' },
    arch: 'x64',
    platform: 'linux',
    release: { name: 'node', lts: 'Iron' },
    argv: init.argv,
    argv0: init.argv0,
    execArgv: init.execArgv,
    // The file the kernel ran (canonical, as node's realpath'd execPath): children of `process.execPath` are this node.
    execPath: ctx.file,
    env: envProxy,
    pid: ctx.pid,
    config: { variables: {} },
    features: {},
    // A diagnostic report without native parts: no glibcVersionRuntime and no shared objects, which is
    // how npm-install-checks learns that there is no libc to match packages' `libc` field against.
    report: {
      compact: false, directory: '', filename: '', signal: 'SIGUSR2', reportOnFatalError: false, reportOnSignal: false, reportOnUncaughtException: false, excludeNetwork: false,
      getReport: () => ({ header: { reportVersion: 3, nodejsVersion: NODE_VERSION, arch: 'x64', platform: 'linux', osName: 'Linux', cwd: sys.getcwd(), commandLine: init.argv }, javascriptStack: {}, sharedObjects: [], libuv: [], environmentVariables: {} }),
      writeReport: () => '',
    },
    exitCode: undefined,
    get ppid() { return sys.getppid(); },
    cwd: () => sys.getcwd(),
    chdir(dir: string) {
      try {
        sys.chdir(dir);
      } catch (e) {
        if (e instanceof SysError) throw uvError(e.errno, 'chdir', sys.getcwd(), dir);
        throw e;
      }
      env.PWD = sys.getcwd();
    },
    umask: (m?: number) => {
      const old = sys.umask(m ?? 0);
      if (m === undefined) sys.umask(old);
      return old;
    },
    getuid: () => sys.getuid(),
    geteuid: () => sys.getuid(),
    getgid: () => sys.getgid(),
    getegid: () => sys.getgid(),
    getgroups: () => [sys.getgid()],
    hrtime,
    uptime: () => (performance.now() - t0) / 1000,
    memoryUsage: Object.assign(() => {
      const m = (performance as unknown as { memory?: { usedJSHeapSize: number; totalJSHeapSize: number } }).memory;
      const used = m?.usedJSHeapSize ?? 4_000_000;
      return { rss: (m?.totalJSHeapSize ?? 8_000_000) * 2, heapTotal: m?.totalJSHeapSize ?? 8_000_000, heapUsed: used, external: 1_000_000, arrayBuffers: 10_000 };
    }, { rss: () => 30_000_000 }),
    cpuUsage: () => ({ user: Math.round(performance.now() * 1000), system: 0 }),
    resourceUsage: () => ({}),
    nextTick: (cb: (...a: unknown[]) => void, ...args: unknown[]) => loop.nextTick(cb, args),
    emitWarning(w: string | Error, type?: string | { type?: string }) {
      const t = typeof type === 'string' ? type : type?.type ?? (w instanceof Error ? w.name : 'Warning');
      const msg = w instanceof Error ? w.message : w;
      init.stdio.write(2, new TextEncoder().encode(`(node:${ctx.pid}) ${t}: ${msg}\n(Use \`node --trace-warnings ...\` to show where the warning was created)\n`));
    },
    kill(pid: number, sig: string | number = 'SIGTERM') {
      const n = typeof sig === 'number' ? sig : signalFromName(sig);
      if (n === undefined) {
        const e = new TypeError(`Unknown signal: ${sig}`) as TypeError & { code: string };
        e.code = 'ERR_UNKNOWN_SIGNAL';
        throw e;
      }
      uv('kill', () => sys.kill(pid, n));
      return true;
    },
    exit(code?: number) {
      if (code !== undefined) p.exitCode = code;
      const status = Number(p.exitCode ?? 0);
      if (!exiting) {
        exiting = true;
        p.emit('exit', status);
      }
      loop.stopped = true;
      init.stdio.flush();
      init.tty.restore();
      return ctx.exit(Number(p.exitCode ?? status) & 0xff);
    },
    reallyExit: (code: number) => ctx.exit(code),
    abort: () => ctx.exit(134),
    binding: (name: string) => { throw new Error(`No such module: ${name}`); },
    _getActiveHandles: () => [],
    _getActiveRequests: () => [],
    setUncaughtExceptionCaptureCallback: () => {},
    hasUncaughtExceptionCaptureCallback: () => false,
    openStdin: () => p.stdin,
  });
  lazy('stdout', () => fdWriter(ctx, 1, init.stdio));
  lazy('stdin', () => fdReader(ctx, loop, 0, false, init.tty));
  lazy('stderr', () => fdWriter(ctx, 2, init.stdio));

  // Signal events: a listener installs a handler; the loop delivers it between callbacks.
  p.on('newListener', (name: unknown) => {
    if (typeof name !== 'string' || !SIGNALS.includes(name) || p.listenerCount(name) > 0) return;
    ctx.signal(signalFromName(name)!, (sig) => loop.signals.push(sig));
  });
  p.on('removeListener', (name: unknown) => {
    if (typeof name !== 'string' || !SIGNALS.includes(name) || p.listenerCount(name) > 0) return;
    ctx.signal(signalFromName(name)!, SIG_DFL);
  });
  loop.onSignal = (sig) => {
    const name = SIGNALS.find((s) => signalFromName(s) === sig);
    if (name) p.emit(name, name, sig);
  };
  return p;
}

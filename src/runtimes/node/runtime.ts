// One node process: its event loop, `process`, globals, module loaders and
// lazily built built-in modules; uncaught errors and rejections end it the way
// Node's do (stack on stderr, status 1).

import { Buffer } from 'buffer';
import { ExitUnwind, type ProcessContext } from '../context.js';
import { BUILTINS } from './builtins.js';
import { Console } from './console.js';
import { EsmLoader } from './esm.js';
import { makeFetch } from './fetch.js';
import { inspect } from './inspect.js';
import { EventLoop } from './loop.js';
import { Loader } from './modules.js';
import { makePath } from './path.js';
import { makeProcess } from './process.js';
import { NODE_VERSION, type NodeProcess, type Rt } from './rt.js';
import { setTickQueue } from './tick.js';
import { makeTimers } from './timers.js';
import { onGuestError, type GuestErrorHandler } from '../guest-errors.js';
import { StdioSink } from './stdio.js';
import { installGlobals } from './globals.js';
import { installLocalTime } from './local-time.js';
import { TtyMode } from './tty-mode.js';

export class NodeRuntime implements Rt {
  readonly sys;
  readonly loop;
  readonly path;
  readonly cjs: Loader;
  readonly esm: EsmLoader;
  readonly console: Console;
  readonly stdio: StdioSink;
  readonly tty: TtyMode;
  private mods = new Map<string, unknown>();
  private proc: NodeProcess | null = null;
  private fetchFn: ReturnType<typeof makeFetch> | null = null;
  private dying = false;
  private restoreGlobals: () => void;
  /** The worker's handler for the process's stray errors before this runtime took them (process-main's). */
  private outerErrors: GuestErrorHandler | null;

  constructor(readonly ctx: ProcessContext, private argv: string[], private execArgv: string[]) {
    this.sys = ctx.sys;
    this.stdio = new StdioSink(ctx.sys);
    this.tty = new TtyMode(ctx.sys);
    this.loop = new EventLoop(ctx.sys, () => this.stdio.flush());
    this.path = makePath(() => this.sys.getcwd());
    this.cjs = new Loader(this);
    this.esm = new EsmLoader(this, this.cjs);
    this.console = new Console(() => this.process.stdout, () => this.process.stderr);
    const t = makeTimers(this.loop);
    // process is a getter: built on first use, so `node -e 0` pays for none of it.
    this.cjs.globals = [undefined, Buffer, this.console, t.setTimeout, t.clearTimeout, t.setInterval, t.clearInterval,
      t.setImmediate, t.clearImmediate, t.queueMicrotask, globalThis, undefined];
    Object.defineProperty(this.cjs.globals, 0, { get: () => this.process });
    // fetch goes through the kernel's http syscall (and policy); a wrapper parameter too, because a browser's worker keeps its own fetch.
    Object.defineProperty(this.cjs.globals, this.cjs.globals.length - 1, { get: () => this.fetch });
    const restoreGlobals = installGlobals({
      process: () => this.process, Buffer: () => Buffer, global: () => globalThis, console: () => this.console,
      setTimeout: () => t.setTimeout, clearTimeout: () => t.clearTimeout, setInterval: () => t.setInterval,
      clearInterval: () => t.clearInterval, setImmediate: () => t.setImmediate, clearImmediate: () => t.clearImmediate,
      queueMicrotask: () => t.queueMicrotask, fetch: () => this.fetch,
    });
    // Local time is TZ's, read at start-up as node does.
    const restoreTime = installLocalTime(ctx.env.find((kv) => kv.startsWith('TZ='))?.slice(3));
    this.restoreGlobals = () => {
      restoreTime();
      restoreGlobals();
    };
    this.loop.onError = (e) => this.uncaught(e);
    setTickQueue((cb) => this.loop.nextTick(cb, []));
    this.outerErrors = onGuestError((e, fromPromise) => (fromPromise ? this.unhandledRejection(e) : this.uncaught(e)));
  }

  get fetch(): ReturnType<typeof makeFetch> {
    this.fetchFn ??= makeFetch(this.sys, this.loop);
    return this.fetchFn;
  }

  get process(): NodeProcess {
    this.proc ??= makeProcess({ ctx: this.ctx, loop: this.loop, argv: this.argv, argv0: this.ctx.argv[0] ?? 'node', execArgv: this.execArgv, stdio: this.stdio, tty: this.tty });
    return this.proc;
  }

  builtin(name: string): unknown {
    if (this.mods.has(name)) return this.mods.get(name);
    const make = Object.hasOwn(BUILTINS, name) ? BUILTINS[name] : undefined;
    if (!make) {
      const e = new Error(`No such built-in module: node:${name} (agentOS's node runtime does not provide it)`) as Error & { code: string };
      e.code = 'ERR_UNKNOWN_BUILTIN_MODULE';
      throw e;
    }
    const m = make(this);
    this.mods.set(name, m);
    return m;
  }

  requireFrom(file: string): unknown {
    return this.cjs.makeRequire(null, this.path.dirname(this.path.resolve(file)));
  }

  /** Run the event loop to the end, then exit with process.exitCode. */
  async finish(main?: Promise<unknown>): Promise<never> {
    let settled = !main;
    main?.then(() => (settled = true), (e) => { settled = true; this.uncaught(e); });
    await this.loop.run();
    if (!settled && !this.ctx.exited) {
      await this.loop.run();
      if (!settled) {
        this.stdio.flush();
        this.sys.writeAll(2, 'Warning: Detected unsettled top-level await\n');
        return this.exit(13);
      }
    }
    if (this.proc && !this.ctx.exited) {
      this.proc.emit('beforeExit', this.proc.exitCode ?? 0);
      if (this.loop.timers.size || this.loop.watchers.size) await this.loop.run();
    }
    return this.exit(Number(this.proc?.exitCode ?? 0));
  }

  /** Detach from the worker's shared hooks: the next program in this worker is not ours. */
  dispose(): void {
    this.loop.stopped = true;
    setTickQueue(null);
    onGuestError(this.outerErrors);
    this.restoreGlobals();
  }

  exit(code: number): never {
    if (this.proc && !this.ctx.exited) return this.proc.exit(code);
    this.loop.stopped = true;
    this.stdio.flush();
    this.tty.restore();
    return this.ctx.exit(code);
  }

  /** An exception no one caught: 'uncaughtException' listeners, or Node's report and status 1. */
  uncaught(e: unknown): void {
    if (e instanceof ExitUnwind || this.ctx.exited) return;
    if (this.proc && this.proc.listenerCount('uncaughtException') > 0 && !this.dying) {
      this.proc.emit('uncaughtException', e, 'uncaughtException');
      return;
    }
    this.die(e, false);
  }

  private unhandledRejection(reason: unknown): void {
    if (reason instanceof ExitUnwind || this.ctx.exited) return;
    if (this.proc && this.proc.listenerCount('unhandledRejection') > 0) {
      this.proc.emit('unhandledRejection', reason);
      return;
    }
    this.die(reason, true);
  }

  private die(e: unknown, fromPromise: boolean): void {
    if (this.dying) return;
    this.dying = true;
    let text: string;
    if (e instanceof Error) text = `${this.sourceContext(e)}${inspect(e)}\n\nNode.js ${NODE_VERSION}\n`;
    else if (fromPromise) {
      text = `node:internal/process/promises:288\n            triggerUncaughtException(err, true /* fromPromise */);\n            ^\n\n` +
        `[UnhandledPromiseRejection: This error originated either by throwing inside of an async function without a catch block, ` +
        `or by rejecting a promise which was not handled with .catch(). The promise rejected with the reason "${inspect(e)}".] {\n` +
        `  code: 'ERR_UNHANDLED_REJECTION'\n}\n\nNode.js ${NODE_VERSION}\n`;
    } else text = `\n${typeof e === 'string' ? e : inspect(e)}\n(Use \`node --trace-uncaught ...\` to show where the exception was thrown)\n\nNode.js ${NODE_VERSION}\n`;
    try {
      this.stdio.flush();
      this.sys.writeAll(2, text);
    } catch {
      // stderr closed: the status still tells.
    }
    try {
      if (this.proc) this.proc.exitCode = 1;
      this.exit(1);
    } catch (x) {
      if (!(x instanceof ExitUnwind)) throw x;
    }
  }

  /** `file:line`, the source line and a caret, as Node prints above an uncaught error. */
  private sourceContext(e: Error): string {
    const m = /\n\s+at (?:.*?\()?(.+?):(\d+):(\d+)\)?$/m.exec(e.stack ?? '');
    if (!m) return '';
    const src = this.cjs.sources.get(m[1]);
    if (src === undefined) return '';
    const line = src.split('\n')[Number(m[2]) - 1] ?? '';
    // Node marks the throw statement; the stack knows where the error was made, usually after it.
    let col = Number(m[3]) - 1;
    const t = line.lastIndexOf('throw', col);
    if (t >= 0) col = t;
    return `${m[1]}:${m[2]}\n${line}\n${' '.repeat(col)}^\n\n`;
  }
}

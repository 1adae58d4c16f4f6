// `_agentos`: the JavaScript module Python's patched os/subprocess/time call
// (driver.ts). Processes, pipes, poll and sleep are the kernel's; fds are
// Emscripten fds, translated to the kernel fds behind them.

import { Errno, errnoName, SysError } from '../../abi/errno.js';
import { O_ACCMODE, O_CLOEXEC, O_NONBLOCK, O_RDONLY, O_WRONLY } from '../../abi/fcntl.js';
import { walkPath } from '../../user/execvp.js';
import type { ProcessContext } from '../context.js';
import type { EmFS, Kfs } from './kfs.js';
import { kernelFd, wrapFd } from './mount.js';
import type { PySignals } from './signals.js';

/** What crosses from Python: plain values, or PyProxies of lists that convert with toJs(). */
type FromPy<T> = T | { toJs(): T };
const js = <T>(v: FromPy<T>): T => (v && typeof v === 'object' && 'toJs' in v ? v.toJs() : v) as T;

/**
 * Errors go back to Python as `[errno name, message]` (Python's errno numbers
 * are Emscripten's, so names are the common language); successes as `[undefined, value]`
 * (undefined, not null, arrives as None).
 */
type Result<T> = [string | undefined, T | string];

function guard<A extends unknown[], T>(f: (...a: A) => T, signals?: PySignals): (...a: A) => Result<T> {
  return (...a) => {
    // A blocking call does not start while a caught signal waits for CPython (see PySignals.interrupted).
    if (signals?.interrupted()) return [errnoName(Errno.EINTR), 'interrupted'];
    try {
      return [undefined, f(...a)];
    } catch (e) {
      if (e instanceof SysError) return [errnoName(e.errno), e.message];
      throw e;
    }
  };
}

export function makeBridge(ctx: ProcessContext, FS: EmFS, kfs: Kfs, signals: PySignals): Record<string, unknown> {
  const sys = ctx.sys;

  /** The kernel fd for a child's fd: a kernel-backed stream's fd, or the same file opened again (Emscripten's /dev/null). */
  function forChild(fd: number, opened: number[]): number {
    const k = kernelFd(FS, fd);
    if (k !== undefined) return k;
    const s = FS.streams[fd];
    if (!s?.path) throw new SysError(Errno.EBADF, `fd ${fd}`);
    const acc = s.flags & O_ACCMODE;
    const kfd = sys.open(s.path, (acc === O_WRONLY ? O_WRONLY : acc) | O_CLOEXEC);
    opened.push(kfd);
    return kfd;
  }

  return {
    getpid: () => ctx.pid,
    getppid: () => sys.getppid(),
    spawn: guard((file: string, argv: FromPy<string[]>, env: FromPy<string[]>, cwd: string, fds: FromPy<[number, number][]>, setsid: boolean, pgid: number) => {
      const envList = js(env);
      const opened: number[] = [];
      try {
        const map = js(fds).map(([child, fd]) => [child, forChild(fd, opened)] as [number, number]);
        return walkPath(file, envList, (path) => sys.spawn({
          path, argv: js(argv), env: envList, cwd, fds: map, setsid: setsid || undefined, pgid: pgid >= 0 ? pgid : undefined,
        }));
      } finally {
        for (const k of opened) sys.close(k);
      }
    }),
    waitpid: guard((pid: number, options: number) => sys.waitpid(pid, options), signals),
    kill: guard((pid: number, sig: number) => sys.kill(pid, sig)),
    pipe: guard((nonblock = false) => {
      const [r, w] = sys.pipe(O_CLOEXEC | (nonblock ? O_NONBLOCK : 0));
      return [wrapFd(FS, kfs, r, O_RDONLY), wrapFd(FS, kfs, w, O_WRONLY)];
    }),
    /** poll(2) on Emscripten fds; returns [fd, revents] pairs. */
    poll: guard((fds: FromPy<[number, number][]>, timeoutMs: number) => {
      const list = js(fds);
      const back = new Map<number, number>();
      const req = list.map(([fd, ev]) => {
        const k = kernelFd(FS, fd);
        if (k === undefined) throw new SysError(Errno.EBADF, `fd ${fd}`);
        back.set(k, fd);
        return [k, ev] as [number, number];
      });
      return sys.poll(req, timeoutMs).map(([k, rev]) => [back.get(k)!, rev]);
    }, signals),
    sleep: guard((seconds: number) => sys.sleep(Math.max(0, seconds * 1000)), signals),
    /** signal.signal(): how = 0 default, 1 ignore, 2 a Python handler. */
    signal: guard((sig: number, how: number) => signals.disposition(sig, how)),
  };
}

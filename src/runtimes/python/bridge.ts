// The device Python's patched os/subprocess/time call (driver.ts): processes,
// pipes, poll and sleep are the kernel's; fds are Emscripten fds, translated
// to the kernel fds behind them.
//
// It is an Emscripten character device, not a JavaScript object handed to
// Python: a JavaScript value in Python (a JsProxy) leads through its
// prototype chain, or through any JavaScript error it provokes, to the
// worker's `Function` and globals (decision 0026). Python writes a request,
// `[op, ...args]` as JSON, and reads the reply, `[errno name or null, value]`
// and a newline; only plain values cross. Bytes (a socket's) cross raw: a
// request may end in a NUL and bytes (its last argument), and a reply
// `[null, value, n]` is followed by n bytes. A guest that opens the device
// itself gets what os/subprocess give it anyway: its own process's syscalls.

import { Errno, errnoName, SysError } from '../../abi/errno.js';
import { O_ACCMODE, O_CLOEXEC, O_NONBLOCK, O_RDONLY, O_WRONLY } from '../../abi/fcntl.js';
import { S_IFCHR } from '../../abi/stat.js';
import { walkPath } from '../../libc/execvp.js';
import type { ProcessContext } from '../context.js';
import type { EmFS, EmStream, Kfs } from './kfs.js';
import { kernelFd, wrapFd } from './mount.js';
import type { PySignals } from './signals.js';
import { Binary, socketOps } from './socket-ops.js';

/** Where the driver finds the device (Emscripten's own /dev, not the VFS's). */
export const BRIDGE_PATH = '/dev/agentos';
/** A major number no Emscripten device uses. */
const MAJOR = 64;

type Reply = [string | null, unknown];
type Op = (...args: never[]) => unknown;

export function installBridge(ctx: ProcessContext, FS: EmFS, kfs: Kfs, signals: PySignals, tzset: (tz: string | undefined) => void): void {
  const ops: Record<string, Op> = {
    ...makeOps(ctx, FS, kfs, signals), ...socketOps(ctx.sys, FS, kfs), tzset: (tz: string | null) => tzset(tz ?? undefined),
  };
  const blocking = new Set(['waitpid', 'poll', 'sleep', 'http', 'sock_accept', 'sock_connect', 'sock_send', 'sock_recv']);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  function answer(text: string, payload: Uint8Array | null): Reply {
    let request: unknown;
    try {
      request = JSON.parse(text);
    } catch {
      request = null;
    }
    if (!Array.isArray(request) || typeof request[0] !== 'string' || !Object.hasOwn(ops, request[0])) return [errnoName(Errno.EINVAL), 'bad request'];
    const [op, ...args] = request as [string, ...unknown[]];
    if (payload) args.push(payload);
    // A blocking call does not start while a caught signal waits for CPython (see PySignals.interrupted).
    if (blocking.has(op) && signals.interrupted()) return [errnoName(Errno.EINTR), 'interrupted'];
    try {
      return [null, (ops[op] as (...a: unknown[]) => unknown)(...args)];
    } catch (e) {
      if (e instanceof SysError) return [errnoName(e.errno), e.message];
      return ['!', e instanceof Error ? e.message : String(e)];
    }
  }

  const dev = FS.makedev(MAJOR, 0);
  FS.registerDevice(dev, {
    open(stream: EmStream) {
      stream.reply = new Uint8Array(0);
      stream.replyAt = 0;
    },
    write(stream: EmStream, heap: Int8Array, offset: number, length: number) {
      const bytes = new Uint8Array(heap.buffer, heap.byteOffset + offset, length);
      const nul = bytes.indexOf(0);
      const text = decoder.decode(nul < 0 ? bytes.slice() : bytes.slice(0, nul));
      const [err, value] = answer(text, nul < 0 ? null : bytes.slice(nul + 1));
      if (value instanceof Binary) {
        const head = encoder.encode(`${JSON.stringify([err, value.value, value.data.byteLength])}\n`);
        stream.reply = new Uint8Array(head.byteLength + value.data.byteLength);
        stream.reply.set(head);
        stream.reply.set(value.data, head.byteLength);
      } else {
        stream.reply = encoder.encode(`${JSON.stringify([err, value])}\n`);
      }
      stream.replyAt = 0;
      return length;
    },
    read(stream: EmStream, heap: Int8Array, offset: number, length: number) {
      const chunk = (stream.reply as Uint8Array).subarray(stream.replyAt, stream.replyAt + length);
      new Uint8Array(heap.buffer, heap.byteOffset + offset, chunk.length).set(chunk);
      stream.replyAt += chunk.length;
      return chunk.length;
    },
  });
  FS.mkdev(BRIDGE_PATH, S_IFCHR | 0o666, dev);
}

function base64Bytes(text: unknown): Uint8Array {
  let bin: string;
  try {
    bin = atob(String(text));
  } catch {
    throw new SysError(Errno.EINVAL, 'http: the body must be base64');
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The operations, by name: each returns a plain value or throws SysError. */
function makeOps(ctx: ProcessContext, FS: EmFS, kfs: Kfs, signals: PySignals): Record<string, Op> {
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
    spawn: (file: string, argv: string[], env: string[], cwd: string, fds: [number, number][], setsid: boolean, pgid: number, sigDefault: number) => {
      const opened: number[] = [];
      try {
        const map = fds.map(([child, fd]) => [child, forChild(fd, opened)] as [number, number]);
        return walkPath(file, env, (path) => sys.spawn({
          path, argv, env, cwd, fds: map, setsid: setsid || undefined, pgid: pgid >= 0 ? pgid : undefined, sigDefault: sigDefault || undefined,
        }));
      } finally {
        for (const k of opened) sys.close(k);
      }
    },
    waitpid: (pid: number, options: number) => sys.waitpid(pid, options),
    kill: (pid: number, sig: number) => sys.kill(pid, sig),
    pipe: (nonblock: boolean) => {
      const [r, w] = sys.pipe(O_CLOEXEC | (nonblock ? O_NONBLOCK : 0));
      return [wrapFd(FS, kfs, r, O_RDONLY), wrapFd(FS, kfs, w, O_WRONLY)];
    },
    /** poll(2) on Emscripten fds; returns [fd, revents] pairs. */
    poll: (fds: [number, number][], timeoutMs: number) => {
      const back = new Map<number, number>();
      const req = fds.map(([fd, ev]) => {
        const k = kernelFd(FS, fd);
        if (k === undefined) throw new SysError(Errno.EBADF, `fd ${fd}`);
        back.set(k, fd);
        return [k, ev] as [number, number];
      });
      return sys.poll(req, timeoutMs).map(([k, rev]) => [back.get(k)!, rev]);
    },
    sleep: (seconds: number) => sys.sleep(Math.max(0, seconds * 1000)),
    /** One request through the kernel's http syscall (and network policy); the body is an fd to read. */
    http: (method: string, url: string, headers: [string, string][], body: unknown, timeoutMs: number) => {
      const res = sys.http({ method, url, headers, body: body === null || body === undefined ? undefined : base64Bytes(body), timeoutMs });
      return { status: res.status, reason: res.statusText, version: res.httpVersion, headers: res.headers, url: res.url, fd: wrapFd(FS, kfs, res.fd, O_RDONLY) };
    },
    /** signal.signal(): how = 0 default, 1 ignore, 2 a Python handler. */
    signal: (sig: number, how: number) => signals.disposition(sig, how),
  };
}

// args, environ, clocks, random, proc_exit/proc_raise, sched_yield and sock_*.

import {
  CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME, CLOCK_REALTIME, CLOCK_THREAD_CPUTIME, linuxSignal, WasiErrno,
} from '../abi.js';
import { WasiError } from '../errno.js';
import { msToNs, type WasiState } from '../state.js';

/** The clocks' resolution as reported: performance.now() is good to a microsecond at best. */
const RESOLUTION_NS = 1000n;
/** getRandomValues fills at most 64 KiB per call. */
const RANDOM_CHUNK = 65536;
/** WASI's last signal number (SIGSYS). */
const WASI_NSIG = 30;

/** Nanoseconds on `clock`, or null for an unknown clock id. */
export function clockNow(w: WasiState, clock: number): bigint | null {
  switch (clock) {
    case CLOCK_REALTIME:
      return msToNs(performance.timeOrigin + performance.now());
    case CLOCK_MONOTONIC:
      return msToNs(performance.now());
    case CLOCK_PROCESS_CPUTIME:
    case CLOCK_THREAD_CPUTIME:
      // No CPU accounting in a worker: time since the process started is the closest bound.
      return msToNs(performance.now() - w.startMs);
    default:
      return null;
  }
}

export function procCalls(w: WasiState) {
  const { mem, ctx, fds } = w;
  const sizes = (list: Uint8Array[], countPtr: number, bufPtr: number) => {
    mem.setU32(countPtr, list.length);
    mem.setU32(bufPtr, list.reduce((n, s) => n + s.byteLength + 1, 0));
  };
  /** No descriptor is ever a socket here: nothing can create or preopen one. */
  const notSocket = (fd: number): never => {
    fds.get(fd);
    throw new WasiError(WasiErrno.NOTSOCK);
  };

  return {
    args_sizes_get: (count: number, buf: number) => sizes(w.args, count, buf),
    args_get: (ptrs: number, buf: number) => mem.writeStrings(w.args, ptrs, buf),
    environ_sizes_get: (count: number, buf: number) => sizes(w.env, count, buf),
    environ_get: (ptrs: number, buf: number) => mem.writeStrings(w.env, ptrs, buf),

    clock_res_get(clock: number, out: number): void {
      if (clockNow(w, clock) === null) throw new WasiError(WasiErrno.INVAL);
      mem.setU64(out, RESOLUTION_NS);
    },

    clock_time_get(clock: number, _precision: bigint, out: number): void {
      const now = clockNow(w, clock);
      if (now === null) throw new WasiError(WasiErrno.INVAL);
      mem.setU64(out, now);
    },

    random_get(buf: number, len: number): void {
      for (let off = 0; off < len; off += RANDOM_CHUNK) {
        crypto.getRandomValues(mem.slice(buf + off, Math.min(RANDOM_CHUNK, len - off)));
      }
    },

    proc_exit(code: number): void {
      ctx.exit(code);
    },

    /** raise(): the kernel delivers it with Linux's default action (a fatal one ends the worker). */
    proc_raise(sig: number): void {
      if (sig < 0 || sig > WASI_NSIG) throw new WasiError(WasiErrno.INVAL);
      if (sig !== 0) w.sys.kill(ctx.pid, linuxSignal(sig));
    },

    /** Other processes run on their own workers; there is nothing to yield to. */
    sched_yield(): void {},

    sock_accept: (fd: number) => notSocket(fd),
    sock_recv: (fd: number) => notSocket(fd),
    sock_send: (fd: number) => notSocket(fd),
    sock_shutdown: (fd: number) => notSocket(fd),
  };
}

// poll(2) for Python's C code (select.select, select.poll, and so selectors,
// socketserver and asyncio): Emscripten's own poll never waits and calls
// every pipe or socket ready; this one is the kernel's poll on the kernel fds
// behind Python's fds, so a server can wait for a client. Emscripten's own
// files (its /dev/null, in-memory files) are ready, as Emscripten says.
// An interrupted poll is EINTR, after which CPython runs the signal handler
// (so Ctrl-C reaches a program waiting in select).

import { errnoName, SysError } from '../../abi/errno.js';
import type { Sys } from '../../libc/sys.js';
import type { EmFS } from './kfs.js';

const POLLIN = 1;
const POLLOUT = 4;
const POLLERR = 8;
const POLLHUP = 16;
const POLLNVAL = 32;
/** struct pollfd on wasm32: int fd; short events; short revents. */
const POLLFD = 8;

interface Binding {
  FS: EmFS;
  sys: Sys;
  interrupted: () => boolean;
  errno: Record<string, number>;
}

/** The process this worker's interpreter serves (one at a time); none while an interpreter is prepared. */
let bound: Binding | null = null;

export function bindPoll(b: Binding | null): void {
  bound = b;
}

type PollImport = (fds: number, nfds: number, timeout: number) => number;

/** The `__syscall_poll` import; `original` is Emscripten's, used before a process binds (the build's snapshot). */
export function pollImport(memory: () => ArrayBuffer, original: PollImport): PollImport {
  return (fds, nfds, timeout) => (bound ? kernelPoll(bound, new DataView(memory()), fds >>> 0, nfds, timeout) : original(fds, nfds, timeout));
}

function kernelPoll(b: Binding, v: DataView, at: number, nfds: number, timeout: number): number {
  const wanted = new Map<number, number>(); // kernel fd -> events
  const slots: [slot: number, kfd: number, events: number][] = [];
  let ready = 0;
  for (let i = 0; i < nfds; i++) {
    const p = at + i * POLLFD;
    const fd = v.getInt32(p, true);
    const events = v.getInt16(p + 4, true);
    let revents = 0;
    if (fd >= 0) {
      const stream = b.FS.streams[fd];
      if (!stream) revents = POLLNVAL;
      else if (stream.kfd === undefined) revents = events & (POLLIN | POLLOUT);
      else {
        wanted.set(stream.kfd, (wanted.get(stream.kfd) ?? 0) | events);
        slots.push([p, stream.kfd, events]);
      }
    }
    v.setInt16(p + 6, revents, true);
    if (revents) ready++;
  }
  if (b.interrupted()) return -(b.errno.EINTR ?? 27);
  let answer: [number, number][];
  try {
    answer = b.sys.poll([...wanted], ready ? 0 : timeout);
  } catch (e) {
    if (e instanceof SysError) return -(b.errno[errnoName(e.errno)] ?? b.errno.EIO);
    throw e;
  }
  const got = new Map(answer);
  for (const [p, kfd, events] of slots) {
    const revents = (got.get(kfd) ?? 0) & (events | POLLERR | POLLHUP | POLLNVAL);
    v.setInt16(p + 6, revents, true);
    if (revents) ready++;
  }
  return ready;
}

// poll_oneoff: fd readiness through the kernel's poll, clocks as its timeout
// (or, with no fds, a kernel nanosleep, so signals still reach the process).

import { SEEK_CUR } from '../../../abi/fcntl.js';
import {
  EVENT_FD_READWRITE_HANGUP, EVENT_SIZE, EVENTTYPE_CLOCK, EVENTTYPE_FD_READ, EVENTTYPE_FD_WRITE,
  Filetype, RIGHT, SUBCLOCK_ABSTIME, SUBSCRIPTION_SIZE, WasiErrno,
} from '../abi.js';
import { errnoOf, WasiError } from '../errno.js';
import { nsToMs, type WasiState } from '../state.js';
import { clockNow } from './proc.js';

const POLLIN = 1, POLLOUT = 4, POLLERR = 8, POLLHUP = 16, POLLNVAL = 32;
const FIONREAD = 0x541b;

interface Sub {
  userdata: bigint;
  type: number;
  /** Clock subscriptions: when it fires, on performance.now()'s scale. */
  deadline?: number;
  fd?: number;
  kfd?: number;
  /** Set when the subscription fails on its own (bad fd, missing right, bad clock). */
  error?: number;
}

interface Event {
  sub: Sub;
  error: number;
  nbytes: number;
  flags: number;
}

export function pollCalls(w: WasiState) {
  const { mem, fds, sys } = w;

  const parse = (ptr: number): Sub => {
    const dv = mem.view;
    const sub: Sub = { userdata: dv.getBigUint64(ptr, true), type: dv.getUint8(ptr + 8) };
    try {
      if (sub.type === EVENTTYPE_CLOCK) {
        const clock = dv.getUint32(ptr + 16, true);
        const timeout = dv.getBigUint64(ptr + 24, true);
        const abs = (dv.getUint16(ptr + 40, true) & SUBCLOCK_ABSTIME) !== 0;
        const now = clockNow(w, clock);
        if (now === null) throw new WasiError(WasiErrno.INVAL);
        // Every clock here ticks with performance.now(): map the wait onto that scale.
        const waitMs = abs ? nsToMs(timeout) - nsToMs(now) : nsToMs(timeout);
        sub.deadline = performance.now() + waitMs;
      } else if (sub.type === EVENTTYPE_FD_READ || sub.type === EVENTTYPE_FD_WRITE) {
        sub.fd = dv.getUint32(ptr + 16, true);
        const right = sub.type === EVENTTYPE_FD_READ ? RIGHT.FD_READ : RIGHT.FD_WRITE;
        sub.kfd = fds.get(sub.fd, right | RIGHT.POLL_FD_READWRITE).kfd;
      } else {
        throw new WasiError(WasiErrno.INVAL);
      }
    } catch (e) {
      const errno = errnoOf(e);
      if (errno === undefined) throw e;
      sub.error = errno;
    }
    return sub;
  };

  /** Bytes ready to read, where the kernel can tell cheaply (pipes, regular files); 0 otherwise. */
  const readable = (s: Sub): number => {
    try {
      const t = fds.type(fds.get(s.fd!));
      if (t === Filetype.UNKNOWN) return sys.raw.call('ioctl', s.kfd!, FIONREAD) as number;
      if (t === Filetype.REGULAR_FILE) return Math.max(0, sys.fstat(s.kfd!).size - sys.lseek(s.kfd!, 0, SEEK_CUR));
    } catch {
      // Not all devices answer FIONREAD; readiness is what matters.
    }
    return 0;
  };

  const fdEvent = (s: Sub, rev: number): Event | null => {
    if (rev & POLLNVAL) return { sub: s, error: WasiErrno.BADF, nbytes: 0, flags: 0 };
    const hangup = rev & POLLHUP ? EVENT_FD_READWRITE_HANGUP : 0;
    if (s.type === EVENTTYPE_FD_READ && rev & (POLLIN | POLLHUP | POLLERR)) {
      return { sub: s, error: 0, nbytes: rev & POLLIN ? readable(s) : 0, flags: hangup };
    }
    if (s.type === EVENTTYPE_FD_WRITE && rev & (POLLOUT | POLLHUP | POLLERR)) {
      return { sub: s, error: rev & POLLERR ? WasiErrno.IO : 0, nbytes: 0, flags: hangup };
    }
    return null;
  };

  const write = (out: number, events: Event[]): void => {
    mem.slice(out, events.length * EVENT_SIZE).fill(0);
    events.forEach((e, i) => {
      const p = out + i * EVENT_SIZE;
      mem.setU64(p, e.sub.userdata);
      mem.setU16(p + 8, e.error);
      mem.setU8(p + 10, e.sub.type);
      mem.setU64(p + 16, e.nbytes);
      mem.setU16(p + 24, e.flags);
    });
  };

  return {
    poll_oneoff(inPtr: number, outPtr: number, nsubs: number, neventsPtr: number): void {
      if (nsubs === 0) throw new WasiError(WasiErrno.INVAL);
      const subs: Sub[] = [];
      for (let i = 0; i < nsubs; i++) subs.push(parse(inPtr + i * SUBSCRIPTION_SIZE));
      const failed: Event[] = subs.filter((s) => s.error !== undefined).map((s) => ({ sub: s, error: s.error!, nbytes: 0, flags: 0 }));
      const fdSubs = subs.filter((s) => s.error === undefined && s.kfd !== undefined);
      const clocks = subs.filter((s) => s.error === undefined && s.deadline !== undefined);
      const first = clocks.reduce((d, s) => Math.min(d, s.deadline!), Infinity);
      for (;;) {
        const events = [...failed];
        const left = first - performance.now();
        // Failed subscriptions are events already: just look, do not wait.
        const timeout = events.length ? 0 : first === Infinity ? -1 : Math.max(0, Math.ceil(left));
        if (fdSubs.length) {
          const want = new Map<number, number>();
          for (const s of fdSubs) want.set(s.kfd!, (want.get(s.kfd!) ?? 0) | (s.type === EVENTTYPE_FD_READ ? POLLIN : POLLOUT));
          const ready = new Map(sys.poll([...want], timeout));
          for (const s of fdSubs) {
            const e = fdEvent(s, ready.get(s.kfd!) ?? 0);
            if (e) events.push(e);
          }
        } else if (timeout > 0) {
          sys.sleep(timeout);
        }
        const now = performance.now();
        for (const s of clocks) if (s.deadline! <= now) events.push({ sub: s, error: 0, nbytes: 0, flags: 0 });
        if (events.length) {
          write(outPtr, events);
          mem.setU32(neventsPtr, events.length);
          return;
        }
      }
    },
  };
}

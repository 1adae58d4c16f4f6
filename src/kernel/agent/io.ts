// The BackendIO the model service lends a backend for one call of process
// `pid`: its `http` takes the same path as that process's own `http` syscall
// (net/request.ts: the network policy's decision, the host's approval for an
// `ask` entry, the audit trail, the host's fetch), so a backend reaches no
// host the process could not — and a URL on the VM's loopback reaches the
// server listening in the VM (net/loopback.ts: a model server the guest
// started, outside the policy, no secret put in); `readFile` reads the VM as
// the process would.

import { concatBytes } from '../../abi/bytes.js';
import { Errno, SysError } from '../../abi/errno.js';
import { O_RDONLY } from '../../abi/fcntl.js';
import { longTimeout } from '../../abi/long-timeout.js';
import type { Kernel } from '../kernel.js';
import { loopbackFetch, vmServer } from '../net/loopback.js';
import { decideAsync, hostFetch, type Allowed } from '../net/request.js';
import { toSysError } from '../net/stack.js';
import { WaitQueue } from '../waitqueue.js';
import type { BackendIO, BackendResponse } from './backend.js';

const CONNECT_TIMEOUT_MS = 300_000;
/** The largest file readFile returns (a mock script, a record). */
const READ_MAX = 16 * 1024 * 1024;

/**
 * `signal` ends the call: the model service aborts it when the process is
 * signalled or killed (its syscall's cleanup). Requests and their streams are
 * cancelled with it.
 */
export function kernelBackendIO(k: Kernel, pid: number, signal: AbortSignal): BackendIO {
  return {
    signal,
    readFile: (path) => readFile(k, pid, path),
    async http(req) {
      if (signal.aborted) throw new SysError(Errno.EINTR, 'model call interrupted');
      const method = (req.method || 'GET').toUpperCase();
      const p = k.procs.get(pid);
      if (!p) throw new SysError(Errno.ESRCH, `no process ${pid}`);
      const local = vmServer(k, req.url);
      const decision: Allowed | null = local ? null : await decideAsync(k, pid, method, req.url);
      // Our own controller: the caller's signal, or the transfer's timeout, ends the request.
      const ctl = new AbortController();
      let timedOut: string | null = null;
      const timer = req.timeoutMs ? longTimeout(() => ((timedOut = `Operation timed out after ${req.timeoutMs} milliseconds`), ctl.abort()), req.timeoutMs) : null;
      signal.addEventListener('abort', () => ctl.abort(), { once: true });
      let res;
      try {
        const request = {
          method,
          url: req.url,
          headers: req.headers,
          body: req.body ?? null,
          connectTimeoutMs: req.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
          signal: ctl.signal,
        };
        res = await (local ? loopbackFetch(k, p, local, request) : hostFetch(k, decision!, request));
      } catch (e) {
        timer?.clear();
        throw toSysError(e, timedOut);
      }
      const it = res.body;
      const body: AsyncIterable<Uint8Array> = {
        [Symbol.asyncIterator]: () => ({
          async next() {
            try {
              const r = await it.next();
              if (r.done) timer?.clear();
              return r;
            } catch (e) {
              timer?.clear();
              throw toSysError(e, timedOut);
            }
          },
          async return() {
            // The backend stopped reading: end the transfer.
            timer?.clear();
            ctl.abort();
            await it.return?.();
            return { done: true, value: undefined };
          },
        }),
      };
      const out: BackendResponse = { status: res.status, headers: res.headers, body };
      return out;
    },
  };
}

/** A whole file of the VM, opened with the process's credentials and cwd. */
function readFile(k: Kernel, pid: number, path: string): Uint8Array {
  const p = k.procs.get(pid);
  if (!p) throw new SysError(Errno.ESRCH, `no process ${pid}`);
  const f = k.vfs.open(p.cred, p.cwd, path, O_RDONLY);
  if (f instanceof WaitQueue) throw new SysError(Errno.EAGAIN, path);
  try {
    const parts: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const r = f.ops.read(f, 64 * 1024);
      // A FIFO with no writer yet, a device that blocks: not a file to read whole.
      if (r instanceof WaitQueue) throw new SysError(Errno.EAGAIN, path);
      if (r.byteLength === 0) break;
      size += r.byteLength;
      if (size > READ_MAX) throw new SysError(Errno.EFBIG, path);
      parts.push(r.slice());
    }
    return concatBytes(parts);
  } finally {
    f.unref();
  }
}

// http(request) → response: the network syscall. The kernel checks the VM's
// policy, asks the host to perform the request, parks the caller until the
// response head arrives (a signal aborts it: SIGINT cancels a download), then
// returns status and headers with the body as a pipe fd to read. The policy,
// approval, audit and host fetch are net/request.ts, shared with the kernel's
// own requests for agent processes. A URL on the VM's loopback is served by
// the VM's own sockets instead (net/loopback.ts), outside the policy.
//
// request: { method, url, headers: [[name, value]...], body?: bytes,
//            bodyFd?: fd to stream the body from, timeoutMs?: whole transfer,
//            connectTimeoutMs? }
// Redirects are the client's to follow: each hop is a new request, checked again.

import type { Value } from '../../abi/codec.js';
import type { HttpRequest } from '../../abi/http.js';
import { arg, type Fields, fields } from '../sys/args.js';
import { Errno, SysError } from '../../abi/errno.js';
import { longTimeout, type LongTimeout } from '../../abi/long-timeout.js';
import type { Handler } from '../syscall.js';
import { WaitQueue } from '../waitqueue.js';
import type { HostResponse } from './host.js';
import { fdBody } from './request-body.js';
import { ResponseBody } from './response-body.js';
import { toSysError } from './stack.js';
import { decide, hostFetch, shown, type Allowed } from './request.js';
import { loopbackFetch, vmServer } from './loopback.js';
import { mayUseNetwork } from '../policy/restrict.js';

interface Pending {
  queue: WaitQueue;
  res: HostResponse | null;
  err: SysError | null;
  ctl: AbortController;
  /** Ends the upload from a guest fd once the request has failed or finished. */
  upload: AbortController;
  /** Set when the whole-transfer timer fired: the abort is a timeout. */
  timedOut: string | null;
  timer: LongTimeout | null;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 300_000;

function field(req: Fields<HttpRequest>, name: keyof HttpRequest, type: 'string' | 'number'): string | number | undefined {
  const v = req[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== type) throw new SysError(Errno.EINVAL, `http: ${name} must be a ${type}`);
  return v as string | number;
}

function headerList(v: Value): [string, string][] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((h) => Array.isArray(h) && h.length === 2 && typeof h[0] === 'string' && typeof h[1] === 'string')) {
    throw new SysError(Errno.EINVAL, 'http: headers must be [name, value] pairs');
  }
  // Values are byte strings (abi/http.ts), on the host's path (fetch's ByteString) as on the loopback's.
  const wide = (v as [string, string][]).find(([, value]) => /[\u0100-\uffff]/.test(value));
  if (wide) throw new SysError(Errno.EINVAL, `http: header '${wide[0].slice(0, 40)}' has a char past 0xFF (values are bytes: UTF-8 encode text first)`);
  return v as [string, string][];
}

export const http: Handler<'http'> = (k, p, a, call) => {
  let st = call.state.http as Pending | undefined;
  if (!st) {
    const req = fields<HttpRequest>(arg(a, 0), 'http: want a request object');
    const method = ((field(req, 'method', 'string') as string | undefined) ?? 'GET').toUpperCase();
    const url = field(req, 'url', 'string') as string | undefined;
    if (!url) throw new SysError(Errno.EINVAL, 'http: no url');
    const headers = headerList(req.headers);
    const bodyFd = field(req, 'bodyFd', 'number') as number | undefined;
    const bytes = req.body instanceof Uint8Array ? req.body.slice() : null;
    const timeoutMs = (field(req, 'timeoutMs', 'number') as number | undefined) ?? 0;
    const connectTimeoutMs = (field(req, 'connectTimeoutMs', 'number') as number | undefined) ?? DEFAULT_CONNECT_TIMEOUT_MS;

    // A process restricted to no network (aosctl restrict) has no http at all, the VM's loopback included.
    mayUseNetwork(k, p, `${method} ${shown(url)}`);
    const local = vmServer(k, url);
    let decision: Allowed | null = null;
    if (!local) {
      decision = decide(k, p.pid, method, url);
      if (!k.net.fetch) throw new SysError(Errno.ENETUNREACH, 'this host gives the VM no network');
    }
    const src = bodyFd === undefined ? null : p.fds.get(bodyFd);
    if (src && !src.readable) throw new SysError(Errno.EBADF);

    const pending: Pending = { queue: new WaitQueue(), res: null, err: null, ctl: new AbortController(), upload: new AbortController(), timedOut: null, timer: null };
    st = pending;
    call.state.http = st;
    if (timeoutMs > 0) {
      pending.timer = longTimeout(() => {
        pending.timedOut = `Operation timed out after ${timeoutMs} milliseconds`;
        pending.ctl.abort();
      }, timeoutMs);
    }
    // Until the response is handed over, ending the call (a signal, the process dying) cancels the request.
    pending.ctl.signal.addEventListener('abort', () => pending.upload.abort(), { once: true });
    call.state.cleanup = () => {
      if (pending.res) return;
      pending.ctl.abort();
      pending.timer?.clear();
    };
    const request = {
      method, url, headers,
      body: src ? fdBody(src, pending.upload.signal) : bytes,
      connectTimeoutMs,
      signal: pending.ctl.signal,
    };
    (local ? loopbackFetch(k, p, local, request) : hostFetch(k, decision!, request)).then(
      (res) => {
        pending.res = res;
        pending.queue.wake();
      },
      (e: unknown) => {
        pending.upload.abort();
        pending.err = toSysError(e, pending.timedOut);
        pending.queue.wake();
      },
    );
  }
  if (st.err) throw st.err;
  const res = st.res;
  if (!res) return st.queue;
  const pending = st;
  const body = new ResponseBody(k, p, () => pending.ctl.abort());
  let fd: number;
  try {
    fd = p.fds.alloc(body.file, true);
  } catch (e) {
    body.file.unref();
    throw e;
  }
  void body
    .pump(res.body, (e) => toSysError(e, pending.timedOut))
    .finally(() => {
      pending.upload.abort();
      pending.timer?.clear();
    });
  return {
    status: res.status,
    statusText: res.statusText,
    httpVersion: res.httpVersion,
    headers: res.headers,
    url: res.url,
    remote: res.remote,
    decoded: res.decoded,
    fd,
  };
};

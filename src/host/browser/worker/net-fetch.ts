// Browser host: the kernel's HTTP(S) requests through fetch() in the kernel
// worker. What the browser decides and the kernel cannot change: CORS (a
// cross-origin server must send Access-Control-Allow-Origin, or the request
// fails like a refused connection), forbidden request headers (Host, Cookie,
// Referer, ...) are dropped, bodies arrive decoded, there is no DNS to pin
// (the kernel has refused non-public IP literals and localhost names already;
// where other names lead is the browser's Private Network Access business), and
// redirects cannot be seen — a `manual` redirect is opaque — so with an
// allowlist a redirect is an error, and only with `network: 'all'` does the
// browser follow it itself.

import { concatBytes } from '../../../abi/bytes.js';
import { Errno } from '../../../abi/errno.js';
import { NetError, type HostFetch, type HostRequest } from '../../../kernel/net/host.js';

async function collect(body: HostRequest['body']): Promise<Uint8Array | null> {
  if (body === null || body instanceof Uint8Array) return body;
  // Streaming uploads need HTTP/2 in Chromium: read the fd first.
  const parts: Uint8Array[] = [];
  for await (const c of body) parts.push(c);
  return concatBytes(parts);
}

export const browserFetch: HostFetch = async (req) => {
  const ctl = new AbortController();
  const onAbort = () => ctl.abort();
  req.signal.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => ((timedOut = true), ctl.abort()), req.connectTimeoutMs);
  let res: Response;
  try {
    const body = await collect(req.body);
    res = await fetch(req.url, {
      method: req.method,
      headers: req.headers,
      body: body as BodyInit | null,
      redirect: req.mayFollow ? 'follow' : 'manual',
      signal: ctl.signal,
      credentials: 'omit',
    });
  } catch (e) {
    const host = new URL(req.url).host;
    if (timedOut) throw new NetError(Errno.ETIMEDOUT, `Connection timed out after ${req.connectTimeoutMs} milliseconds`);
    if (req.signal.aborted) throw e;
    throw new NetError(Errno.ECONNREFUSED, `Failed to connect to ${host}: ${(e as Error).message} (the browser refused or could not connect: is CORS allowed by that server?)`);
  } finally {
    clearTimeout(timer);
  }
  if (res.type === 'opaqueredirect') {
    throw new NetError(Errno.EPROTO, `${req.url} redirects, and the browser hides where to (the VM sees redirects only with network: 'all')`);
  }
  const reader = res.body?.getReader();
  return {
    status: res.status,
    statusText: res.statusText,
    httpVersion: '1.1',
    headers: [...res.headers],
    url: res.url || req.url,
    remote: '',
    decoded: true,
    body: {
      next: async () => {
        if (!reader) return { done: true, value: undefined };
        const r = await reader.read();
        return r.done ? { done: true, value: undefined } : { done: false, value: r.value };
      },
      return: async () => {
        await reader?.cancel().catch(() => {});
        req.signal.removeEventListener('abort', onAbort);
        return { done: true, value: undefined };
      },
    },
  };
};

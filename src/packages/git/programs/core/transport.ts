// THE NETWORK SEAM. Every network operation (clone, fetch, pull, push of a
// URL) gets its isomorphic-git HTTP client here, and nowhere else: requests
// go through the kernel's http syscall, so the VM's network policy decides
// (and audits) each one, redirects included, as for curl.

import { concatBytes } from '../../../../abi/bytes.js';
import { Errno, strerror, SysError } from '../../../../abi/errno.js';
import type { HttpResponse } from '../../../../abi/http.js';
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import type { Ctx } from './ctx.js';

const MAX_REDIRECTS = 5;

/** Is this a URL (or scp-like `host:path`, git's rule: no '/' before the first ':') rather than a local path? */
export function isRemoteUrl(s: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) return !/^file:\/\//i.test(s);
  const colon = s.indexOf(':');
  return colon > 0 && !s.slice(0, colon).includes('/');
}

/** An HTTP client for `remote` over the kernel; other transports (ssh, git://) are refused as git refuses them. */
export function httpClient(ctx: Ctx, remote: string): HttpClient {
  if (!/^https?:\/\//i.test(remote)) {
    const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(remote)?.[1] ?? 'ssh';
    ctx.fatal(`unable to access '${remote}': the ${scheme} transport is not available in this VM (use an http(s) URL)`);
  }
  return { request: (req) => request(ctx, remote, req) };
}

/** The CORS proxy the browser build will need (http.corsProxy), for the client above. */
export function corsProxy(ctx: Ctx): string | undefined {
  return ctx.config('http.corsProxy');
}

async function request(ctx: Ctx, remote: string, req: GitHttpRequest): Promise<GitHttpResponse> {
  const method = req.method ?? 'GET';
  const body = req.body ? await collect(req.body) : undefined;
  let url = req.url;
  for (let hop = 0; ; hop++) {
    let res: HttpResponse;
    try {
      res = ctx.sys.http({ method, url, headers: Object.entries(req.headers ?? {}), body });
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
      ctx.fatal(`unable to access '${remote}': ${reason(e, url)}`);
    }
    const location = res.headers.find(([k]) => k.toLowerCase() === 'location')?.[1];
    if (res.status >= 300 && res.status < 400 && location && method === 'GET') {
      ctx.sys.close(res.fd);
      if (hop === MAX_REDIRECTS) ctx.fatal(`unable to access '${remote}': Maximum (${MAX_REDIRECTS}) redirects followed`);
      url = new URL(location, url).href; // each hop is a new request, checked by the policy again
      continue;
    }
    return {
      url: res.url || url,
      method,
      statusCode: res.status,
      statusMessage: res.statusText,
      headers: Object.fromEntries(res.headers.map(([k, v]) => [k.toLowerCase(), v])),
      body: read(ctx, res.fd),
    };
  }
}

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const c of chunks) parts.push(c);
  return concatBytes(parts);
}

/** The response body as it arrives (the kernel streams it into `fd`). */
async function* read(ctx: Ctx, fd: number): AsyncIterableIterator<Uint8Array> {
  try {
    for (;;) {
      const b = ctx.sys.read(fd, 1 << 16);
      if (b.byteLength === 0) return;
      yield b;
    }
  } finally {
    ctx.sys.close(fd);
  }
}

/** What git (through libcurl) says for each failure. */
function reason(e: SysError, url: string): string {
  const u = new URL(url);
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  switch (e.errno) {
    case Errno.EACCES:
      return e.detail ?? 'denied by the VM\'s network policy';
    case Errno.ENXIO:
      return `Could not resolve host: ${u.hostname}`;
    case Errno.ECONNREFUSED:
      return `Failed to connect to ${u.hostname} port ${port}: Connection refused`;
    case Errno.ETIMEDOUT:
      return `Failed to connect to ${u.hostname} port ${port}: Connection timed out`;
    default:
      return e.detail ?? strerror(e.errno);
  }
}

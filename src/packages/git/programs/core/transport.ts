// THE NETWORK SEAM. Every network operation (clone, fetch, pull, push of a
// URL) gets its isomorphic-git HTTP client here, and nowhere else. The VM
// has no network yet, so this refuses as git refuses an unreachable host;
// when the network policy lands, return a client over the VM's fetch (with
// http.corsProxy from the configuration) for origins the policy allows.

import type { HttpClient } from 'isomorphic-git';
import type { Ctx } from './ctx.js';

/** Is this a URL (or scp-like `host:path`, git's rule: no '/' before the first ':') rather than a local path? */
export function isRemoteUrl(s: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) return !/^file:\/\//i.test(s);
  const colon = s.indexOf(':');
  return colon > 0 && !s.slice(0, colon).includes('/');
}

export function httpClient(ctx: Ctx, url: string): HttpClient {
  ctx.fatal(`unable to access '${url}': network access is disabled in this VM`);
}

/** The CORS proxy the browser build will need (http.corsProxy), for the client above. */
export function corsProxy(ctx: Ctx): string | undefined {
  return ctx.config('http.corsProxy');
}

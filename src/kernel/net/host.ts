// What the kernel asks of its host to perform an HTTP(S) request. The kernel
// decides (policy, fds, pipes); the host only talks to the network: Node
// through node:http with a pinned DNS answer (host/node/worker/net-fetch.ts), the
// browser through fetch (host/browser/worker/net-fetch.ts).

import type { HttpResponse } from '../../abi/http.js';

export interface HostRequest {
  method: string;
  url: string;
  /** In order, as the guest gave them. */
  headers: [string, string][];
  /** Streamed from a guest fd, or bytes, or nothing. */
  body: AsyncIterable<Uint8Array> | Uint8Array | null;
  /** The policy allows private/loopback addresses for this host (else refused after resolving). */
  allowPrivate: boolean;
  /** Host name → address to use instead of DNS. */
  hosts: ReadonlyMap<string, string>;
  connectTimeoutMs: number;
  /** The policy is `all`: a host that cannot show redirects (the browser) may follow them itself. */
  mayFollow: boolean;
  signal: AbortSignal;
}

/** The guest's response (abi/http.ts) with the body still on the host's side, not yet in a pipe. */
export interface HostResponse extends Omit<HttpResponse, 'fd'> {
  body: AsyncIterator<Uint8Array>;
}

export type HostFetch = (req: HostRequest) => Promise<HostResponse>;

/** A failure the host maps to an errno (ECONNREFUSED, ETIMEDOUT, ...) with curl-like detail. */
export class NetError extends Error {
  constructor(
    readonly errno: number,
    message: string,
  ) {
    super(message);
  }
}

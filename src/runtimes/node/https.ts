// The `https` module: its client is http's, through the kernel's http syscall
// (http-kernel.ts) — the host makes the TLS connection, and the VM's network
// policy, host-held secrets and audit apply as they do to fetch and curl.
// There is no TLS on the VM's sockets, so no https server: createServer fails
// with a clear error.

import { Agent as HttpAgent, ClientRequest } from './http.js';
import { nodeError } from './errors.js';
import type { Rt } from './rt.js';

export class Agent extends HttpAgent {
  override defaultPort = 443;
  override protocol = 'https:';
}

function noServer(): never {
  throw nodeError(Error, 'ERR_TLS_UNSUPPORTED', "https.createServer: agentOS's node runtime has no TLS on its sockets (serve http, or reach https servers as a client)");
}

export function makeHttps(rt: Rt) {
  class Request extends ClientRequest {
    constructor(input: unknown, options?: unknown, cb?: unknown) { super(rt, input, options, cb, 'https:'); }
  }
  const request = (input: unknown, options?: unknown, cb?: unknown) => new Request(input, options, cb);
  return {
    Agent,
    globalAgent: new Agent({ keepAlive: true }),
    request,
    get: (input: unknown, options?: unknown, cb?: unknown) => {
      const r = request(input, options, cb);
      r.end();
      return r;
    },
    Server: function Server() { noServer(); },
    createServer: noServer,
  };
}

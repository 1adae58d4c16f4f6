// The `tls` module: agentOS's node has no TLS over its sockets (HTTPS to the
// outside goes through fetch and the kernel's http syscall). Packages that
// load it for a code path they may not take (npm's agent, for https
// registries) load; connecting fails with a clear error.

import { nodeError } from './errors.js';

export function makeTls(): Record<string, unknown> {
  const none = (what: string) => () => {
    throw nodeError(Error, 'ERR_TLS_UNSUPPORTED', `tls.${what}: agentOS's node runtime has no TLS on its sockets (use fetch for https)`);
  };
  return {
    connect: none('connect'), createServer: none('createServer'), createSecureContext: none('createSecureContext'),
    checkServerIdentity: () => undefined, rootCertificates: [], getCiphers: () => [],
    DEFAULT_MIN_VERSION: 'TLSv1.2', DEFAULT_MAX_VERSION: 'TLSv1.3', DEFAULT_ECDH_CURVE: 'auto', DEFAULT_CIPHERS: '',
  };
}

// vm.expose: a server listening in the VM made reachable from outside, only
// when the host asks. Each host brings its own way (host/node/expose.ts: a TCP
// port on the host's 127.0.0.1; host/browser/preview.ts: a service-worker
// preview URL); AgentVM keeps them and closes them when the VM stops.

import type { Machine } from './machine.js';

export interface ExposeOptions {
  /** Node: the host port to listen on (default: one the system picks). Always on 127.0.0.1. */
  hostPort?: number;
}

export interface ExposedPort {
  /** Where the outside reaches the VM's server: `http://127.0.0.1:HOST_PORT/` (Node), the preview URL (browser). */
  url: string;
  vmPort: number;
  /** Node: the host port listened on. */
  hostPort?: number;
  /** Stop accepting; connections already made are ended too. */
  close(): Promise<void>;
}

/** How a host exposes port `vmPort` of machine `m`. */
export type Exposer = (m: Machine, vmPort: number, opts: ExposeOptions) => Promise<ExposedPort>;

/** A VM port from a caller: an integer from 1 to 65535. */
export function checkPort(port: unknown, what: string): number {
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new RangeError(`${what}: a port is an integer from 1 to 65535, not ${String(port)}`);
  }
  return port;
}

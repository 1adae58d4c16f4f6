// The host's end of a connection into a server listening in the VM (the
// kernel's side is host/worker/host-ports.ts). What vm.expose pipes a host
// socket into on Node, and what a browser preview speaks HTTP over.

import type { Remote } from 'comlink';
import { SysError } from '../../abi/errno.js';
import type { CallResult, KernelService } from '../worker/kernel-service.js';
import type { ListeningPorts } from '../worker/host-ports.js';

export type { ListeningPorts };

function value<T>(r: CallResult, what: string): T {
  if (!r.ok) throw new SysError(r.errno, r.detail ?? what);
  return r.value as T;
}

export class PortConnection {
  private closed = false;

  private constructor(private readonly service: Remote<KernelService>, private readonly id: number) {}

  /** Connect to the VM's `port` (127.0.0.1 or ::1 in the VM); SysError ECONNREFUSED when nothing listens there. */
  static async open(service: Remote<KernelService>, port: number): Promise<PortConnection> {
    return new PortConnection(service, value<number>(await service.portConnect(port), `connect to port ${port}`));
  }

  /** The next bytes the VM's server sent (waits for some); empty once it has finished sending. */
  async read(max?: number): Promise<Uint8Array> {
    return value<Uint8Array>(await this.service.portRead(this.id, max), 'read');
  }

  /** Send all of `data`; resolves when the VM has queued it (so a slow server slows the sender). SysError EPIPE once it has closed. */
  async write(data: Uint8Array): Promise<void> {
    value(await this.service.portWrite(this.id, data), 'write');
  }

  /** Nothing more to send: the server reads end of file. */
  async end(): Promise<void> {
    if (!this.closed) await this.service.portShutdown(this.id);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.service.portClose(this.id);
  }
}

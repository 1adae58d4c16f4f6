// The kernel's network: the VM's policy, its host-held secrets and the host's
// way to reach the network.

import { Errno, SysError } from '../../abi/errno.js';
import { NetError, type HostFetch } from './host.js';
import { NetPolicy } from './policy.js';
import { HostSecrets } from './secrets.js';

export class NetStack {
  /**
   * Every request the kernel makes (the http syscall, the model service):
   * the host's fetch with the host-held secrets applied (secrets.ts). Absent
   * when the host has no network at all.
   */
  readonly fetch: HostFetch | null;

  constructor(
    readonly policy: NetPolicy = new NetPolicy('none'),
    hostFetch: HostFetch | null = null,
    readonly secrets: HostSecrets = new HostSecrets(),
  ) {
    this.fetch = hostFetch && (secrets.active ? (req) => secrets.send(hostFetch, req) : hostFetch);
  }
}

/** A host failure as the guest's errno and message. */
export function toSysError(e: unknown, aborted: string | null): SysError {
  // Our own timer aborted the transfer: whatever the host reports, it is a timeout.
  if (aborted) return new SysError(Errno.ETIMEDOUT, aborted);
  if (e instanceof SysError) return e;
  if (e instanceof NetError) return new SysError(e.errno, e.message);
  return new SysError(Errno.EIO, e instanceof Error ? e.message : String(e));
}

// The kernel's network: the VM's policy and the host's way to reach the network.

import { Errno, SysError } from '../../abi/errno.js';
import { NetError, type HostFetch } from './host.js';
import { NetPolicy } from './policy.js';

export class NetStack {
  constructor(
    readonly policy: NetPolicy = new NetPolicy('none'),
    /** Absent when the host has no network at all. */
    readonly fetch: HostFetch | null = null,
  ) {}
}

/** A host failure as the guest's errno and message. */
export function toSysError(e: unknown, aborted: string | null): SysError {
  // Our own timer aborted the transfer: whatever the host reports, it is a timeout.
  if (aborted) return new SysError(Errno.ETIMEDOUT, aborted);
  if (e instanceof SysError) return e;
  if (e instanceof NetError) return new SysError(e.errno, e.message);
  return new SysError(Errno.EIO, e instanceof Error ? e.message : String(e));
}

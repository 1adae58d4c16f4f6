// software(op, ...): the kernel end of `agentos-software` (see kernel/software/broker.ts).

import { Errno, SysError } from '../../abi/errno.js';
import type { Kernel } from '../kernel.js';
import type { Process } from '../process.js';
import { BIN, OPT } from '../software/layout.js';
import type { Handler } from '../syscall.js';
import { int, str } from './args.js';

/**
 * The broker writes /opt/agentos as root on the caller's behalf: the VM
 * policy's read-only and ask rules there still apply to the caller. Under
 * command rules nothing there may change: the rules name commands by path, and
 * unlinking an allowed name and linking another package's command in its
 * place would make an allowed path run the guest's own program.
 */
function policyAllowsChanges(k: Kernel, p: Process, op: string): void {
  if (op === 'list') return;
  const procs = k.policy.policy.processes;
  if (procs?.allow || procs?.ask) {
    throw new SysError(Errno.EPERM, `software ${op} is not allowed under the VM's command rules (they name commands by path)`);
  }
  const guard = k.policy.fs;
  if (!guard) return;
  for (const path of [OPT, BIN]) guard.modify(p.cred, k.vfs.resolve(p.cred, k.vfs.root(), path, false), `software ${op} (${path})`);
}

export const software: Handler<'software'> = (k, p, a) => {
  const op = str(a, 0);
  const b = k.software;
  policyAllowsChanges(k, p, op);
  switch (op) {
    case 'link':
      return b.link(p.cred, str(a, 1));
    case 'unlink':
      return b.unlink(str(a, 1));
    case 'list':
      return b.list();
    case 'install':
      return b.install(p.cred, str(a, 1), int(a, 2, 0) !== 0);
    case 'upgrade':
      return b.upgrade(str(a, 1), str(a, 2));
    default:
      throw new SysError(Errno.EINVAL, `software: unknown operation ${op}`);
  }
};

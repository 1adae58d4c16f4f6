// software(op, ...): the kernel end of `agentos-software` (see kernel/software/broker.ts).

import type { Value } from '../../abi/codec.js';
import { Errno, SysError } from '../../abi/errno.js';
import type { Handler } from '../syscall.js';
import { int, str } from './args.js';

export const software: Handler = (k, p, a) => {
  const op = str(a, 0);
  const b = k.software;
  switch (op) {
    case 'link':
      return b.link(p.cred, str(a, 1)) as unknown as Value;
    case 'unlink':
      return b.unlink(str(a, 1));
    case 'list':
      return b.list() as unknown as Value;
    case 'install':
      return b.install(p.cred, str(a, 1), int(a, 2, 0) !== 0) as unknown as Value;
    case 'upgrade':
      return b.upgrade(str(a, 1), str(a, 2)) as unknown as Value;
    default:
      throw new SysError(Errno.EINVAL, `software: unknown operation ${op}`);
  }
};

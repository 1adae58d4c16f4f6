// aosctl(op, ...): the kernel calls behind /aos that are not file I/O
// (abi/aos.ts): restrict, ask, decide, answer, pending.

import type { ToolCall } from '../../abi/agent.js';
import { Errno, SysError } from '../../abi/errno.js';
import { checkRestriction, restrict } from '../policy/restrict.js';
import type { Handler } from '../syscall.js';
import { int, str } from '../sys/args.js';
import { answer, ask, decide, pending, type AskState } from './intents.js';

export const aosctl: Handler<'aosctl'> = (k, p, a, call) => {
  const op = str(a, 0);
  switch (op) {
    case 'restrict':
      // The host's own process is not restricted: everything it starts would inherit it.
      if (p.pid <= 1) throw new SysError(Errno.EPERM, 'restrict: not for the host');
      return restrict(k, p, checkRestriction(a[1]));
    case 'ask':
      return ask(k, p, a[1] as unknown as ToolCall, call.state.ask as AskState | undefined, (s) => (call.state.ask = s), (f) => (call.state.cleanup = f));
    case 'decide':
      return decide(k, p, int(a, 1), a[2] === true, typeof a[3] === 'string' ? a[3] : '');
    case 'answer':
      return answer(k, p, int(a, 1), str(a, 2));
    case 'pending':
      return pending(k, int(a, 1, 0));
    default:
      throw new SysError(Errno.EINVAL, `aosctl: unknown operation ${op}`);
  }
};

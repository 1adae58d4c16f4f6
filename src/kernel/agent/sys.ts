// agent(op, ...): the model service's syscall family (abi/agent-sys.ts).

import type { AgentSpec } from '../../abi/agent-sys.js';
import type { Value } from '../../abi/codec.js';
import { Errno, SysError } from '../../abi/errno.js';
import { int, str } from '../sys/args.js';
import { settle } from '../sys/settle.js';
import type { Handler } from '../syscall.js';
import { exitQueue, moveStatus, report } from './exit.js';
import { takeRecord, verdict } from './runmode.js';
import { begin, call, estimate, info, mayRead } from './service.js';

export const agent: Handler<'agent'> = (k, p, a, c) => {
  const op = str(a, 0);
  const raw = a as unknown as Value[];
  switch (op) {
    case 'begin':
      return begin(k, p, (raw[1] ?? {}) as unknown as AgentSpec);
    case 'call':
      return settle(c, () => {
        // A signal or the process's death ends the call and aborts the backend's request.
        const ctl = new AbortController();
        const prev = c.state.cleanup;
        c.state.cleanup = () => {
          ctl.abort();
          prev?.();
        };
        return call(k, p, raw[1], ctl.signal);
      });
    case 'estimate':
      return estimate(k, p, raw[1]);
    case 'exit':
      return report(k, p, int(a, 1), str(a, 2), str(a, 3));
    case 'list': {
      const pid = int(a, 1, 0);
      if (pid === 0) return k.agents.list().map((x) => info(x));
      const one = k.agents.get(pid);
      if (!one) throw new SysError(Errno.ESRCH, `agent: no agent ${pid}`);
      return [info(one)];
    }
    case 'wait': {
      const pid = int(a, 1);
      const one = k.agents.get(pid);
      if (!one) throw new SysError(Errno.ESRCH, `agent: no agent ${pid}`);
      if (pid === p.pid) throw new SysError(Errno.EINVAL, 'agent: an agent cannot wait for itself');
      // An agent waiting for another shows waiting_child until it ends (or the wait is interrupted).
      const me = k.agents.get(p.pid);
      const resume = () => {
        if (me) moveStatus(me, 'waiting_child', 'running');
      };
      if (!one.exit) {
        if (me) moveStatus(me, 'running', 'waiting_child');
        c.state.cleanup = resume;
        return exitQueue(k);
      }
      resume();
      return { ...one.exit, name: String(one.exit.name) };
    }
    case 'trace': {
      const one = k.agents.get(int(a, 1));
      if (!one) throw new SysError(Errno.ESRCH, `agent: no agent ${int(a, 1)}`);
      mayRead(p, one.uid);
      return one.trace.slice(Math.max(0, int(a, 2, 0)));
    }
    case 'cores': {
      const pid = int(a, 1, 0);
      return [...k.agents.cores.values()]
        .filter((c) => (pid === 0 || c.pid === pid) && (p.uid === 0 || p.uid === c.uid))
        .map((c) => JSON.stringify(c));
    }
    case 'record':
    case 'verdict': {
      const me = k.agents.get(p.pid);
      if (!me) throw new SysError(Errno.EPERM, 'agent: not an agent process');
      return op === 'record' ? takeRecord(me) : verdict(me);
    }
    default:
      throw new SysError(Errno.EINVAL, `agent: unknown operation ${op}`);
  }
};

// Sending text through a pager command (`sh -c "$PAGER"`), as man does on a terminal.

import { SysError } from '../../../abi/errno.js';
import { SIG_IGN, SIGPIPE } from '../../../abi/signal.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';

/** Run `pager` with `text` on its standard input and wait; false if it could not start. */
export function showThroughPager(os: AgentosApi, text: string, pager: string): boolean {
  const sys = os.sys;
  // A pager that quits early must not kill us with SIGPIPE.
  os.signal(SIGPIPE, SIG_IGN);
  let r = -1;
  let w = -1;
  try {
    [r, w] = sys.pipe();
    const env = Object.entries(os.env).map(([k, v]) => `${k}=${v}`);
    const pid = sys.spawn({ path: '/bin/sh', argv: ['sh', '-c', pager], env, fds: [[0, r], [1, 1], [2, 2]] });
    sys.close(r);
    r = -1;
    try {
      sys.writeAll(w, text);
    } catch (e) {
      // The pager quit before reading it all.
      if (!(e instanceof SysError)) throw e;
    }
    sys.close(w);
    w = -1;
    sys.waitpid(pid);
    return true;
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    return false;
  } finally {
    if (r >= 0) sys.close(r);
    if (w >= 0) sys.close(w);
  }
}

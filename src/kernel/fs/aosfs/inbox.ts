// A prompt committed to /aos/agents/<name>/inbox starts that agent: the
// kernel runs `aos run <name> <prompt>` (/usr/bin/aos, the operator's, else
// the package's /opt/agentos/bin/aos) as the writer's user (with the
// writer's capabilities), an orphan of init so nobody has to reap it. Without
// an `aos` program in the image the prompt is only recorded (audit trail).
//
// A process in an agent's tree may not write an inbox (EPERM at open): the
// agent it started would be outside its tree, so outside its budget; agents
// start agents with their spawn_agent tool, as their children.

import { Errno, SysError } from '../../../abi/errno.js';
import { agentAbove } from '../../policy/restrict.js';
import type { Ctx } from './node.js';

export const AOS_PROGRAMS = ['/usr/bin/aos', '/opt/agentos/bin/aos'];

/** The prompt of a message: a JSON {"prompt": ...} is parsed, any other text is the prompt (less the newline `echo` ends it with). */
export function promptOf(text: string): string {
  const t = text.trim();
  if (t.startsWith('{')) {
    try {
      const v = JSON.parse(t) as { prompt?: unknown };
      if (v && typeof v === 'object' && typeof v.prompt === 'string') return v.prompt;
    } catch {
      // Not JSON: the text is the prompt.
    }
  }
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

export function checkInboxWriter(c: Ctx): void {
  const p = c.k.procs.get(c.cred.pid);
  if (p && agentAbove(c.k, p)) throw new SysError(Errno.EPERM, 'an agent starts agents with its spawn_agent tool, not through an inbox');
}

export function startFromInbox(c: Ctx, name: string, text: string): void {
  const prompt = promptOf(text);
  const k = c.k;
  const writer = k.procs.get(c.cred.pid);
  let started = 0;
  let error: string | undefined;
  try {
    const path = AOS_PROGRAMS.find((x) => {
      try {
        return !!k.vfs.resolve(k.init.cred, k.vfs.root(), x);
      } catch {
        return false;
      }
    });
    if (!path) throw new SysError(Errno.ENOENT, `no ${AOS_PROGRAMS.join(' or ')}`);
    const env = ['PATH=/usr/local/bin:/opt/agentos/bin:/usr/bin:/bin', 'HOME=/', `AOS_AGENT=${name}`];
    const child = k.spawn(k.init, { path, argv: ['aos', 'run', name, prompt], env, cwd: '/', uid: c.cred.uid, gid: c.cred.gid, fds: [] });
    // Nobody waits for it: it is reaped when it ends. Never wider than whoever wrote the prompt.
    child.orphan = true;
    child.caps = writer?.caps ?? null;
    started = child.pid;
  } catch (e) {
    error = e instanceof SysError ? (e.detail ?? `errno ${e.errno}`) : String(e);
  }
  k.policy.audit.record('process.start', c.cred.pid, { aosInbox: name, bytes: text.length, started, ...(error ? { error } : {}) });
}

// How an agent process ends, as the kernel records it: the process reports a
// name and reason for its exit code (agent exit), the kernel takes the code
// from the real exit status, and a code of CORE_EXIT_MIN or more leaves a
// core (the trace and the last conversation) in kernel.agents.cores, which
// /aos/cores shows.

import { AgentExit, type AgentStatus, CORE_EXIT_MIN } from '../../abi/agent.js';
import { Errno, SysError } from '../../abi/errno.js';
import { WEXITSTATUS, WIFSIGNALED, WTERMSIG } from '../../abi/wait.js';
import type { Kernel } from '../kernel.js';
import type { Process } from '../process.js';
import { WaitQueue } from '../waitqueue.js';
import type { AgentExitInfo, AgentProc } from './table.js';

const queues = new WeakMap<Kernel, WaitQueue>();

/** Woken whenever an agent ends: `agent wait` sleeps on it. */
export function exitQueue(k: Kernel): WaitQueue {
  let q = queues.get(k);
  if (!q) queues.set(k, (q = new WaitQueue()));
  return q;
}

const NAMES = new Map<number, string>(Object.entries(AgentExit).map(([n, c]) => [c, n]));

/** exit(code, name, reason): what the agent says of its coming exit; kept only if the real status agrees. */
export function report(k: Kernel, p: Process, code: number, name: string, reason: string): 0 {
  const a = k.agents.get(p.pid);
  if (!a) throw new SysError(Errno.EPERM, 'agent: not an agent process');
  if (!Number.isInteger(code) || code < 0 || code > 255) throw new SysError(Errno.EINVAL, 'agent: exit code 0-255');
  const info = { code, name: (NAMES.get(code) ?? name).slice(0, 64), reason: reason.slice(0, 4096) };
  pendingReports.set(a, info);
  k.agents.record(p.pid, { type: 'exit', ...info });
  return 0;
}

const pendingReports = new WeakMap<object, AgentExitInfo>();

const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15);

/** The process ended (kernel.exit): record its exit, and a core for an exceptional code. */
export function exited(k: Kernel, p: Process, status: number): void {
  const a = k.agents.get(p.pid);
  if (!a || a.exit) return;
  const said = pendingReports.get(a);
  let exit: AgentExitInfo;
  if (WIFSIGNALED(status)) {
    exit = { code: 128 + WTERMSIG(status), name: 'KILLED', reason: `killed by signal ${WTERMSIG(status)}` };
  } else {
    const code = WEXITSTATUS(status);
    exit = said && said.code === code ? said : { code, name: NAMES.get(code) ?? (code ? 'FAILURE' : 'SUCCESS'), reason: code ? 'exited' : 'completed' };
  }
  a.exit = exit;
  a.status = 'exited';
  // A pid reused by a new agent replaces this record (AgentTable.add): prune the oldest ended ones now.
  prune(k);
  exitQueue(k).wake();
  if (exit.code >= CORE_EXIT_MIN && exit.code < 128) {
    const ended = Date.now();
    k.agents.addCore({
      id: `${a.pid}_${stamp(ended)}`, pid: a.pid, uid: a.uid, agent: a.agent, model: a.model, exit, started: a.started, ended,
      budget: { ...a.budget }, trace: [...a.trace], messages: a.messages,
    });
  }
}

/** What a paused agent was doing: it shows that again when continued (waiting for a person, say). */
const beforePause = new WeakMap<AgentProc, AgentStatus>();

/** SIGSTOP / SIGCONT: an agent shows paused while stopped. */
export function paused(k: Kernel, p: Process, stopped: boolean): void {
  const a = k.agents.get(p.pid);
  if (!a || a.exit) return;
  if (stopped) {
    if (a.status !== 'paused') beforePause.set(a, a.status);
    a.status = 'paused';
  } else if (a.status === 'paused') {
    a.status = beforePause.get(a) ?? 'running';
    beforePause.delete(a);
  }
}

/** An agent's status moves from `from` to `to`; while it is paused, the status it will continue with does. */
export function moveStatus(a: AgentProc, from: AgentStatus, to: AgentStatus): void {
  if (a.status === from) a.status = to;
  else if (a.status === 'paused' && beforePause.get(a) === from) beforePause.set(a, to);
}

/** Ended agents kept for /aos/procs, `aos ps` and `aos wait` after their parent reaped them; the oldest go first. */
const KEEP_EXITED = 256;

export function prune(k: Kernel): void {
  const ended = k.agents.list().filter((a) => a.exit);
  for (const a of ended.slice(0, Math.max(0, ended.length - KEEP_EXITED))) k.agents.remove(a.pid);
}

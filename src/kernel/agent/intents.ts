// Approval is I/O. A tool call an agent's policy marks `ask` becomes an
// intent: an approval request (policy/approval.ts, so the host's onApproval
// hears of it as of any `ask`) that shows in /aos/procs/<pid>/intents/pending
// while the agent waits (status waiting_human). Questions written to
// /aos/channels/human wait the same way for a person's answer.
//
// Who decides: a different principal only. The host (its onApproval, or
// aosctl as init), or root inside the VM (`aos approve`), never a process in
// an agent's tree: an agent, its tools and their children cannot approve an
// intent or answer a question, their own or another agent's (EPERM). Every
// decision goes to the audit trail and the agent's trace.

import type { ToolCall } from '../../abi/agent.js';
import type { HumanQuestion, IntentInfo } from '../../abi/aos.js';
import { Errno, SysError } from '../../abi/errno.js';
import type { Kernel } from '../kernel.js';
import type { Process } from '../process.js';
import { agentAbove } from '../policy/restrict.js';
import { WaitQueue } from '../waitqueue.js';
import { moveStatus } from './exit.js';

interface Question extends HumanQuestion {
  answer: string | null;
  readonly answered: WaitQueue;
}

/** Questions waiting at once (kernel memory); more is EAGAIN. */
const MAX_QUESTIONS = 256;
/** A question or an answer is a message: at most this long. */
export const MESSAGE_MAX = 64 * 1024;

class AosState {
  /** Approval ids made by `ask`: the only requests aosctl may decide (the VM policy's asks stay the host's). */
  readonly intents = new Map<number, IntentInfo>();
  readonly questions = new Map<number, Question>();
  nextQuestion = 1;
}

const states = new WeakMap<Kernel, AosState>();

export function aosState(k: Kernel): AosState {
  let s = states.get(k);
  if (!s) states.set(k, (s = new AosState()));
  return s;
}

/** The state of one `ask` across the handler's retries. */
export interface AskState {
  decision: 'allow' | 'deny' | null;
  queue: WaitQueue;
}

/**
 * Agent `p` asks before running `call`: park until decided. Returns the
 * decision, or the queue to sleep on (the handler is run again when woken).
 */
export function ask(k: Kernel, p: Process, call: ToolCall, st: AskState | undefined, keep: (s: AskState) => void, onEnd: (f: () => void) => void): 'allow' | 'deny' | WaitQueue {
  if (st) return st.decision ?? st.queue;
  const a = k.agents.get(p.pid);
  if (!a || a.exit) throw new SysError(Errno.EPERM, 'ask: not an agent process');
  if (!call || typeof call !== 'object' || typeof call.name !== 'string' || !call.name) throw new SysError(Errno.EINVAL, 'ask: want a tool call');
  const args = call.arguments && typeof call.arguments === 'object' && !Array.isArray(call.arguments) ? call.arguments : {};
  const s: AskState = { decision: null, queue: new WaitQueue() };
  keep(s);
  const state = aosState(k);
  let id = 0;
  const detail = `${call.name} ${JSON.stringify(args).slice(0, 1000)} (agent ${a.agent || 'ad-hoc'}, pid ${p.pid})`;
  void k.policy.approvals.approve(`agent.ask:${call.name}`, detail, p.pid, (req) => {
    id = req.id;
    const info: IntentInfo = { id, pid: p.pid, tool: call.name, arguments: args, time: req.time };
    state.intents.set(id, info);
    a.intents.set(id, { id, pid: p.pid, call: { id: String(call.id ?? ''), name: call.name, arguments: args }, time: req.time });
    moveStatus(a, 'running', 'waiting_human');
    k.agents.record(p.pid, { type: 'intent', id, tool: call.name, arguments: args });
  }).then((d) => {
    state.intents.delete(id);
    a.intents.delete(id);
    if (a.intents.size === 0) moveStatus(a, 'waiting_human', 'running');
    k.agents.record(p.pid, { type: 'decision', id, tool: call.name, decision: d });
    s.decision = d;
    s.queue.wake();
  });
  // Interrupted or killed before a decision: the intent is withdrawn, not left for someone to approve.
  onEnd(() => {
    if (s.decision === null && id) k.policy.approvals.withdraw(id);
  });
  return s.decision ?? s.queue;
}

/** Only a different principal decides: root (or the host) outside every agent's tree. */
function mayDecide(k: Kernel, p: Process, what: string): void {
  if (agentAbove(k, p)) {
    k.policy.audit.record('policy', p.pid, { decision: 'deny', rule: 'aos.approver', errno: 'EPERM', detail: what });
    throw new SysError(Errno.EPERM, `${what}: a process in an agent's tree cannot decide for an agent`);
  }
  if (p.uid !== 0) throw new SysError(Errno.EACCES, `${what}: only the operator (root) decides`);
}

/** `aos approve|reject ID`. */
export function decide(k: Kernel, p: Process, id: number, approve: boolean, reason: string): 0 {
  const what = `${approve ? 'approve' : 'reject'} ${id}`;
  mayDecide(k, p, what);
  const intent = aosState(k).intents.get(id);
  if (!intent) throw new SysError(Errno.ENOENT, `no pending intent ${id}`);
  k.policy.audit.record('approval', p.pid, { intent: id, agentPid: intent.pid, tool: intent.tool, decision: approve ? 'allow' : 'deny', by: p.pid === 1 ? 'host' : `uid ${p.uid}`, reason: reason.slice(0, 1000) });
  k.policy.approvals.answer(id, approve ? 'once' : 'deny');
  return 0;
}

/** A question for a person; its answer arrives through `answer`. */
export function askHuman(k: Kernel, p: Process, text: string): Question {
  const state = aosState(k);
  if (state.questions.size >= MAX_QUESTIONS) throw new SysError(Errno.EAGAIN, 'too many questions waiting');
  const q: Question = { id: state.nextQuestion++, pid: p.pid, uid: p.uid, question: text, time: Date.now(), answer: null, answered: new WaitQueue() };
  state.questions.set(q.id, q);
  const agent = agentAbove(k, p);
  const a = agent ? k.agents.get(agent) : undefined;
  if (a) {
    moveStatus(a, 'running', 'waiting_human');
    k.agents.record(agent, { type: 'question', id: q.id, pid: p.pid, question: text.slice(0, 16 * 1024) });
  }
  k.policy.audit.record('approval', p.pid, { question: q.id, asked: text.slice(0, 1000) });
  return q;
}

function settleWaiting(k: Kernel, pid: number): void {
  const p = k.procs.get(pid);
  const agent = p ? agentAbove(k, p) : 0;
  const a = agent ? k.agents.get(agent) : undefined;
  if (a && a.intents.size === 0) moveStatus(a, 'waiting_human', 'running');
}

/** `aos answer ID TEXT`: a person answers question `id`. */
export function answer(k: Kernel, p: Process, id: number, text: string): 0 {
  mayDecide(k, p, `answer ${id}`);
  const q = aosState(k).questions.get(id);
  if (!q || q.answer !== null) throw new SysError(Errno.ENOENT, `no pending question ${id}`);
  if (text.length > MESSAGE_MAX) throw new SysError(Errno.EFBIG, 'answer too long');
  q.answer = text;
  k.policy.audit.record('approval', p.pid, { question: id, askerPid: q.pid, by: p.pid === 1 ? 'host' : `uid ${p.uid}`, answered: text.slice(0, 1000) });
  const agent = (() => {
    const asker = k.procs.get(q.pid);
    return asker ? agentAbove(k, asker) : 0;
  })();
  if (agent) k.agents.record(agent, { type: 'answer', id, answer: text.slice(0, 16 * 1024) });
  settleWaiting(k, q.pid);
  q.answered.wake();
  return 0;
}

export type { Question };

/**
 * The question a reader of /aos/channels/human waits on: the newest one its
 * process or an ancestor asked (`echo q > human; cat human` asks from the
 * shell and reads from its child).
 */
export function answerFor(k: Kernel, pid: number): Question | null {
  const qs = [...aosState(k).questions.values()];
  for (let p = k.procs.get(pid); p && p.pid > 1; p = k.procs.get(p.ppid)) {
    for (let i = qs.length - 1; i >= 0; i--) if (qs[i].pid === p.pid) return qs[i];
  }
  return null;
}

/** An answered question was read: it is done. */
export function delivered(k: Kernel, q: Question): void {
  aosState(k).questions.delete(q.id);
}

/** What waits for a decision: intents (of `pid`, or all when 0) and questions. */
export function pending(k: Kernel, pid: number): { intents: IntentInfo[]; questions: HumanQuestion[] } {
  const s = aosState(k);
  const intents = [...s.intents.values()].filter((i) => pid === 0 || i.pid === pid);
  const questions = [...s.questions.values()].filter((q) => q.answer === null).map(({ id, pid: qp, uid, question, time }) => ({ id, pid: qp, uid, question, time }));
  return { intents, questions };
}

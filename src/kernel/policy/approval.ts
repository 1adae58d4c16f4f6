// Human approval: a rule that says `ask` blocks the operation in
// the kernel until the host answers. Answers come only through the host's
// channel (KernelService.answerApproval); the guest has no call that reaches
// here except by attempting the operation. `always` and `never` are
// remembered per rule; no answer within the timeout is a denial.
//
// Two ways in:
// - `approve(rule, detail, pid)`: a promise, for kernel code that can wait
//   (the network policy calls this);
// - `require(rule, detail, pid)` inside a syscall handler: throws
//   ApprovalNeeded, the Call parks until the answer and re-runs the handler,
//   which then finds the answer (or the denial) in the call's own state: a
//   `once` lasts exactly one syscall, however many rules it meets.

import { Errno, SysError } from '../../abi/errno.js';
import { longTimeout, type LongTimeout } from '../../abi/long-timeout.js';
import type { Answer, ApprovalRequest } from '../../api/types.js';
import type { AuditLog } from './audit.js';

export type Decision = 'allow' | 'deny';

/** Thrown by `require` in a syscall handler: the Call waits for the answer, then retries. */
export class ApprovalNeeded {
  constructor(readonly rule: string, readonly detail: string, readonly pid: number) {}
}

/** Where a call keeps its answers across retries (its CallState). */
export interface GrantHolder {
  approvals?: Map<string, Decision>;
}

interface Pending {
  req: ApprovalRequest;
  resolve: (d: Decision) => void;
  timer: LongTimeout;
}

const ANSWERS: readonly string[] = ['once', 'always', 'never', 'deny'];

export class Approvals {
  private readonly remembered = new Map<string, Decision>();
  private readonly pending = new Map<number, Pending>();
  /** The syscall running now (see `enter`). */
  private call: GrantHolder | null = null;
  private nextId = 1;
  private readonly listeners = new Set<(r: ApprovalRequest) => void>();

  constructor(private readonly audit: AuditLog, private readonly timeoutMs: number) {}

  /** Ask the host whether `rule` may allow `detail` now; `asked` learns the request made (none if a remembered answer holds). */
  approve(rule: string, detail: string, pid = 1, asked?: (r: ApprovalRequest) => void): Promise<Decision> {
    const known = this.remembered.get(rule);
    if (known) return Promise.resolve(known);
    return new Promise((resolve) => {
      const req: ApprovalRequest = { id: this.nextId++, rule, detail, pid, time: Date.now() };
      const timer = longTimeout(() => this.settle(req.id, 'timeout'), this.timeoutMs);
      this.pending.set(req.id, { req, resolve, timer });
      asked?.(req);
      for (const l of this.listeners) l(req);
    });
  }

  /** The asker is gone (killed, interrupted): the request ends as a denial nobody gave. */
  withdraw(id: number): void {
    this.settle(id, 'withdrawn');
  }

  /** A syscall handler is about to run with `call`'s answers; returns the previous holder, for `enter(prev)` after. */
  enter(call: GrantHolder | null): GrantHolder | null {
    const prev = this.call;
    this.call = call;
    return prev;
  }

  /** In a syscall handler: pass if allowed, throw EACCES if denied, ApprovalNeeded if the host must be asked. */
  require(rule: string, detail: string, pid: number): void {
    const d = this.remembered.get(rule) ?? this.call?.approvals?.get(`${rule}\0${detail}`);
    if (d === 'allow') return;
    if (d === 'deny') throw new SysError(Errno.EACCES, `denied by the host (policy ${rule})`);
    throw new ApprovalNeeded(rule, detail, pid);
  }

  /** Called by a parked Call: ask, and leave the answer in the call's state for its retry. */
  wait(need: ApprovalNeeded, call: GrantHolder): Promise<void> {
    return this.approve(need.rule, need.detail, need.pid).then((d) => {
      (call.approvals ??= new Map()).set(`${need.rule}\0${need.detail}`, d);
    });
  }

  /** The host's answer. False if no such request is pending (answered, timed out, or made up). */
  answer(id: number, answer: string): boolean {
    if (!ANSWERS.includes(answer)) return false;
    return this.settle(id, answer as Answer);
  }

  list(): ApprovalRequest[] {
    return [...this.pending.values()].map((p) => p.req);
  }

  onRequest(cb: (r: ApprovalRequest) => void): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }

  private settle(id: number, answer: Answer | 'timeout' | 'withdrawn'): boolean {
    const p = this.pending.get(id);
    if (!p) return false;
    this.pending.delete(id);
    p.timer.clear();
    const decision: Decision = answer === 'once' || answer === 'always' ? 'allow' : 'deny';
    if (answer === 'always' || answer === 'never') this.remembered.set(p.req.rule, decision);
    this.audit.record('approval', p.req.pid, { rule: p.req.rule, detail: p.req.detail, answer, decision });
    p.resolve(decision);
    // Requests for the same rule waiting on a remembered answer are settled with it.
    if (answer === 'always' || answer === 'never') {
      for (const q of [...this.pending.values()]) if (q.req.rule === p.req.rule) this.settle(q.req.id, answer);
    }
    return true;
  }
}

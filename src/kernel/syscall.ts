// Syscall dispatch: run a handler, park it on a WaitQueue when it cannot
// finish, retry it when woken, and interrupt it for signals (EINTR).
//
// Handlers are plain synchronous functions; a handler that would block returns
// the WaitQueue to sleep on and is simply called again later (Linux's
// "prepare to wait, re-check condition" loop). State that must survive a retry
// (bytes already written, a deadline) lives in `call.state`.

import type { Value } from '../abi/codec.js';
import { Errno, SysError } from '../abi/errno.js';
import type { SyscallArgs, SyscallResult } from '../abi/syscall-types.js';
import type { SyscallName } from '../abi/syscalls.js';
import type { Kernel } from './kernel.js';
import { ApprovalNeeded, type GrantHolder } from './policy/approval.js';
import { diagnose } from './diag.js';
import type { Process } from './process.js';
import type { Args } from './sys/args.js';
import { WaitQueue } from './waitqueue.js';
import { longTimeout } from '../abi/long-timeout.js';

export interface CallState {
  /** Runs when the call ends for any reason (reply, EINTR, process death). */
  cleanup?: () => void;
  /** A partial result to return instead of EINTR (bytes already transferred). */
  partial?: Value;
  [k: string]: unknown;
}

/**
 * The handler of syscall N: its arguments labelled with N's signature
 * (abi/syscall-types.ts), read through sys/args.ts; it answers N's result, or
 * a queue to sleep on.
 */
export type Handler<N extends SyscallName> = (k: Kernel, p: Process, args: Args<SyscallArgs<N>>, call: Call) => SyscallResult<N> | WaitQueue;

/** Any handler, as dispatch sees it: values in, a value out (sys/table.ts is where the types are dropped). */
export type AnyHandler = (k: Kernel, p: Process, args: Value[], call: Call) => Value | WaitQueue;

export class Call {
  readonly state: CallState = {};
  private unsubscribe: (() => void) | null = null;
  private finished = false;

  constructor(
    readonly kernel: Kernel,
    readonly proc: Process,
    readonly name: string,
    private readonly handler: AnyHandler,
    readonly args: Value[],
    private readonly done: (errno: number, value: Value) => void,
  ) {}

  /** Run (or re-run) the handler. */
  attempt(): void {
    if (this.finished) return;
    this.unsubscribe = null;
    const p = this.proc;
    if (p.state === 'T') return this.sleep(p.contQueue);
    let r: Value | WaitQueue;
    const outer = this.kernel.currentCall;
    this.kernel.currentCall = this;
    const approvals = this.kernel.policy.approvals;
    const outerGrants = approvals.enter(this.state as GrantHolder);
    try {
      r = this.handler(this.kernel, p, this.args, this);
    } catch (e) {
      // The detail (a path, a reason) travels with the errno, for the caller's message.
      if (e instanceof SysError) return this.finish(e.errno, e.detail ?? null);
      if (e instanceof ApprovalNeeded) return this.awaitApproval(e);
      return this.finish(...unexpected(this, e));
    } finally {
      approvals.enter(outerGrants);
      this.kernel.currentCall = outer;
    }
    if (r instanceof WaitQueue) return this.sleep(r);
    this.finish(0, r);
  }

  private sleep(q: WaitQueue): void {
    if (this.finished) return;
    // Linux checks signal_pending() before it schedules: a caught signal sent
    // after the runtime's last look but before this call parked must still
    // break it, or the call waits with the signal unhandled. (A stopped
    // process keeps waiting for SIGCONT; its signals run after.)
    if (this.proc.caught && q !== this.proc.contQueue) return this.interrupt();
    this.proc.current = this;
    if (this.proc.state === 'R') this.proc.state = 'S';
    this.proc.channel?.parked();
    this.unsubscribe = q.add(() => this.kernel.schedule(this));
  }

  /** A rule says `ask`: park until the host answers, then run the handler again (it finds the answer). */
  private awaitApproval(need: ApprovalNeeded): void {
    const q = new WaitQueue();
    void this.kernel.policy.approvals.wait(need, this.state as GrantHolder).then(() => q.wake());
    this.sleep(q);
  }

  /** A signal arrived: end the call with its partial result or EINTR. */
  interrupt(): void {
    if (this.finished) return;
    this.unsubscribe?.();
    if (this.state.partial !== undefined) this.finish(0, this.state.partial);
    else this.finish(Errno.EINTR, null);
  }

  /** The process died: drop the call without replying. */
  abandon(): void {
    this.unsubscribe?.();
    this.end();
  }

  finish(errno: number, value: Value): void {
    if (this.finished) return;
    this.end();
    this.done(errno, value);
  }

  private end(): void {
    this.finished = true;
    if (this.proc.current === this) this.proc.current = null;
    if (this.proc.state === 'S') this.proc.state = 'R';
    const c = this.state.cleanup;
    this.state.cleanup = undefined;
    c?.();
  }

  get isFinished(): boolean {
    return this.finished;
  }
}

/**
 * A handler threw something other than an errno: a kernel bug, found by these
 * arguments. Handlers check their arguments (sys/args.ts), so a TypeError or
 * RangeError here is most likely an argument of a shape nobody checked: EINVAL,
 * as for any argument the kernel cannot use. Anything else is EIO. The call
 * fails; the kernel and the process go on.
 */
function unexpected(call: Call, e: unknown): [number, Value] {
  diagnose(`pid ${call.proc.pid}: ${call.name} failed`, e);
  return e instanceof TypeError || e instanceof RangeError ? [Errno.EINVAL, `${call.name}: unusable arguments`] : [Errno.EIO, null];
}

/** A timer that wakes a queue: how timed waits (sleep, poll timeouts) park. */
export function timerQueue(call: Call, ms: number): WaitQueue {
  const q = new WaitQueue();
  const t = longTimeout(() => q.wake(), Math.max(0, ms));
  const prev = call.state.cleanup;
  call.state.cleanup = () => {
    t.clear();
    prev?.();
  };
  return q;
}

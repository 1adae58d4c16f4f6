// The kernel's record of agent processes: which processes are agents, their
// budgets and spend, status, trace and pending intents. The model service
// (kernel/agent/) writes it; /aos (kernel/fs/aosfs) and the host API read it.
// A record outlives its process until reaped, like a zombie, so /aos/procs
// still shows how an agent ended.

import type { AgentExitName, AgentStatus, Json, ToolCall } from '../../abi/agent.js';

export interface Budget {
  /** USD; Infinity = no limit. */
  limitUsd: number;
  spentUsd: number;
  tokensLimit: number;
  tokensUsed: number;
}

/** A tool call waiting for a human's decision (a policy `ask`). */
export interface Intent {
  id: number;
  pid: number;
  call: ToolCall;
  time: number;
}

export interface AgentExitInfo {
  code: number;
  name: AgentExitName | string;
  reason: string;
}

export interface AgentProc {
  readonly pid: number;
  readonly ppid: number;
  /** The agent's name (its config under /aos/etc/agents.d), or '' for an ad-hoc agent. */
  readonly agent: string;
  readonly model: string;
  status: AgentStatus;
  readonly budget: Budget;
  /** One JSON object per event, in order (model call, tool call, tool result, ...). */
  readonly trace: string[];
  readonly intents: Map<number, Intent>;
  exit: AgentExitInfo | null;
  readonly started: number;
}

type TraceListener = (pid: number, line: string) => void;

export class AgentTable {
  private readonly procs = new Map<number, AgentProc>();
  private readonly listeners = new Set<TraceListener>();

  add(p: AgentProc): void {
    this.procs.set(p.pid, p);
  }

  get(pid: number): AgentProc | undefined {
    return this.procs.get(pid);
  }

  list(): AgentProc[] {
    return [...this.procs.values()];
  }

  /** Forget an ended agent (its parent reaped it). */
  remove(pid: number): void {
    this.procs.delete(pid);
  }

  /** The agents whose spend counts in `pid`'s: itself and every ancestor that is an agent. */
  chain(pid: number): AgentProc[] {
    const out: AgentProc[] = [];
    for (let p = this.procs.get(pid); p; p = this.procs.get(p.ppid)) out.push(p);
    return out;
  }

  /** Append one trace event and tell the readers (`tail -f trace.jsonl`, the host's event stream). */
  record(pid: number, event: { [key: string]: Json }): void {
    const p = this.procs.get(pid);
    if (!p) return;
    const line = JSON.stringify({ t: Date.now(), ...event });
    p.trace.push(line);
    for (const l of this.listeners) l(pid, line);
  }

  onTrace(l: TraceListener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
}

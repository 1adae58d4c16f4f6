// The kernel's record of agent processes: which processes are agents, their
// budgets and spend, status, trace and pending intents. The model service
// (kernel/agent/) writes it; /aos (kernel/fs/aosfs) and the host API read it.
// A record outlives its process until reaped, like a zombie, so /aos/procs
// still shows how an agent ended.

import type { AgentExitName, AgentStatus, ChatMessage, Json, ToolCall } from '../../abi/agent.js';

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
  /** The nearest ancestor agent, whose spend includes this one's (kept by reference: it may be reaped first). */
  readonly parent: AgentProc | null;
  /** The tools it may offer the model: its parent's, intersected with its own. */
  readonly tools: string[];
  /** The conversation of its last model request: the state a core file keeps. */
  messages: ChatMessage[];
  /** Whose it is: only this user (or root) reads its trace and core. */
  readonly uid: number;
}

/** What an agent that ended with an exceptional code (>= CORE_EXIT_MIN) left: /aos/cores/<id>/. */
export interface AgentCore {
  /** `<pid>_<YYYYMMDD>_<HHMMSS>`, as /aos/cores names it. */
  readonly id: string;
  readonly pid: number;
  readonly uid: number;
  readonly agent: string;
  readonly model: string;
  readonly exit: AgentExitInfo;
  readonly started: number;
  readonly ended: number;
  readonly budget: Budget;
  readonly trace: string[];
  /** The last conversation the model saw. */
  readonly messages: ChatMessage[];
}

/** Cores kept, oldest dropped first: a guest that crashes agents in a loop cannot fill the kernel's memory. */
const MAX_CORES = 100;

type TraceListener = (pid: number, line: string) => void;

export class AgentTable {
  private readonly procs = new Map<number, AgentProc>();
  private readonly listeners = new Set<TraceListener>();
  /** Core files by id, oldest first (kernel/agent/exit.ts writes them). */
  readonly cores = new Map<string, AgentCore>();
  /** Every agent's model spend since boot (/aos/system/spend). */
  readonly spent = { usd: 0, tokens: 0 };

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
    for (let p = this.procs.get(pid) ?? null; p; p = p.parent) out.push(p);
    return out;
  }

  addCore(c: AgentCore): void {
    this.cores.set(c.id, c);
    for (const id of this.cores.keys()) {
      if (this.cores.size <= MAX_CORES) break;
      this.cores.delete(id);
    }
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

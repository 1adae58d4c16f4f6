// The `agent` syscall family (kernel/agent/sys.ts): how a process becomes an
// agent, asks the kernel's model service for one model turn, and reports how
// it ended. Budgets, spend and the trace are the kernel's: a process states
// what it wants; the kernel decides what it gets and records what happened.

import type { AgentExitName, AgentStatus, ModelReply, ModelRequest } from './agent.js';

/** What a process asks for when it becomes an agent. */
export interface AgentSpec {
  /** Its config's name under /etc/aos/agents.d, or '' for an ad-hoc agent. */
  agent: string;
  /** `mock`, `mock:<script path>`, `<backend>:<model>`, or a model named in /etc/aos/models.yaml. */
  model: string;
  /** USD; absent: the operator's default. Never more than the parent agent's remaining. */
  budgetUsd?: number;
  /** Tokens; absent: no limit of its own (the parent's remaining still holds). */
  tokens?: number;
  /** The tools it may offer the model; never more than its parent agent's. */
  tools: string[];
  /** Record every model call (`aos run --record`): the lines come from `record`. */
  record?: boolean;
  /** Answer every model call from this record (`aos replay`); `verify`: stop at the first DIFF, kept for `verdict`. */
  replay?: { text: string; verify?: boolean };
}

export interface AgentBudgetInfo {
  /** -1: no limit. */
  limitUsd: number;
  spentUsd: number;
  tokensLimit: number;
  tokensUsed: number;
}

export interface AgentExitReport {
  code: number;
  name: string;
  reason: string;
}

/** One agent process as the kernel records it. */
export interface AgentInfo {
  pid: number;
  ppid: number;
  /** The nearest ancestor that is an agent (its spend includes this one's), 0 for none. */
  parent: number;
  agent: string;
  model: string;
  status: AgentStatus;
  tools: string[];
  budget: AgentBudgetInfo;
  exit: AgentExitReport | null;
  started: number;
  /** Events in its trace so far: a reader knows whether there is more to read without reading it. */
  events: number;
}

/** A model turn's outcome: the reply, or why the service refused or failed it (the agent's exit). */
export type ModelResult = { ok: true; reply: ModelReply } | { ok: false; exit: AgentExitName; reason: string };

/** What one call would cost at most, from the pricing table. */
export interface ModelEstimate {
  model: string;
  inputTokens: number;
  outputTokens: number;
  usd: number;
}

/** The operations of agent(op, ...): what each takes after `op` and answers. */
export interface AgentOps {
  begin: { args: [spec: AgentSpec]; result: AgentInfo };
  call: { args: [request: ModelRequest]; result: ModelResult };
  estimate: { args: [request: ModelRequest]; result: ModelEstimate };
  /** The calling agent's own exit report (the kernel keeps the real exit status). */
  exit: { args: [code: number, name: string, reason: string]; result: 0 };
  /** One agent (pid > 0) or all (pid 0). */
  list: { args: [pid: number]; result: AgentInfo[] };
  /** Until agent `pid` has exited: its exit. */
  wait: { args: [pid: number]; result: AgentExitReport };
  /** Agent `pid`'s trace, JSON lines from `from` on (its user or root only). */
  trace: { args: [pid: number, from?: number]; result: string[] };
  /** The cores of agent `pid` (0: all) its caller may read, as JSON texts (meta, exit, budget, trace, messages). */
  cores: { args: [pid: number]; result: string[] };
  /** The calling agent's record lines since the last `record` (it began with `record`). */
  record: { args: []; result: string[] };
  /** The calling agent's replay verdict: MATCH or the first DIFF (it began with `replay.verify`). */
  verdict: { args: []; result: { match: boolean; text: string } };
}

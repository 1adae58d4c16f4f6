// The kernel's model service: a process becomes an agent (its budget never
// more than its parent agent's remaining), and each model turn is charged in
// advance at its most (the request's bytes as input tokens — a token is at
// least a byte — plus max_tokens of output, at the operator's prices) up the
// whole chain of agent ancestors, refused before it could exceed any of their
// limits, then settled with the real usage (never above what was reserved).
// The trace is written here from the calls alone: each request carries the
// previous turn's tool results, each reply the next tool calls. Nothing of
// budget, spend or trace is the process's to write.

import type { AgentExitName, ChatMessage, ModelReply, ModelRequest, ToolCall, ToolSpec } from '../../abi/agent.js';
import type { AgentInfo, AgentSpec, ModelEstimate, ModelResult } from '../../abi/agent-sys.js';
import { Errno, SysError } from '../../abi/errno.js';
import type { Kernel } from '../kernel.js';
import type { Process } from '../process.js';
import { BackendError } from './backend.js';
import { backendFor, hasBackend } from './backends.js';
import { kernelBackendIO } from './io.js';
import { agentCeiling, costUsd, modelTable, priceOf, type ModelPrice } from './pricing.js';
import { runBackend, setRunMode } from './runmode.js';
import type { AgentProc } from './table.js';

/** The tools `aos` knows; an agent offers the model a subset. */
export const TOOL_NAMES = ['bash', 'read_file', 'write_file', 'edit_file', 'list_dir', 'spawn_agent', 'wait', 'ask_human'];

/** A trace line keeps at most this much of a text (a tool's output, a reply): the trace is kernel memory. */
const TRACE_TEXT_MAX = 16 * 1024;

const enc = new TextEncoder();
const clip = (s: string) => (s.length > TRACE_TEXT_MAX ? `${s.slice(0, TRACE_TEXT_MAX)}…[${s.length - TRACE_TEXT_MAX} more]` : s);
const round = (usd: number) => Math.round(usd * 1e9) / 1e9;

function remaining(a: AgentProc): { usd: number; tokens: number } {
  return { usd: a.budget.limitUsd - a.budget.spentUsd, tokens: a.budget.tokensLimit - a.budget.tokensUsed };
}

export function info(a: AgentProc): AgentInfo {
  const b = a.budget;
  const lim = (n: number) => (Number.isFinite(n) ? n : -1);
  return {
    pid: a.pid, ppid: a.ppid, parent: a.parent?.pid ?? 0, agent: a.agent, model: a.model, status: a.status, tools: a.tools,
    budget: { limitUsd: lim(b.limitUsd), spentUsd: round(b.spentUsd), tokensLimit: lim(b.tokensLimit), tokensUsed: b.tokensUsed },
    exit: a.exit ? { ...a.exit, name: String(a.exit.name) } : null,
    started: a.started, events: a.trace.length,
  };
}

function positive(v: unknown, what: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !(v >= 0)) throw new SysError(Errno.EINVAL, `agent: ${what} must be a number >= 0`);
  return v;
}

/** begin: the calling process becomes an agent, once. */
export function begin(k: Kernel, p: Process, spec: AgentSpec): AgentInfo {
  if (k.agents.get(p.pid)) throw new SysError(Errno.EBUSY, 'agent: this process is an agent already');
  const model = typeof spec.model === 'string' ? spec.model : '';
  const name = typeof spec.agent === 'string' ? spec.agent : '';
  if (!model || model.length > 4096) throw new SysError(Errno.EINVAL, 'agent: no model');
  if (name.length > 255 || name.includes('/')) throw new SysError(Errno.EINVAL, 'agent: bad agent name');
  const table = modelTable(k);
  const price = priceOf(table, model);
  if (!hasBackend(price.backend)) throw new SysError(Errno.EINVAL, `model ${model}: no backend named ${price.backend}`);
  // Inherited at spawn and kept through reparenting: a double fork does not leave the budget behind.
  const parent = p.agentScope;
  const asked = positive(spec.budgetUsd, 'budgetUsd');
  const askedTokens = positive(spec.tokens, 'tokens');
  const wanted = Array.isArray(spec.tools) ? spec.tools.filter((t): t is string => typeof t === 'string') : [];
  // A top-level agent: what it asks, up to the operator's cap per agent.
  let limitUsd = Math.min(asked ?? (parent ? Infinity : table.defaultBudgetUsd), table.maxBudgetUsd);
  let tokensLimit = askedTokens ?? Infinity;
  let tools = wanted.filter((t) => TOOL_NAMES.includes(t));
  // The process's capabilities (aosctl restrict, inherited from whoever started it) bound its tools too.
  const capTools = p.caps?.r.tools;
  if (capTools) tools = tools.filter((t) => capTools.includes(t));
  const ceiling = agentCeiling(k, name);
  if (ceiling) {
    // The operator's config for this agent name is a ceiling, whatever the process asked.
    limitUsd = Math.min(limitUsd, ceiling.budgetUsd);
    if (ceiling.tools) tools = tools.filter((t) => ceiling.tools!.includes(t));
  }
  if (parent) {
    // Never wider than the parent: its remaining money and tokens, its tools.
    const r = remaining(parent);
    limitUsd = Math.min(limitUsd, Math.max(0, r.usd));
    tokensLimit = Math.min(tokensLimit, Math.max(0, r.tokens));
    tools = tools.filter((t) => parent.tools.includes(t));
  }
  const a: AgentProc = {
    pid: p.pid, ppid: p.ppid, agent: name, model, status: 'running',
    budget: { limitUsd, spentUsd: 0, tokensLimit, tokensUsed: 0 },
    trace: [], intents: new Map(), exit: null, started: Date.now(), parent, tools: [...new Set(tools)], messages: [], uid: p.uid,
  };
  setRunMode(a, spec.record, spec.replay);
  k.agents.add(a);
  p.agentScope = a;
  k.agents.record(p.pid, { type: 'start', proc_started: p.startMs, agent: name, model, parent: parent?.pid ?? 0, limit_usd: Number.isFinite(limitUsd) ? limitUsd : null, tools: a.tools });
  return info(a);
}

// ---- requests ------------------------------------------------------------

function isObj(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array);
}

function checkMessage(m: unknown, i: number): ChatMessage {
  if (!isObj(m) || typeof m.content !== 'string') throw new SysError(Errno.EINVAL, `agent: message ${i} needs a role and a string content`);
  switch (m.role) {
    case 'user':
      return { role: 'user', content: m.content };
    case 'assistant': {
      const calls = Array.isArray(m.toolCalls) ? m.toolCalls.map((c, j) => checkCall(c, `message ${i} call ${j}`)) : undefined;
      return calls ? { role: 'assistant', content: m.content, toolCalls: calls } : { role: 'assistant', content: m.content };
    }
    case 'tool':
      if (typeof m.toolCallId !== 'string' || typeof m.name !== 'string') throw new SysError(Errno.EINVAL, `agent: message ${i}: a tool result needs toolCallId and name`);
      return { role: 'tool', toolCallId: m.toolCallId, name: m.name, content: m.content, ...(m.isError === true ? { isError: true } : {}) };
    default:
      throw new SysError(Errno.EINVAL, `agent: message ${i}: unknown role`);
  }
}

function checkCall(c: unknown, what: string): ToolCall {
  if (!isObj(c) || typeof c.id !== 'string' || typeof c.name !== 'string' || !isObj(c.arguments)) throw new SysError(Errno.EINVAL, `agent: ${what}: bad tool call`);
  return { id: c.id, name: c.name, arguments: c.arguments as ToolCall['arguments'] };
}

function checkTool(t: unknown, i: number): ToolSpec {
  if (!isObj(t) || typeof t.name !== 'string' || typeof t.description !== 'string' || !isObj(t.parameters)) throw new SysError(Errno.EINVAL, `agent: tool ${i}: needs name, description, parameters`);
  return { name: t.name, description: t.description, parameters: t.parameters as ToolSpec['parameters'] };
}

/** The request as the kernel will send it: checked field by field, the model the agent's own. */
function checkRequest(raw: unknown, model: string, price: ModelPrice): ModelRequest {
  if (!isObj(raw)) throw new SysError(Errno.EINVAL, 'agent: want a request object');
  if (!Array.isArray(raw.messages) || raw.messages.length === 0) throw new SysError(Errno.EINVAL, 'agent: a request needs messages');
  const maxTokens = raw.maxTokens;
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) throw new SysError(Errno.EINVAL, 'agent: maxTokens must be a positive integer');
  if (maxTokens > price.maxOutputTokens) throw new SysError(Errno.EINVAL, `agent: maxTokens above the model's ${price.maxOutputTokens}`);
  return {
    model,
    ...(typeof raw.system === 'string' ? { system: raw.system } : {}),
    messages: raw.messages.map(checkMessage),
    tools: Array.isArray(raw.tools) ? raw.tools.map(checkTool) : [],
    maxTokens,
  };
}

/** At most what `req` can cost: every byte of it an input token, and max_tokens of output. */
function bound(req: ModelRequest, price: ModelPrice): ModelEstimate {
  const inputTokens = enc.encode(JSON.stringify({ s: req.system ?? '', m: req.messages, t: req.tools })).byteLength;
  return { model: req.model, inputTokens, outputTokens: req.maxTokens, usd: costUsd(price, inputTokens, req.maxTokens) };
}

export function estimate(k: Kernel, p: Process, raw: unknown): ModelEstimate {
  const model = k.agents.get(p.pid)?.model ?? (isObj(raw) && typeof raw.model === 'string' ? raw.model : '');
  const price = priceOf(modelTable(k), model);
  return bound(checkRequest(raw, model, price), price);
}

/** The tool results this request brings since the last reply: the trace's tool_result events. */
function recordResults(k: Kernel, pid: number, messages: ChatMessage[]): void {
  let i = messages.length;
  while (i > 0 && messages[i - 1].role === 'tool') i--;
  for (const m of messages.slice(i)) {
    if (m.role === 'tool') k.agents.record(pid, { type: 'tool_result', id: m.toolCallId, name: m.name, content: clip(m.content), is_error: m.isError === true });
  }
}

const EXIT_OF: Record<BackendError['kind'], AgentExitName> = {
  rate_limited: 'RATE_LIMITED', upstream: 'UPSTREAM_FAILURE', timeout: 'TIMEOUT', ctx_overflow: 'CTX_OVERFLOW', invalid: 'INVALID_INPUT',
};

/**
 * call: one model turn. Synchronous checks (the request, the budget, the
 * reservation) happen before anything is sent; the promise settles the
 * reservation whatever the backend does.
 */
export function call(k: Kernel, p: Process, raw: unknown, signal: AbortSignal): Promise<ModelResult> {
  const a = k.agents.get(p.pid);
  if (!a || a.exit) throw new SysError(Errno.EPERM, 'agent: not an agent process (agent begin first)');
  const table = modelTable(k);
  const price = priceOf(table, a.model);
  const backend = runBackend(a, () => backendFor(k, price));
  const req = checkRequest(raw, a.model, price);
  recordResults(k, p.pid, req.messages);
  a.messages = req.messages;
  const refuse = (exit: AgentExitName, reason: string): Promise<ModelResult> => {
    k.agents.record(p.pid, { type: 'refused', exit, reason });
    return Promise.resolve({ ok: false, exit, reason });
  };
  const offered = req.tools.find((t) => !a.tools.includes(t.name));
  if (offered) return refuse('REFUSED', `tool ${offered.name} is not among this agent's tools (${a.tools.join(', ') || 'none'})`);
  const max = bound(req, price);
  const tokens = max.inputTokens + max.outputTokens;
  const chain = k.agents.chain(p.pid);
  for (const c of chain) {
    const r = remaining(c);
    if (max.usd > r.usd || tokens > r.tokens) {
      const who = c === a ? 'its' : `agent ${c.pid}'s`;
      return refuse('BUDGET_EXHAUSTED', `this call could cost $${round(max.usd)} (${tokens} tokens), more than ${who} remaining $${round(Math.max(0, r.usd))} (${Number.isFinite(r.tokens) ? r.tokens : 'unlimited'} tokens)`);
    }
  }
  const sys = k.agents.spent;
  if (max.usd > table.systemBudgetUsd - sys.usd) return refuse('BUDGET_EXHAUSTED', `this call could cost $${round(max.usd)}, more than the system's remaining $${round(Math.max(0, table.systemBudgetUsd - sys.usd))} (system_budget_usd)`);
  for (const c of chain) {
    c.budget.spentUsd += max.usd;
    c.budget.tokensUsed += tokens;
  }
  sys.usd += max.usd;
  sys.tokens += tokens;
  k.agents.record(p.pid, { type: 'model_call', model: a.model, messages: req.messages.length, tools: req.tools.map((t) => t.name), max_tokens: req.maxTokens, reserved_usd: round(max.usd) });
  const settle = (usd: number, used: number) => {
    for (const c of chain) {
      c.budget.spentUsd += usd - max.usd;
      c.budget.tokensUsed += used - tokens;
    }
    sys.usd += usd - max.usd;
    sys.tokens += used - tokens;
  };
  let sent: Promise<ModelReply>;
  try {
    sent = backend.complete(req, kernelBackendIO(k, p.pid, signal));
  } catch (e) {
    sent = Promise.reject(e);
  }
  return sent.then(
    (reply) => {
      // A provider's count above the bound is not believed past the bound: the reservation holds.
      const input = Math.min(Math.max(0, Math.floor(reply.usage.inputTokens) || 0), max.inputTokens);
      const output = Math.min(Math.max(0, Math.floor(reply.usage.outputTokens) || 0), max.outputTokens);
      const usd = costUsd(price, input, output);
      settle(usd, input + output);
      const calls = reply.toolCalls.map((c, i) => ({ id: String(c.id || `call_${i}`), name: String(c.name), arguments: c.arguments ?? {} }));
      const clean: ModelReply = { text: String(reply.text ?? ''), toolCalls: calls, usage: { inputTokens: input, outputTokens: output }, stopReason: reply.stopReason };
      k.agents.record(p.pid, { type: 'model_reply', text: clip(clean.text), stop_reason: clean.stopReason, input_tokens: input, output_tokens: output, cost_usd: round(usd) });
      for (const c of calls) {
        const args = JSON.stringify(c.arguments);
        k.agents.record(p.pid, { type: 'tool_call', id: c.id, name: c.name, arguments: args.length > TRACE_TEXT_MAX ? clip(args) : c.arguments });
      }
      return { ok: true as const, reply: clean };
    },
    (e: unknown) => {
      settle(0, 0);
      const exit = e instanceof BackendError ? EXIT_OF[e.kind] : 'UPSTREAM_FAILURE';
      const reason = e instanceof Error ? e.message : String(e);
      k.agents.record(p.pid, { type: 'model_error', exit, reason: clip(reason) });
      return { ok: false as const, exit, reason };
    },
  );
}

/** An agent's trace or core, for its own user or root only: they hold its conversation. */
export function mayRead(p: Process, uid: number): void {
  if (p.uid !== 0 && p.uid !== uid) throw new SysError(Errno.EACCES, 'agent: another user\'s agent');
}

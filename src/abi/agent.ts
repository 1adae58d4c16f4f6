// The agent layer's contract (docs/agents.md): the provider-neutral
// conversation that an agent process and the kernel's model service speak,
// the statuses an agent process shows, and its exit codes. Backends
// (kernel/agent/backend.ts) translate this to and from each provider's wire
// format; nothing here names a provider.

/** A JSON value as tools take and give it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One tool the model may call: a name, what it does, and its arguments' JSON Schema. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: { [key: string]: Json };
}

/** A tool call the model asked for; `id` pairs it with its result. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: { [key: string]: Json };
}

/** One message of a conversation. A tool result answers the call of the same id. */
export type ChatMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError?: boolean };

/** One model turn asked of the kernel's model service. */
export interface ModelRequest {
  /** `mock`, or `<backend>:<model>` / a model name the operator's config maps to a backend. */
  model: string;
  system?: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  /** Upper bound of the reply's tokens; the budget check charges it in advance. */
  maxTokens: number;
}

export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
}

/** The model's answer to one request: text, tool calls (none = the run is done), and what it cost. */
export interface ModelReply {
  text: string;
  toolCalls: ToolCall[];
  usage: ModelUsage;
  stopReason: 'end' | 'tool_use' | 'max_tokens';
}

/** What /aos/procs/<pid>/status shows. */
export type AgentStatus = 'running' | 'waiting_human' | 'waiting_child' | 'paused' | 'exited';

/**
 * Exit codes of an agent process. 0–63 as any program; 64–95 are routine
 * resource limits (retry, add budget, wait); 96 and up are exceptional and
 * leave a core file (the trace and last state) under /aos/cores/.
 */
export const AgentExit = {
  SUCCESS: 0,
  FAILURE: 1,
  INVALID_INPUT: 2,
  BUDGET_EXHAUSTED: 64,
  RATE_LIMITED: 65,
  TIMEOUT: 66,
  QUEUE_FULL: 67,
  VELOCITY_EXCEEDED: 68,
  REFUSED: 96,
  CTX_OVERFLOW: 97,
  UPSTREAM_FAILURE: 98,
} as const;

export type AgentExitName = keyof typeof AgentExit;

/** The first exit code that leaves a core file. */
export const CORE_EXIT_MIN = 96;

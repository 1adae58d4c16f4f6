// The `aosctl` syscall (kernel/agent/aosctl.ts): the kernel calls behind
// /aos that are not file I/O. A process narrows its own capabilities (never
// widens them: every descendant inherits them), an agent asks before running
// a tool its policy marks `ask`, and the operator decides intents and answers
// questions on /aos/channels/human.

import type { ToolCall } from './agent.js';

/**
 * A process's capabilities beyond the VM policy. Absent fields do not
 * restrict. `restrict` intersects what is asked with what the process has:
 * lists shrink to their intersection, prefixes and `network: 'none'` add up.
 */
export interface Restriction {
  /** Agent tools it may offer the model (bash, read_file, ...). */
  tools?: string[];
  /** Commands it may run, by path, as the VM policy's processes.allow. */
  commands?: string[];
  /** Path prefixes it may read but never change (EROFS). */
  readOnly?: string[];
  /** Path prefixes that do not exist for it (ENOENT). */
  hidden?: string[];
  /** 'none': no network of its own (the http syscall fails EACCES). */
  network?: 'none';
}

/** An intent as /aos/procs/<pid>/intents/pending and `aos approve` see it. */
export interface IntentInfo {
  /** The approval request's id: what `aos approve ID` names. */
  id: number;
  pid: number;
  tool: string;
  arguments: ToolCall['arguments'];
  time: number;
}

/** A question written to /aos/channels/human, waiting for a person's answer. */
export interface HumanQuestion {
  id: number;
  pid: number;
  uid: number;
  question: string;
  time: number;
}

/** The operations of aosctl(op, ...): what each takes after `op` and answers. */
export interface AosOps {
  /** Narrow the caller's capabilities; → what it has now. `{}` only reads them. */
  restrict: { args: [r: Restriction]; result: Restriction };
  /** Before running tool `call` that the agent's policy marks `ask`: wait for a person's decision. */
  ask: { args: [call: ToolCall]; result: 'allow' | 'deny' };
  /** Decide intent `id` (root, outside every agent's tree). */
  decide: { args: [id: number, approve: boolean, reason: string]; result: 0 };
  /** Answer question `id` of /aos/channels/human (root, outside every agent's tree). */
  answer: { args: [id: number, text: string]; result: 0 };
  /** The intents waiting (all, or one process's) and the questions waiting. */
  pending: { args: [pid: number]; result: { intents: IntentInfo[]; questions: HumanQuestion[] } };
}

/** Action files (inbox) take at most this much per message (EFBIG beyond). */
export const AOS_MESSAGE_MAX = 64 * 1024;

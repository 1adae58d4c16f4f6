// The contract between the sandbox page (sandbox.html → src/ui/sandbox.ts) and
// what drives it: BrowserVM (Node, through Playwright), to which the page
// offers it as `window.agentos`, and FrameVM (the page that embeds the sandbox
// in a frame of another origin), by postMessage. Everything crosses
// page.evaluate as JSON, so bytes travel as base64; errors come back as values
// (Playwright would wrap a thrown one in its own text).

import type { Value } from '../../abi/codec.js';
import type { AuditEvent, Policy } from '../api/agent-vm.js';
import type { AgentRunOptions, AgentRunResult } from '../api/agents.js';
import type { DirEntry } from '../api/list-directory.js';
import type { JobInfo, JobOutput, JobStartOptions, JobStatus } from '../api/jobs.js';
import type { NetworkPolicy } from '../../api/policy.js';
import type { Answer, ApprovalRequest, SnapshotInfo } from '../../api/types.js';

export interface SandboxStart {
  persist?: string;
  env?: Record<string, string>;
  cwd?: string;
  policy?: Policy;
  network?: NetworkPolicy;
  /** Ask the Node side (APPROVAL_BINDING) when a policy rule says `ask`. */
  approvals?: boolean;
}

/** Base64 of stdin, output and file contents. */
export type B64 = string;

export interface WireExecOptions {
  stdin?: B64;
  timeoutMs?: number;
  cwd?: string;
  env?: Record<string, string>;
}

export interface WireExecResult {
  stdout: B64;
  stderr: B64;
  exitCode: number;
  timedOut: boolean;
  truncated?: boolean;
}

export interface WireRunResult {
  stdout: B64;
  stderr: B64;
  status: number;
  exitCode: number;
  signal: number | null;
}

/** The methods of `window.agentos` on the sandbox page. */
export interface SandboxApi {
  start(o: SandboxStart): Promise<void>;
  exec(cmd: string, o: WireExecOptions): Promise<WireExecResult>;
  run(argv: string[], o: WireExecOptions & { uid?: number; gid?: number }): Promise<WireRunResult>;
  readFile(path: string): Promise<B64>;
  listDirectory(path: string): Promise<DirEntry[]>;
  /** mode null: a new file 0644, an existing one keeps its mode. */
  writeFile(path: string, data: B64, mode: number | null): Promise<void>;
  sync(): Promise<void>;
  audit(): Promise<AuditEvent[]>;
  snapshot(name: string): Promise<SnapshotInfo>;
  restore(name: string): Promise<void>;
  snapshotList(): Promise<SnapshotInfo[]>;
  snapshotDelete(name: string): Promise<void>;
  snapshotExport(name: string): Promise<B64>;
  snapshotImport(name: string, file: B64): Promise<SnapshotInfo>;
  /** Forward `output` or `audit` events through EVENT_BINDING (on) or stop (off). */
  listen(kind: 'output' | 'audit', on: boolean): Promise<void>;
  openTerminal(o: { cols?: number; rows?: number; argv?: string[]; cwd?: string; env?: Record<string, string> }): Promise<number>;
  termWrite(id: number, data: B64): Promise<void>;
  termResize(id: number, cols: number, rows: number): Promise<void>;
  termClose(id: number): Promise<void>;
  jobStart(cmd: string, o: JobStartOptions): Promise<number>;
  jobOutput(id: number, cursor: number): Promise<JobOutput>;
  jobWait(id: number, o: { timeoutMs?: number }): Promise<JobStatus>;
  jobKill(id: number, signal: string | number): Promise<void>;
  jobList(): Promise<JobInfo[]>;
  /** A host-level syscall, as init (strings and numbers in and out through Playwright). */
  syscall(name: string, args: Value[]): Promise<Value>;
  /** vm.agents.run in the page: the agent's pid; its result is kept for agentWait. */
  agentRun(prompt: string, o: AgentRunOptions): Promise<number>;
  /** The result of an agent agentRun started (once: then forgotten). */
  agentWait(pid: number): Promise<AgentRunResult>;
  stop(): Promise<void>;
}

export type SandboxMethod = keyof SandboxApi;

export type Reply<T> = { ok: true; value: T } | { ok: false; message: string; code?: string };

/** `window.agentos.call(method, args)`: every method, its failure as a Reply. */
export interface SandboxWindow {
  call<M extends SandboxMethod>(method: M, args: Parameters<SandboxApi[M]>): Promise<Reply<Awaited<ReturnType<SandboxApi[M]>>>>;
}

/** Page → Node events (a Playwright binding on the BrowserVM's context). */
export const EVENT_BINDING = '__agentosEvent';
export type SandboxEvent =
  | { type: 'output'; stream: 'stdout' | 'stderr'; data: B64 }
  | { type: 'audit'; event: AuditEvent }
  | { type: 'term-data'; id: number; data: B64 }
  | { type: 'term-exit'; id: number; code: number };

/** Page → Node: an approval request, answered by the BrowserVM's onApproval. */
export const APPROVAL_BINDING = '__agentosApprove';
export type { ApprovalRequest, Answer };

/** The path of the sandbox page inside the built app. */
export const SANDBOX_PAGE = 'sandbox.html';

/**
 * In a frame: the sandbox page's query parameter naming the embedding page's
 * origin, the only one it takes messages from and sends messages to.
 */
export const EMBEDDER_PARAM = 'embedder';

/** Embedder → frame. */
export type FrameRequest =
  | { agentos: 'call'; id: number; method: SandboxMethod; args: unknown[] }
  | { agentos: 'answer'; id: number; answer: Answer };

/** Frame → embedder: `ready` once it listens; replies, events, and approval requests (answered by `answer`). */
export type FrameMessage =
  | { agentos: 'ready' }
  | { agentos: 'reply'; id: number; reply: Reply<unknown> }
  | { agentos: 'event'; event: SandboxEvent }
  | { agentos: 'ask'; id: number; request: ApprovalRequest };

// atob/btoa exist in browsers and Node alike; chunks keep fromCharCode's argument list short.
export function toBase64(b: Uint8Array): B64 {
  let s = '';
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return btoa(s);
}

export function fromBase64(s: B64): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

const enc = new TextEncoder();
export const bytesOf = (d: Uint8Array | string): Uint8Array => (typeof d === 'string' ? enc.encode(d) : d);

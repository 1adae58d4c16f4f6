// A model backend: turns a provider-neutral ModelRequest (abi/agent.ts) into
// one provider's request, sends it through the kernel's own HTTP path (so the
// network policy, approvals, host-held secrets and the audit trail apply as to
// any guest request), and reads the reply back. Backends never see budgets or
// traces: the model service (kernel/agent/) charges and records around them.

import type { ModelReply, ModelRequest } from '../../abi/agent.js';
import type { HttpRequest } from '../../abi/http.js';

/** A response whose body the backend reads as it arrives (SSE streams). */
export interface BackendResponse {
  status: number;
  headers: [string, string][];
  /** The body in chunks; ends at EOF, throws on a transport failure mid-body. */
  body: AsyncIterable<Uint8Array>;
}

/** What the kernel lends a backend for one call. */
export interface BackendIO {
  /** One HTTP request as `pid` would make it (policy, approvals, secrets, audit). */
  http(req: Omit<HttpRequest, 'bodyFd'>): Promise<BackendResponse>;
  /** Read a file of the VM as the calling process (the mock backend's script). */
  readFile(path: string): Uint8Array;
  /** Ends when the calling process is signalled or killed. */
  signal: AbortSignal;
}

/** Why a model call failed, mapped to the agent's exit code by the service. */
export class BackendError extends Error {
  constructor(
    readonly kind: 'rate_limited' | 'upstream' | 'timeout' | 'ctx_overflow' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

export interface Backend {
  /** The name `model` strings select it by (`mock`, `openai`, `anthropic`). */
  readonly name: string;
  complete(req: ModelRequest, io: BackendIO): Promise<ModelReply>;
}

// What the provider backends share: one JSON POST through the BackendIO, with
// retries. 429 and 5xx (and transport failures before any reply) are retried
// with exponential backoff, or after the server's `retry-after` (seconds or
// an HTTP date), a bounded number of times; what is left when the attempts run
// out is the last failure's kind. Other 4xx are not retried: a context-length
// error is `ctx_overflow`, the rest `invalid`. A policy denial (EACCES) is the
// network policy's own error, passed through untouched.

import { Errno, SysError } from '../../../abi/errno.js';
import { BackendError, type BackendIO, type BackendResponse } from '../backend.js';

export interface RetryPolicy {
  /** Requests in all, the first included. */
  attempts: number;
  /** The first backoff; each retry doubles it (a random half of it is jitter). */
  baseMs: number;
  /** No wait is longer, whatever the backoff or the server's retry-after says. */
  maxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseMs: 500, maxMs: 30_000 };

/** How a provider backend is reached; every field has a default per provider. */
export interface ProviderConfig {
  /** Up to the API version's path (`https://api.openai.com/v1`, `https://api.anthropic.com/v1`). */
  baseUrl?: string;
  /** Sent as given in `keyHeader` (the kernel substitutes a host-held secret's placeholder in it). */
  apiKey?: string;
  /** The header carrying the key; for `authorization` the value is `Bearer <apiKey>`. */
  keyHeader?: string;
  /** More request headers, as given. */
  headers?: [string, string][];
  retry?: Partial<RetryPolicy>;
  /** The whole transfer of one attempt, headers and stream (0 = none). */
  timeoutMs?: number;
  /** How the backend waits between attempts (tests pass one that records the delay and returns at once). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Failures of the kernel's request that no retry can change. */
const FINAL: ReadonlySet<number> = new Set([Errno.EACCES, Errno.EINTR, Errno.ENETUNREACH]);

/** The longest error body read for its message. */
const ERROR_BODY_MAX = 64 * 1024;

export function keyHeaders(cfg: ProviderConfig, defaultHeader: string): [string, string][] {
  const out: [string, string][] = [['content-type', 'application/json'], ['accept', 'text/event-stream']];
  if (cfg.apiKey !== undefined) {
    const name = (cfg.keyHeader ?? defaultHeader).toLowerCase();
    out.push([name, name === 'authorization' ? `Bearer ${cfg.apiKey}` : cfg.apiKey]);
  }
  return [...out, ...(cfg.headers ?? [])];
}

/** The model's name for the provider: `openai:gpt-4o` → `gpt-4o`. */
export function providerModel(model: string, backend: string): string {
  return model.startsWith(`${backend}:`) ? model.slice(backend.length + 1) : model;
}

/** Tells a provider's error reply that the conversation no longer fits the model's context. */
export type OverflowTest = (status: number, body: string) => boolean;

/** POST `body` to `url` until a 2xx response (its stream still unread) or a failure that is final. */
export async function postWithRetry(io: BackendIO, cfg: ProviderConfig, url: string, headers: [string, string][], body: unknown, overflow: OverflowTest): Promise<BackendResponse> {
  const retry = { ...DEFAULT_RETRY, ...cfg.retry };
  const sleep = cfg.sleep ?? wait;
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  for (let attempt = 1; ; attempt++) {
    aborted(io.signal);
    let failure: BackendError;
    let after: number | null = null;
    try {
      const res = await io.http({ method: 'POST', url, headers, body: bytes, timeoutMs: cfg.timeoutMs ?? 0 });
      if (res.status >= 200 && res.status < 300) return res;
      const text = await readText(res.body, ERROR_BODY_MAX);
      const detail = `${url}: HTTP ${res.status}${text ? `: ${errorMessage(text)}` : ''}`;
      if (res.status === 429) failure = new BackendError('rate_limited', detail);
      else if (res.status >= 500) failure = new BackendError('upstream', detail);
      else if (overflow(res.status, text)) throw new BackendError('ctx_overflow', detail);
      else throw new BackendError('invalid', detail);
      after = retryAfter(res.headers);
    } catch (e) {
      if (e instanceof BackendError) throw e;
      // The network policy said no, the host has no network, the process is going: not things to retry.
      if (e instanceof SysError && FINAL.has(e.errno)) throw e;
      aborted(io.signal);
      const message = e instanceof Error ? e.message : String(e);
      failure = new BackendError(e instanceof SysError && e.errno === Errno.ETIMEDOUT ? 'timeout' : 'upstream', `${url}: ${message}`);
    }
    if (attempt >= retry.attempts) {
      throw new BackendError(failure.kind, `${failure.message} (after ${attempt} attempt${attempt === 1 ? '' : 's'})`);
    }
    const backoff = retry.baseMs * 2 ** (attempt - 1);
    const delay = Math.min(retry.maxMs, after ?? backoff / 2 + Math.random() * (backoff / 2));
    await sleep(delay, io.signal);
  }
}

/** The process was signalled or killed: the call ends now. */
function aborted(signal: AbortSignal): void {
  if (signal.aborted) throw new SysError(Errno.EINTR, 'model call interrupted');
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });
}

/** `retry-after` in milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfter(headers: [string, string][], now = Date.now()): number | null {
  const v = headers.find(([k]) => k.toLowerCase() === 'retry-after')?.[1].trim();
  if (!v) return null;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** A body's first `max` bytes as text (an error reply's). */
export async function readText(body: AsyncIterable<Uint8Array>, max: number): Promise<string> {
  const dec = new TextDecoder();
  let text = '';
  let n = 0;
  for await (const chunk of body) {
    text += dec.decode(chunk.subarray(0, Math.max(0, max - n)), { stream: true });
    n += chunk.byteLength;
    if (n >= max) break;
  }
  return text + dec.decode();
}

/** The provider's own words from a JSON error body (`{"error":{"message":…}}`), else the body's start. */
function errorMessage(text: string): string {
  try {
    const j = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof j.error === 'string' ? j.error : (j.error?.message ?? j.message);
    if (typeof m === 'string') return m;
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 500).trim();
}

// Replaying a record (record.ts): the `replay` backend answers each request
// with the recorded reply of the same hash, and never touches the network —
// its BackendIO is not used at all, so `aos replay` runs with network `none`.
// Verification reruns the agent against the record in order: each request
// must be the recorded one; the first that is not — a changed tool output in
// the conversation, a different prompt, a call too many or too few — is the
// DIFF (which call, which field, both values), and the rerun stops there.

import type { Json, ModelReply, ModelRequest } from '../../abi/agent.js';
import { BackendError, type Backend } from './backend.js';
import { canonical, requestHash, type RecordedCall } from './record.js';

export interface Diff {
  /** The call's number in the record (1-based). */
  call: number;
  /** Where the requests first differ (`messages[3].content`), or `(call)` when one run has no such call. */
  field: string;
  recorded: Json | undefined;
  replayed: Json | undefined;
}

export type Verdict = { match: true; calls: number } | { match: false; diff: Diff };

function answer(c: RecordedCall): ModelReply {
  if (c.error) throw new BackendError(c.error.kind, c.error.message);
  return JSON.parse(JSON.stringify(c.reply)) as ModelReply; // the caller may change its copy
}

/** Replies by request hash; equal requests get their recorded replies in order (the last one again after that). */
export function replayBackend(calls: RecordedCall[]): Backend {
  const byHash = new Map<string, RecordedCall[]>();
  for (const c of calls) byHash.set(c.hash, [...(byHash.get(c.hash) ?? []), c]);
  const served = new Map<string, number>();
  return {
    name: 'replay',
    async complete(req: ModelRequest): Promise<ModelReply> {
      const hash = requestHash(req);
      const list = byHash.get(hash);
      if (!list) throw new BackendError('invalid', `replay: the record has no reply for this request (sha256 ${hash})`);
      const i = served.get(hash) ?? 0;
      served.set(hash, i + 1);
      return answer(list[Math.min(i, list.length - 1)]);
    },
  };
}

/** The first difference between two canonical JSON values, depth first, arrays by index and objects by sorted key. */
export function firstDiff(a: Json | undefined, b: Json | undefined, path = ''): Omit<Diff, 'call'> | null {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = firstDiff(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (isObject(a) && isObject(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const d = firstDiff(a[k], b[k], path ? `${path}.${k}` : k);
      if (d) return d;
    }
    return null;
  }
  return JSON.stringify(a) === JSON.stringify(b) ? null : { field: path || '(request)', recorded: a, replayed: b };
}

function isObject(v: Json | undefined): v is { [key: string]: Json } {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Verification: `backend` answers the rerun's requests from the record, in
 * order, while they are the recorded ones; at the first that is not it fails
 * the call (BackendError `invalid`, so the rerun stops) and keeps the DIFF.
 */
export class ReplayVerifier {
  private next = 0;
  private diff: Diff | null = null;
  readonly backend: Backend;

  constructor(private readonly calls: RecordedCall[]) {
    this.backend = { name: 'replay', complete: async (req) => this.complete(req) };
  }

  private complete(req: ModelRequest): ModelReply {
    if (this.diff) throw new BackendError('invalid', 'replay: the rerun already differs from the record');
    const c = this.calls[this.next];
    const replayed = canonical(req);
    const d = c ? (requestHash(req) === c.hash ? null : firstDiff(canonical(c.request), replayed)) : { field: '(call)', recorded: undefined, replayed };
    if (d) {
      this.diff = { call: this.next + 1, ...d };
      throw new BackendError('invalid', `replay: ${formatVerdict(this.verdict())}`);
    }
    this.next++;
    return answer(c);
  }

  /** After the rerun ended, however it ended: MATCH, or the first DIFF (a recorded call never made is one). */
  verdict(): Verdict {
    if (this.diff) return { match: false, diff: this.diff };
    if (this.next < this.calls.length) return { match: false, diff: { call: this.next + 1, field: '(call)', recorded: canonical(this.calls[this.next].request), replayed: undefined } };
    return { match: true, calls: this.next };
  }
}

/** Rerun (`rerun` drives an agent with the backend it is given) against the record; its failures are part of the verdict. */
export async function verifyReplay(calls: RecordedCall[], rerun: (backend: Backend) => Promise<unknown>): Promise<Verdict> {
  const v = new ReplayVerifier(calls);
  try {
    await rerun(v.backend);
  } catch (e) {
    // The verifier's own stop, or the recorded failure replayed: the verdict says which.
    if (!(e instanceof BackendError)) throw e;
  }
  return v.verdict();
}

const show = (v: Json | undefined) => {
  if (v === undefined) return 'nothing';
  const s = JSON.stringify(v);
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
};

/** `MATCH (3 calls)` or `DIFF call 2 messages[3].content: recorded "…", replayed "…"`. */
export function formatVerdict(v: Verdict): string {
  if (v.match) return `MATCH (${v.calls} call${v.calls === 1 ? '' : 's'})`;
  const d = v.diff;
  if (d.field === '(call)') return d.replayed === undefined ? `DIFF call ${d.call}: recorded, but the rerun ended before it` : `DIFF call ${d.call}: the rerun made a call the record does not have`;
  return `DIFF call ${d.call} ${d.field}: recorded ${show(d.recorded)}, replayed ${show(d.replayed)}`;
}

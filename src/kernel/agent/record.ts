// A record of an agent's model calls (`aos run --record FILE`), JSON Lines:
//
//   {"type":"header","format":"aos-record","version":1}
//   {"type":"call","n":1,"hash":"<sha256>","request":{…},"toolResults":[…],"reply":{…}}
//   {"type":"call","n":2,"hash":"<sha256>","request":{…},"toolResults":[…],"error":{"kind":…,"message":…}}
//
// `request` is the provider-neutral ModelRequest canonicalised (object keys
// sorted at every depth, absent fields left out) and `hash` the SHA-256 of
// exactly that JSON text; `toolResults` are the request's last tool messages —
// the results of the previous reply's calls, which is what a rerun changes
// first; `reply` is the ModelReply, or `error` the BackendError that ended
// the call. Requests carry the conversation only: keys live in HTTP headers,
// which are not recorded.

import type { ChatMessage, Json, ModelReply, ModelRequest } from '../../abi/agent.js';
import { DIGESTS } from '../../common/digest.js';
import { BackendError, type Backend, type BackendIO } from './backend.js';

export const RECORD_FORMAT = 'aos-record';
export const RECORD_VERSION = 1;

export interface RecordedCall {
  n: number;
  hash: string;
  request: ModelRequest;
  toolResults: Extract<ChatMessage, { role: 'tool' }>[];
  reply?: ModelReply;
  error?: { kind: BackendError['kind']; message: string };
}

/** A JSON value with object keys sorted at every depth (undefined members dropped, as JSON.stringify does). */
export function canonical(v: unknown): Json {
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : canonical(x)));
  if (v && typeof v === 'object') {
    const out: { [key: string]: Json } = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) out[k] = canonical(x);
    }
    return out;
  }
  return v as Json;
}

/** The request's identity: SHA-256 (hex) of its canonical JSON. */
export function requestHash(req: ModelRequest): string {
  return DIGESTS.sha256.fn(new TextEncoder().encode(JSON.stringify(canonical(req))));
}

/** The tool messages at the end of a request: the previous reply's calls, answered. */
export function lastToolResults(req: ModelRequest): RecordedCall['toolResults'] {
  const out: RecordedCall['toolResults'] = [];
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const m = req.messages[i];
    if (m.role !== 'tool') break;
    out.unshift(m);
  }
  return out;
}

export function headerLine(): string {
  return JSON.stringify({ type: 'header', format: RECORD_FORMAT, version: RECORD_VERSION });
}

export function callLine(c: RecordedCall): string {
  return JSON.stringify({ type: 'call', ...canonical(c) as object });
}

/**
 * `inner`, recording each call as it completes: `write` gets the header line
 * first, then one line per call (each without its newline).
 */
export function recordingBackend(inner: Backend, write: (line: string) => void): Backend {
  let n = 0;
  let started = false;
  return {
    name: inner.name,
    async complete(req: ModelRequest, io: BackendIO): Promise<ModelReply> {
      if (!started) {
        started = true;
        write(headerLine());
      }
      const call: RecordedCall = { n: ++n, hash: requestHash(req), request: canonical(req) as unknown as ModelRequest, toolResults: lastToolResults(req) };
      try {
        call.reply = await inner.complete(req, io);
      } catch (e) {
        // A failure is part of the run (a rerun must meet it too); an interrupted call is not.
        if (e instanceof BackendError) write(callLine({ ...call, error: { kind: e.kind, message: e.message } }));
        throw e;
      }
      write(callLine(call));
      return call.reply;
    },
  };
}

/** A record's calls, checked: a clear error naming the line for anything else. */
export function parseRecord(text: string): RecordedCall[] {
  const lines = text.split('\n');
  const calls: RecordedCall[] = [];
  let header = false;
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const where = `record line ${i + 1}`;
    let v: Record<string, unknown>;
    try {
      v = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new BackendError('invalid', `${where}: not JSON`);
    }
    if (!v || typeof v !== 'object') throw new BackendError('invalid', `${where}: not a JSON object`);
    if (v.type === 'header') {
      if (v.format !== RECORD_FORMAT || v.version !== RECORD_VERSION) throw new BackendError('invalid', `${where}: not an ${RECORD_FORMAT} version ${RECORD_VERSION} record`);
      header = true;
      return;
    }
    if (!header) throw new BackendError('invalid', `${where}: the record has no header line`);
    if (v.type !== 'call') throw new BackendError('invalid', `${where}: unknown line type ${JSON.stringify(v.type)}`);
    const c = v as unknown as RecordedCall;
    if (c.n !== calls.length + 1) throw new BackendError('invalid', `${where}: call ${String(c.n)} out of order (want ${calls.length + 1})`);
    if (!c.request || typeof c.request !== 'object' || !Array.isArray(c.request.messages)) throw new BackendError('invalid', `${where}: no request`);
    if (requestHash(c.request) !== c.hash) throw new BackendError('invalid', `${where}: the request does not match its hash (edited?)`);
    if (JSON.stringify(canonical(c.toolResults)) !== JSON.stringify(canonical(lastToolResults(c.request)))) throw new BackendError('invalid', `${where}: toolResults are not the request's last tool messages`);
    if (!c.reply === !c.error) throw new BackendError('invalid', `${where}: a call has a reply or an error, one of them`);
    calls.push(c);
  });
  if (!header) throw new BackendError('invalid', 'record: empty (no header line)');
  return calls;
}

// Reading a provider's event stream to its end: a reply is whole only once the
// provider's terminal event has come. EOF before it, a transport failure
// mid-stream or an event that is not the JSON it should be is an `upstream`
// failure: the caller gets an error, never the half of an answer.

import type { Json } from '../../../abi/agent.js';
import { Errno, SysError } from '../../../abi/errno.js';
import { BackendError } from '../backend.js';
import { sseEvents, type SseEvent } from '../sse.js';

/** Feed each event to `take` until it returns true (the terminal event). */
export async function readStream(body: AsyncIterable<Uint8Array>, signal: AbortSignal, what: string, take: (e: SseEvent) => boolean): Promise<void> {
  try {
    for await (const e of sseEvents(body)) {
      if (signal.aborted) throw new SysError(Errno.EINTR, 'model call interrupted');
      if (take(e)) return;
    }
  } catch (e) {
    if (e instanceof BackendError || e instanceof SysError && e.errno === Errno.EINTR) throw e;
    if (signal.aborted) throw new SysError(Errno.EINTR, 'model call interrupted');
    throw new BackendError('upstream', `${what}: the stream broke: ${e instanceof Error ? e.message : String(e)}`);
  }
  throw new BackendError('upstream', `${what}: the stream ended before the reply did`);
}

/** An event's data as JSON, or an `upstream` failure naming it. */
export function eventJson(e: SseEvent, what: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(e.data);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // below
  }
  throw new BackendError('upstream', `${what}: a ${e.event} event that is not a JSON object: ${e.data.slice(0, 200)}`);
}

/** A tool call's arguments, streamed as JSON text in pieces: an object once whole, else an `upstream` failure. */
export function toolArguments(text: string, what: string, tool: string): { [key: string]: Json } {
  if (text.trim() === '') return {};
  try {
    const v: unknown = JSON.parse(text);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as { [key: string]: Json };
  } catch {
    // below
  }
  throw new BackendError('upstream', `${what}: the arguments of tool call '${tool}' are not a JSON object: ${text.slice(0, 200)}`);
}

/** A non-negative integer from a usage field, else 0. */
export function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0;
}

// A fake model provider on 127.0.0.1 for the backend tests: each request
// gets the next scripted reply — a status, headers, and a body written in the
// given pieces with a pause between them, so the client reads them as separate
// chunks (a piece may end mid-line, mid-CRLF or mid-character); `cut` ends the
// connection abruptly after the pieces. It records every request it saw.
// `fetchIO` is a BackendIO over Node's own HTTP client.

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BackendIO } from '../../src/kernel/agent/backend.js';

export interface Scripted {
  status?: number;
  headers?: Record<string, string>;
  /** Body pieces (strings are UTF-8; Uint8Array pieces let a test split a character). */
  pieces: (string | Uint8Array)[];
  /** Destroy the socket after the pieces instead of ending the response. */
  cut?: boolean;
  /** Neither end nor destroy: the stream stalls until the client gives up. */
  stall?: boolean;
}

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface FakeProvider {
  base: string;
  seen: Seen[];
  /** Replies for the next requests, in order. */
  script(...replies: Scripted[]): void;
  close(): Promise<void>;
}

const pause = () => new Promise((r) => setTimeout(r, 3));

export async function fakeProvider(): Promise<FakeProvider> {
  const queue: Scripted[] = [];
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(parts).toString('utf8');
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // kept as text
      }
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const r = queue.shift() ?? { status: 599, pieces: ['no reply scripted'] };
      void (async () => {
        res.writeHead(r.status ?? 200, { 'content-type': r.status && r.status >= 300 ? 'application/json' : 'text/event-stream', ...r.headers });
        res.flushHeaders();
        for (const p of r.pieces) {
          res.write(p);
          await pause();
        }
        if (r.cut) res.socket?.destroy();
        else if (!r.stall) res.end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    seen,
    script: (...replies) => void queue.push(...replies),
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/** A BackendIO whose `http` is Node's fetch (no kernel): the backend's own behaviour, alone. */
export function fetchIO(signal: AbortSignal = new AbortController().signal): BackendIO {
  return {
    signal,
    readFile: () => {
      throw new Error('no files here');
    },
    async http(req) {
      const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body ? Buffer.from(req.body) : undefined, signal });
      return {
        status: res.status,
        headers: [...res.headers.entries()],
        body: (res.body ?? (async function* () {})()) as AsyncIterable<Uint8Array>,
      };
    },
  };
}

/** SSE text for events: `[event, data]` pairs (event null: data only), LF-ended. */
export function sse(events: [string | null, unknown][], eol = '\n'): string {
  return events.map(([event, data]) => `${event ? `event: ${event}${eol}` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}${eol}${eol}`).join('');
}

/** A `sleep` for ProviderConfig that records the delays and does not wait. */
export function recordedSleep(): { sleep: (ms: number) => Promise<void>; delays: number[] } {
  const delays: number[] = [];
  return { delays, sleep: async (ms) => void delays.push(ms) };
}

/** An Anthropic messages stream: a bash tool_use split over input_json deltas. */
export const anthropicTool = (id: string, command: string) => sse([
  ['message_start', { type: 'message_start', message: { id: 'msg_1', role: 'assistant', content: [], usage: { input_tokens: 80, output_tokens: 1 } } }],
  ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id, name: 'bash', input: {} } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"command": ' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: `${JSON.stringify(command)}}` } }],
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 12 } }],
  ['message_stop', { type: 'message_stop' }],
]);
/** An Anthropic messages stream: one text answer. */
export const anthropicText = (text: string) => sse([
  ['message_start', { type: 'message_start', message: { usage: { input_tokens: 90, output_tokens: 1 } } }],
  ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }],
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 4 } }],
  ['message_stop', { type: 'message_stop' }],
]);

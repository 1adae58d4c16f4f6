// `agentos mcp`'s stdio transport: newline-delimited JSON-RPC on stdin and
// stdout, as the SDK's StdioServerTransport, with what a server facing
// untrusted input needs. The SDK's closes the connection when a line passes
// its 10 MiB buffer (so the server exited 0, silently) and answers a line
// that does not parse with nothing. Here:
//
// - a line over MAX_LINE is not buffered: the transport skips to its newline,
//   watching only for the request's top-level "id", and answers -32600;
// - a line that is not JSON is answered -32700, JSON that is not a JSON-RPC
//   message -32600 (with its id when it has a usable one);
// - either way it goes on with the next line.
//
// Memory is bounded by MAX_LINE plus one chunk of input.

import type { Readable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { TopLevelId } from './json-id.js';

export const MAX_LINE = 10 * 1024 * 1024;

type Id = string | number | null;

/** What the transport writes to: the protocol stream, and how to wait until it drains. */
export interface Output {
  write(text: string): boolean;
  once(event: 'drain', cb: () => void): unknown;
}

export class LineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private parts: Buffer[] = [];
  private size = 0;
  /** Set while skipping a line that is too long: what it has told of its id. */
  private skipping: TopLevelId | null = null;
  private closed = false;

  constructor(private readonly input: Readable, private readonly output: Output) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.emit(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onError);
    this.input.pause();
    this.parts = [];
    this.onclose?.();
  }

  private readonly onError = (e: Error) => this.onerror?.(e);

  private readonly onData = (chunk: Buffer) => {
    for (let start = 0; ; ) {
      const nl = chunk.indexOf(10, start);
      this.take(chunk.subarray(start, nl === -1 ? chunk.length : nl));
      if (nl === -1) return;
      this.endLine();
      start = nl + 1;
    }
  };

  /** A piece of the current line. */
  private take(piece: Buffer): void {
    if (this.skipping) return this.skipping.feed(piece);
    if (this.size + piece.length <= MAX_LINE) {
      if (piece.length) this.parts.push(piece);
      this.size += piece.length;
      return;
    }
    // Too long: what was kept is only read for the id, then dropped.
    this.skipping = new TopLevelId();
    for (const p of this.parts) this.skipping.feed(p);
    this.skipping.feed(piece);
    this.parts = [];
    this.size = 0;
  }

  private endLine(): void {
    if (this.skipping) {
      const id = this.skipping.id;
      this.skipping = null;
      void this.fail(id, ErrorCode.InvalidRequest, `Invalid Request: message too large (over ${MAX_LINE} bytes)`);
      return;
    }
    const line = Buffer.concat(this.parts, this.size).toString('utf8');
    this.parts = [];
    this.size = 0;
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      void this.fail(null, ErrorCode.ParseError, `Parse error: ${(e as Error).message}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = (value as { id?: unknown })?.id;
      void this.fail(typeof id === 'string' || typeof id === 'number' ? id : null, ErrorCode.InvalidRequest, 'Invalid Request: not a JSON-RPC 2.0 message');
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private fail(id: Id, code: number, message: string): Promise<void> {
    return this.emit({ jsonrpc: '2.0', id, error: { code, message } });
  }

  private emit(message: unknown): Promise<void> {
    return new Promise((done) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) done();
      else this.output.once('drain', done);
    });
  }
}

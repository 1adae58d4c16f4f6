// A raw MCP client for `agentos mcp` over stdio: writes lines (or bytes) to
// the server and keeps every line it prints, so a test sees each byte of the
// protocol stream, not what a client library chose to accept.

import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Bundled into dist/test/security/.
const cli = fileURLToPath(new URL('../../../bin/agentos.js', import.meta.url));

export interface Message {
  jsonrpc: string;
  id?: string | number | null;
  method?: string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

export class Wire {
  readonly child: ChildProcess;
  /** Every line the server printed on stdout, in order. */
  readonly lines: string[] = [];
  stderr = '';
  private partial = '';
  private waiters: (() => void)[] = [];
  private readonly exited: Promise<number | null>;

  constructor(args: string[] = []) {
    this.child = spawn(process.execPath, [cli, 'mcp', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout!.setEncoding('utf8').on('data', (s: string) => {
      const parts = (this.partial + s).split('\n');
      this.partial = parts.pop()!;
      this.lines.push(...parts);
      for (const w of this.waiters.splice(0)) w();
    });
    this.child.stderr!.setEncoding('utf8').on('data', (s: string) => (this.stderr += s));
    this.exited = new Promise((done) => this.child.on('exit', (code) => {
      for (const w of this.waiters.splice(0)) w();
      done(code);
    }));
  }

  /** Write a message (an object) or raw text; a newline ends it unless `raw`. */
  async send(m: unknown, raw = false): Promise<void> {
    const text = typeof m === 'string' ? m : JSON.stringify(m);
    await this.write(raw ? text : `${text}\n`);
  }

  /** Write, respecting the pipe's backpressure (large requests come in many chunks). */
  write(data: string | Uint8Array): Promise<void> {
    return new Promise((ok, fail) => {
      if (this.child.exitCode !== null) return fail(new Error(`the server exited (${this.child.exitCode}): ${this.stderr}`));
      this.child.stdin!.write(data, (e) => (e ? fail(e) : ok()));
    });
  }

  /** The messages printed so far (every line must be one). */
  messages(): Message[] {
    return this.lines.map((l) => JSON.parse(l) as Message);
  }

  /** The first message with this id, waiting for it (the server exiting first is an error). */
  async reply(id: string | number | null, timeoutMs = 30_000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.lines.map((l) => { try { return JSON.parse(l) as Message; } catch { return null; } }).find((m) => m && m.id === id && m.method === undefined);
      if (found) return found;
      if (this.child.exitCode !== null) throw new Error(`the server exited (${this.child.exitCode}) before answering ${id}; stderr: ${this.stderr}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no answer to ${id} in ${timeoutMs} ms; lines: ${this.lines.join('\n').slice(0, 2000)}`);
      await new Promise<void>((ok) => {
        const t = setTimeout(ok, left);
        this.waiters.push(() => { clearTimeout(t); ok(); });
      });
    }
  }

  /** initialize and initialized, as a client starts a session. */
  async initialize(): Promise<void> {
    await this.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'wire', version: '1' } } });
    await this.reply(1);
    await this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /** End stdin and wait for the server to exit. */
  async close(): Promise<number | null> {
    this.child.stdin!.end();
    return this.exited;
  }
}

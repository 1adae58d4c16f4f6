// A terminal whose pseudo-terminal lives in the sandbox page: the Node side
// of AgentVM's Terminal, fed by the page's term-data/term-exit events.

import type { Terminal } from '../api/terminal.js';
import { bytesOf, toBase64 } from './protocol.js';

export interface TerminalLink {
  write(data: string): Promise<void>;
  resize(cols: number, rows: number): Promise<void>;
  close(): Promise<void>;
}

export class RemoteTerminal implements Terminal {
  private readonly listeners = new Set<(b: Uint8Array) => void>();
  /** Output before the first subscriber is kept for it, as AgentVM's terminal does. */
  private early: Uint8Array[] = [];
  private done!: (code: number) => void;
  readonly exited = new Promise<number>((ok) => (this.done = ok));

  constructor(private readonly link: TerminalLink) {}

  /** From the page. */
  data(b: Uint8Array): void {
    if (this.listeners.size === 0) this.early.push(b);
    else this.listeners.forEach((l) => l(b));
  }

  /** From the page, or when the page is gone (-1). */
  exit(code: number): void {
    this.done(code);
  }

  write(data: Uint8Array | string): void {
    void this.link.write(toBase64(bytesOf(data))).catch(() => {});
  }

  onData(cb: (bytes: Uint8Array) => void): () => void {
    this.listeners.add(cb);
    const early = this.early;
    this.early = [];
    early.forEach((b) => cb(b));
    return () => this.listeners.delete(cb);
  }

  resize(cols: number, rows: number): void {
    void this.link.resize(cols, rows).catch(() => {});
  }

  async close(): Promise<void> {
    await this.link.close().catch(() => {});
    await this.exited;
  }
}

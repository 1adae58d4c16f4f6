// A client of Firefox's Marionette: the WebDriver classic protocol Firefox
// speaks itself (geckodriver translates W3C HTTP into it). A TCP stream of
// `length:json` packets; the server greets first, then each command is
// `[0, id, name, params]` and its answer `[1, id, error, result]`. Commands run
// concurrently (a long async script does not delay a short one). Only what an
// EnginePage needs; every command may have a time limit.

import { connect, type Socket } from 'node:net';

export class MarionetteError extends Error {}

export class MarionetteClient {
  private buf: Buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly waiting = new Map<number, { ok(v: unknown): void; fail(e: Error): void }>();
  private greeted!: () => void;
  private readonly greeting = new Promise<void>((ok) => (this.greeted = ok));
  private closedWhy: string | null = null;
  private readonly closedListeners: ((why: string) => void)[] = [];

  private constructor(private readonly socket: Socket) {
    socket.on('data', (d: Buffer) => this.read(d));
    const end = (why: string) => {
      if (this.closedWhy !== null) return;
      this.closedWhy = why;
      for (const w of this.waiting.values()) w.fail(new MarionetteError(`Marionette: ${why}`));
      this.waiting.clear();
      for (const l of this.closedListeners) l(why);
    };
    socket.on('error', (e) => end(e.message));
    socket.on('close', () => end('the connection closed'));
  }

  /** Connect to a Marionette server and wait for its greeting. */
  static async connect(host: string, port: number, timeoutMs = 30_000): Promise<MarionetteClient> {
    const socket = connect(port, host);
    const client = new MarionetteClient(socket);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        client.greeting,
        new Promise<never>((_, fail) => {
          socket.once('error', (e) => fail(new MarionetteError(`Marionette at ${host}:${port}: ${e.message}`)));
          timer = setTimeout(() => fail(new MarionetteError(`Marionette at ${host}:${port}: no greeting within ${timeoutMs / 1000} s`)), timeoutMs);
        }),
      ]);
    } catch (e) {
      socket.destroy();
      throw e;
    } finally {
      clearTimeout(timer);
    }
    return client;
  }

  /** `name` with `params`; 0: no time limit (a call that may legitimately run long). */
  send(name: string, params: Record<string, unknown> = {}, timeoutMs = 60_000): Promise<unknown> {
    if (this.closedWhy !== null) return Promise.reject(new MarionetteError(`Marionette ${name}: ${this.closedWhy}`));
    const id = this.nextId++;
    const body = Buffer.from(JSON.stringify([0, id, name, params]));
    return new Promise((ok, fail) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      if (timeoutMs > 0) {
        timer = setTimeout(() => {
          this.waiting.delete(id);
          fail(new MarionetteError(`Marionette ${name}: no answer within ${Math.round(timeoutMs / 1000)} s`));
        }, timeoutMs);
      }
      this.waiting.set(id, {
        ok: (v) => (clearTimeout(timer), ok(v)),
        fail: (e) => (clearTimeout(timer), fail(e)),
      });
      this.socket.write(Buffer.concat([Buffer.from(`${body.length}:`), body]));
    });
  }

  onClosed(listener: (why: string) => void): void {
    this.closedListeners.push(listener);
  }

  close(): void {
    this.socket.destroy();
  }

  private read(d: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
    for (;;) {
      const colon = this.buf.indexOf(0x3a);
      if (colon < 0) return;
      const len = Number(this.buf.subarray(0, colon).toString('latin1'));
      if (this.buf.length < colon + 1 + len) return;
      const msg = JSON.parse(this.buf.subarray(colon + 1, colon + 1 + len).toString('utf8')) as unknown;
      this.buf = this.buf.subarray(colon + 1 + len);
      if (!Array.isArray(msg)) {
        this.greeted();
        continue;
      }
      const [, id, error, result] = msg as [number, number, { error?: string; message?: string } | null, unknown];
      const w = this.waiting.get(id);
      this.waiting.delete(id);
      if (!w) continue;
      if (error) w.fail(new MarionetteError(`Marionette: ${error.error ?? 'error'}: ${error.message ?? ''}`.trim()));
      else w.ok(result);
    }
  }
}

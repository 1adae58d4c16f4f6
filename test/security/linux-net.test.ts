// The Linux guest's network adapter as a hostile guest meets it (src/runtimes/linux/net.ts,
// decision 0084), against a stand-in for v86's FetchNetworkAdapter (no image needed).
//
// Across jobs: one guest
// serves the jobs of many callers in turn, each with its own rights, network policy and secrets.
// A request is made with the `http` syscall of the job that opened its connection, or not at all:
// bytes a guest kernel still had to send when its job ended (a socket's send buffer outlives the
// process that filled it, and is drained at the emulated network's pace), a pipelined second
// request, or a connection opened between jobs must not complete during the next caller's job
// as that caller. The stand-in, as v86's adapter does, sends a request to its fetch from inside a
// connection's data handler when the head's end arrives.
//
// A large answer: v86 writes each chunk of the answer's body into the connection's send buffer,
// which has no bound, as soon as it has it; the guest reads at the emulated network's pace, or
// not at all. The body must be read from the host only as the guest takes it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HttpRequest } from '../../src/abi/http.js';
import type { Sys } from '../../src/libc/sys.js';
import { GuestNet, RESPONSE_BUFFERED_MAX } from '../../src/runtimes/linux/net.js';

type Handler = (this: Conn, data: Uint8Array) => void;
interface Conn {
  send_buffer: { length: number };
  events_handlers: Record<string, Handler | undefined>;
  on(event: string, h: Handler): void;
}

/** The stand-in: its own listener gives each connection an HTTP handler (head to its end, then fetch), then ours wraps it. */
function guest() {
  const listeners: ((conn: Conn) => void)[] = [];
  const refused: number[] = [];
  const a = {
    fetch: (_url: string, _opts: unknown): Promise<Response> => Promise.reject(new Error('the host fetch was called')),
    bus: { register: (_name: string, fn: (conn: Conn) => void) => void listeners.push(fn) },
    respond_text_and_close: (_c: Conn, status: number) => void refused.push(status),
  };
  listeners.push((conn) => {
    let text = '';
    conn.on('data', (d) => {
      text += new TextDecoder().decode(d);
      for (let end = text.indexOf('\r\n\r\n'); end >= 0; end = text.indexOf('\r\n\r\n')) {
        const target = text.slice(0, end).split(' ')[1];
        text = text.slice(end + 4);
        // v86's pump: every chunk of the body into the send buffer at once, the next read asked for at once.
        void a.fetch(target, { method: 'GET', headers: new Headers() }).then((res) => {
          const reader = res.body?.getReader();
          const pump = ({ value, done }: ReadableStreamReadResult<Uint8Array>): void => {
            if (value) conn.send_buffer.length += value.byteLength;
            if (!done) void reader!.read().then(pump, () => {});
          };
          void reader?.read().then(pump, () => {});
        });
      }
    });
  });
  const net = new GuestNet();
  net.attach(a);
  /** A SYN to port 80: the connection, with every listener's handler. */
  const open = (): Conn => {
    const c: Conn = { send_buffer: { length: 0 }, events_handlers: {}, on(event, h) { this.events_handlers[event] = h; } };
    for (const l of listeners) l(c);
    return c;
  };
  const send = (c: Conn, s: string): void => c.events_handlers.data!.call(c, new TextEncoder().encode(s));
  return { net, open, send, refused };
}

/** A caller whose `http` syscall records what it was asked (and answers 200). */
function caller(name: string, asked: string[]): Sys {
  return {
    http(req: HttpRequest) {
      asked.push(`${name} ${req.url}`);
      return { status: 200, statusText: 'OK', headers: [], fd: 9, decoded: true };
    },
    close() {},
    poll: () => [[9, 1]],
    read: () => new Uint8Array(0),
  } as unknown as Sys;
}

test('a request whose last bytes arrive after its job ended is not made with the next job\'s caller', () => {
  const { net, open, send, refused } = guest();
  const asked: string[] = [];
  net.sys = caller('guest', asked);
  const c = open();
  send(c, 'GET http://127.0.0.1:8/api HTTP/1.1\r\nX-Long: ');
  net.sys = null; // the job ends; its process is killed, its socket's buffer still drains
  net.sys = caller('root', asked);
  send(c, 'aaaa\r\n\r\n');
  assert.deepEqual(asked, []);
  assert.deepEqual(refused, [502]);
});

test('a pipelined second request on a connection of an ended job is refused; the first was the job\'s own', () => {
  const { net, open, send, refused } = guest();
  const asked: string[] = [];
  net.sys = caller('guest', asked);
  const c = open();
  send(c, 'GET http://a.test/1 HTTP/1.1\r\n\r\n');
  net.sys = null;
  net.sys = caller('root', asked);
  send(c, 'GET http://b.test/2 HTTP/1.1\r\n\r\n');
  assert.deepEqual(asked, ['guest http://a.test/1']);
  assert.deepEqual(refused, [502]);
});

test('a connection opened between jobs serves no request in the next one', () => {
  const { net, open, send, refused } = guest();
  const asked: string[] = [];
  const c = open();
  net.sys = caller('root', asked);
  send(c, 'GET http://a.test/ HTTP/1.1\r\n\r\n');
  assert.deepEqual(asked, []);
  assert.deepEqual(refused, [502]);
  // The running job's own connection is served.
  send(open(), 'GET http://b.test/ HTTP/1.1\r\n\r\n');
  assert.deepEqual(asked, ['root http://b.test/']);
});

test('a large answer the guest does not read is read from the host only while the adapter holds less than its bound, and ends with its job', { timeout: 10_000 }, async () => {
  const { net, open, send } = guest();
  let read = 0;
  let more: (() => void) | null = null;
  let closed: (() => void) | null = null;
  const isClosed = new Promise<void>((ok) => (closed = ok));
  net.sys = {
    http: () => ({ status: 200, statusText: 'OK', headers: [], fd: 9, decoded: true }),
    poll: () => [[9, 1]],
    // 64 MiB, then its end (an endless one would keep an unbounded pump from ever yielding).
    read: (_fd: number, n: number) => {
      if (read >= 64 * 2 ** 20) return new Uint8Array(0);
      read += n;
      more?.();
      return new Uint8Array(n);
    },
    close: () => closed?.(),
  } as unknown as Sys;
  const c = open();
  send(c, 'GET http://127.0.0.1:8/endless HTTP/1.1\r\n\r\n');
  // Long enough for an unbounded pump to read it all.
  await new Promise((ok) => setTimeout(ok, 100));
  assert.ok(c.send_buffer.length <= RESPONSE_BUFFERED_MAX + 64 * 1024, `the adapter holds ${c.send_buffer.length} bytes`);
  assert.equal(read, c.send_buffer.length);
  // The guest takes what it was sent: reading goes on.
  const before = read;
  await new Promise<void>((ok) => {
    more = ok;
    c.send_buffer.length = 0;
  });
  assert.ok(read > before);
  // The job ends: its answer ends, its fd is closed.
  net.sys = null;
  c.send_buffer.length = 0;
  await isClosed;
});

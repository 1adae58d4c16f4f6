// The Linux guest's network adapter (src/runtimes/linux/net.ts, decision 0084) against a stand-in
// for v86's FetchNetworkAdapter: no image needed. Its fetch is the caller's `http` syscall, a
// refusal comes back as a status line with the kernel's words, nobody answers between jobs, and
// a request the guest never ends is cut off instead of growing the worker's memory.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Errno, SysError } from '../../../src/abi/errno.js';
import type { HttpRequest } from '../../../src/abi/http.js';
import type { Sys } from '../../../src/libc/sys.js';
import { GuestNet, REQUEST_MAX } from '../../../src/runtimes/linux/net.js';

type Handler = (this: Conn, data: Uint8Array) => void;
interface Conn {
  events_handlers: Record<string, Handler | undefined>;
  on(event: string, h: Handler): void;
}

function adapter() {
  const listeners: ((conn: Conn) => void)[] = [];
  const closed: [number, string][] = [];
  const a = {
    fetch: (_url: string, _opts: unknown): Promise<Response> => Promise.reject(new Error('the host fetch was called')),
    bus: { register: (_name: string, fn: (conn: Conn) => void) => void listeners.push(fn) },
    respond_text_and_close: (_c: Conn, status: number, text: string) => void closed.push([status, text]),
  };
  return { a, listeners, closed };
}

const conn = (): Conn => ({
  events_handlers: {},
  on(event, h) {
    this.events_handlers[event] = h;
  },
});

test("the adapter's fetch is the caller's http syscall; a refusal is a status line with the kernel's words; no caller, no request", async () => {
  const { a } = adapter();
  const net = new GuestNet();
  net.attach(a);
  const none = await a.fetch('http://example.com/', { method: 'GET', headers: new Headers() });
  assert.deepEqual([none.status, none.statusText], [502, 'no job is running']);
  const asked: HttpRequest[] = [];
  net.sys = {
    http(req: HttpRequest) {
      asked.push(req);
      throw new SysError(Errno.EACCES, "network access to http://example.com denied by the VM's network policy (network: none)");
    },
  } as unknown as Sys;
  const r = await a.fetch('http://example.com/x', { method: 'GET', headers: new Headers({ 'content-length': '3', 'x-a': 'b' }) });
  assert.deepEqual([r.status, r.statusText], [403, "network access to http://example.com denied by the VM's network policy (network: none)"]);
  assert.deepEqual(asked.map((q) => [q.method, q.url, q.headers]), [['GET', 'http://example.com/x', [['x-a', 'b'], ['accept-encoding', 'identity']]]]);
});

test('a request the guest never ends is cut off at REQUEST_MAX bytes with 413, its handler given no more', () => {
  const { a, listeners, closed } = adapter();
  const net = new GuestNet();
  net.attach(a);
  net.sys = {} as Sys; // a job runs: its connections are served
  const c = conn();
  let given = 0;
  // The adapter's own listener comes first and sets the HTTP handler; ours wraps it.
  c.on('data', (d) => void (given += d.byteLength));
  for (const l of listeners) l(c);
  const chunk = new Uint8Array(1 << 20);
  for (let i = 0; i < REQUEST_MAX / chunk.length + 3; i++) c.events_handlers.data!.call(c, chunk);
  assert.equal(given, REQUEST_MAX);
  assert.deepEqual(closed.map(([s]) => s), [413]);
});

// The Linux guest's network (decision 0084): its NIC (v86's ne2k) is answered by v86's own
// FetchNetworkAdapter — a small TCP/IP stack in JavaScript that answers ARP, DHCP and DNS itself
// (every name is its own address) and turns each HTTP/1.x request that reaches it on TCP port 80
// into one fetch call. That fetch is replaced here by the kernel's `http` syscall of the process
// running the guest's job, so the VM's network policy, `ask` approvals, host-held secrets and the
// audit trail apply to the guest's requests exactly as to curl's. Nothing else leaves the adapter:
// other TCP ports are refused (RST), UDP other than its own DHCP/DNS/NTP answers is dropped, and
// https is TLS to a port nobody answers. Guest programs get `http_proxy` pointing at the adapter
// (job.ts), so a URL with any host and port — the VM's 127.0.0.1 included — goes the same way.

import { inflateStream } from '../inflate-stream.js';
import { Errno, SysError, strerror } from '../../abi/errno.js';
import type { HttpResponse } from '../../abi/http.js';
import type { Sys } from '../../libc/sys.js';

/** The adapter's address in the guest's network (v86's defaults; wasm/linux/init configures the guest to match). */
export const ROUTER_IP = '192.168.86.1';
export const GUEST_IP = '192.168.86.100';
/** What the guest's HTTP clients are told to use as their proxy. */
export const HTTP_PROXY = `http://${ROUTER_IP}:80/`;

/** v86's `net_device` option: the NIC the saved state has, and the adapter that answers it. */
export const NET_DEVICE = {
  type: 'ne2k',
  relay_url: 'fetch',
  router_ip: ROUTER_IP,
  vm_ip: GUEST_IP,
  // Its other method (DNS over HTTPS) would call the host's own fetch.
  dns_method: 'static',
} as const;

const POLLIN = 1;
/** How often a response body's fd is looked at while it has nothing: the emulator runs meanwhile. */
const BODY_POLL_MS = 4;
const BODY_CHUNK = 64 * 1024;
/**
 * What the adapter may hold of an answer the guest has not taken yet: its connection's send buffer
 * has no bound of its own, and the guest decides how fast it reads (or whether at all), so the body
 * is read from the syscall only while the buffer is below this.
 */
export const RESPONSE_BUFFERED_MAX = 256 * 1024;
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** The request v86's adapter hands its fetch: method, headers as the guest sent them (Host taken into the URL), the body of a PUT or POST. */
interface AdapterRequest {
  method: string;
  headers: Headers;
  body?: Uint8Array;
}

/** v86's TCP connection: one handler per event (`on` replaces it). */
interface Connection {
  /** v86's TCPConnection: what it holds to send to the guest, until the guest acknowledges it. */
  send_buffer?: { length: number };
  events_handlers: Record<string, ((this: Connection, data: Uint8Array) => void) | undefined>;
  on(event: string, handler: (this: Connection, data: Uint8Array) => void): void;
}

interface Adapter {
  fetch: (url: string, opts: AdapterRequest) => Promise<Response>;
  bus: { register(name: string, fn: (conn: Connection) => void, self: unknown): void };
  respond_text_and_close(conn: Connection, status: number, statusText: string, body: string): void;
}

/**
 * What one connection may send (request head and body): the adapter keeps a request whole in
 * memory until it ends, so a guest writing a header without end would grow the worker's heap.
 */
export const REQUEST_MAX = 16 * 2 ** 20;

export class GuestNet {
  /** The process whose `http` syscall serves the guest's requests: the running job's caller, else none. */
  sys: Sys | null = null;
  /** The connection whose data handler is running: the adapter calls its fetch from there. */
  private conn: Connection | null = null;

  /** Replace the adapter's fetch (the host's) with the caller's syscall, before the guest runs. */
  attach(adapter: unknown): void {
    const a = adapter as Adapter | undefined;
    if (!a || typeof a.fetch !== 'function' || typeof a.bus?.register !== 'function') throw new Error('linux: v86 made no fetch network adapter');
    a.fetch = (url, opts) => Promise.resolve(this.request(url, opts));
    // After the adapter's own listener, which gave an HTTP connection its data handler: bound it,
    // and keep it to the job it was opened in. The adapter sends a request to its fetch (above)
    // from inside this handler, when the request's last byte arrives: without this, bytes a job's
    // guest kernel still had to send when the job ended (a socket's buffer outlives the process
    // that wrote it), or a second request on the same connection, would complete in the next job
    // and be made with that caller's rights, policy and secrets.
    a.bus.register('tcp-connection', (conn) => {
      const handler = conn.events_handlers.data;
      if (!handler) return;
      const job = this.sys;
      let bytes = 0;
      conn.on('data', (data) => {
        if (bytes > REQUEST_MAX) return;
        bytes += data.byteLength;
        if (job === null || job !== this.sys) {
          bytes = REQUEST_MAX + 1;
          return a.respond_text_and_close(conn, 502, 'Bad Gateway', 'linux: this connection was opened outside the running job\n');
        }
        if (bytes > REQUEST_MAX) return a.respond_text_and_close(conn, 413, 'Content Too Large', `linux: a request to the network adapter is limited to ${REQUEST_MAX} bytes\n`);
        this.conn = conn;
        try {
          return handler.call(conn, data);
        } finally {
          this.conn = null;
        }
      });
    }, a);
  }

  private request(url: string, opts: AdapterRequest): Response {
    const sys = this.sys;
    const conn = this.conn;
    // Between jobs no process answers for the guest: a leftover would have nobody's rights.
    if (!sys) return failure(Errno.ENETUNREACH, 'no job is running');
    // The body's framing is the kernel's to write (the adapter passes a body only for PUT and POST):
    // a guest's Content-Length on a GET would have the server wait for bytes that never come.
    const headers = [...opts.headers].filter(([k]) => k !== 'content-length' && k !== 'transfer-encoding');
    // The adapter drops Content-Encoding from the answer, so the body must come plain.
    if (!headers.some(([k]) => k === 'accept-encoding')) headers.push(['accept-encoding', 'identity']);
    let res: HttpResponse;
    try {
      res = sys.http({ method: opts.method, url, headers, body: opts.body });
    } catch (e) {
      if (e instanceof SysError) return failure(e.errno, e.detail);
      return failure(Errno.EIO, e instanceof Error ? e.message : String(e));
    }
    const coding = (res.headers.find(([k]) => k.toLowerCase() === 'content-encoding')?.[1] ?? '').trim().toLowerCase();
    let body: ReadableStream<Uint8Array> | null = null;
    if (NULL_BODY.has(res.status) || opts.method === 'HEAD') close(sys, res.fd);
    else {
      // Read while the job runs and while the guest takes what was read: a job's answer ends with the job.
      const buffered = (): number => conn?.send_buffer?.length ?? 0;
      body = bodyStream(sys, res.fd, () => this.sys === sys, () => buffered() < RESPONSE_BUFFERED_MAX);
      if (!res.decoded && (coding === 'gzip' || coding === 'x-gzip' || coding === 'deflate')) body = body.pipeThrough(inflateStream());
    }
    try {
      return new Response(body, { status: res.status, statusText: phrase(res.statusText), headers: res.headers.filter(([k]) => k.toLowerCase() !== 'content-encoding') });
    } catch (e) {
      void body?.cancel();
      return failure(Errno.EPROTO, `the server's answer: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

/** A refusal or failure as the guest's client sees it: a status line with the kernel's own words (busybox wget prints it). */
function failure(errno: number, detail: string | undefined): Response {
  const words = phrase(detail ?? strerror(errno));
  return new Response(`${words}\n`, { status: errno === Errno.EACCES ? 403 : 502, statusText: words, headers: { 'content-type': 'text/plain' } });
}

/** A reason phrase: printable ASCII only, bounded. */
function phrase(s: string): string {
  return s.replace(/[^\x20-\x7e]/g, '?').slice(0, 300);
}

function close(sys: Sys, fd: number): void {
  try { sys.close(fd); } catch { /* already closed (its process ended) */ }
}

/**
 * The body from the syscall's fd, read only when it has data (the emulator never stops waiting
 * for a slow server) and `room()` says the guest took what came before; it ends when `live()` no
 * longer holds (its job ended).
 */
function bodyStream(sys: Sys, fd: number, live: () => boolean, room: () => boolean): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    pull: (c) => new Promise<void>((done) => {
      const step = (): void => {
        try {
          if (!live()) throw new Error('linux: the job that made this request ended');
          if (!room() || !sys.poll([[fd, POLLIN]], 0).length) return void setTimeout(step, BODY_POLL_MS);
          const data = sys.read(fd, BODY_CHUNK);
          if (data.byteLength) c.enqueue(data);
          else {
            close(sys, fd);
            c.close();
          }
        } catch (e) {
          close(sys, fd);
          c.error(e);
        }
        done();
      };
      step();
    }),
    cancel: () => close(sys, fd),
  });
}


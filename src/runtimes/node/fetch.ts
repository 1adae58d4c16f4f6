// The global `fetch` of node programs: WHATWG fetch over the kernel's http
// syscall, so every request (and every redirect hop, followed here one by one)
// is checked by the VM's network policy, as curl's are. The engine's own
// Request, Response and Headers classes do the parsing and the body types
// (they hold data, not a route out); the body is read from the syscall's pipe
// fd as the event loop finds it readable, so a download does not block timers.
// The syscall waits for the response head: requests in flight at once get
// their heads one after another (their bodies interleave).

import { inflateStream } from '../inflate-stream.js';
import { Errno, SysError } from '../../abi/errno.js';
import type { HttpResponse } from '../../abi/http.js';
import type { Sys } from '../../libc/sys.js';
import { netError, uvError } from './errors.js';
import type { EventLoop, Watcher } from './loop.js';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
/** The fetch standard's redirect limit. */
const MAX_REDIRECTS = 20;

type Fetch = (input: unknown, init?: RequestInit) => Promise<Response>;

/** undici's rejection: `TypeError: fetch failed` with the reason as its cause. */
function failed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

/** A kernel errno as the error Node's fetch (its cause) and http client give for it: its code, and the policy's own words for a refusal. */
export function netCause(e: unknown, url: URL): unknown {
  if (!(e instanceof SysError)) return e;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const tag = (err: Error, code: string) => Object.assign(err, { code, errno: -e.errno, syscall: 'connect' });
  switch (e.errno) {
    case Errno.EACCES:
      return tag(new Error(e.detail ?? `network access to ${url.origin} denied`), 'EACCES');
    case Errno.ENXIO:
      return Object.assign(new Error(`getaddrinfo ENOTFOUND ${url.hostname}`), { code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: url.hostname });
    case Errno.ECONNREFUSED:
    case Errno.ENETUNREACH:
    case Errno.EHOSTUNREACH:
    case Errno.ETIMEDOUT:
      return netError(e.errno, 'connect', url.hostname.replace(/^\[(.*)\]$/, '$1'), Number(port));
    default:
      return e.detail ? tag(new Error(e.detail), uvError(e.errno, 'fetch').code) : uvError(e.errno, 'fetch');
  }
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

export function makeFetch(sys: Sys, loop: EventLoop): Fetch {
  /** The response body from the syscall's fd, read when the loop finds it readable; closed at EOF, error or cancel. */
  const bodyStream = (fd: number, signal: AbortSignal): ReadableStream<Uint8Array> => {
    let watcher: Watcher | null = null;
    let open = true;
    const close = () => {
      if (watcher) loop.watchers.delete(watcher);
      watcher = null;
      if (open) try { sys.close(fd); } catch { /* already closed */ }
      open = false;
    };
    let controller: ReadableStreamDefaultController<Uint8Array>;
    const onAbort = () => {
      close();
      try { controller.error(abortError(signal)); } catch { /* already closed */ }
    };
    return new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
        signal.addEventListener('abort', onAbort, { once: true });
      },
      pull(c) {
        if (!open) return;
        return new Promise<void>((done) => {
          const w: Watcher = {
            fd,
            refed: true,
            ready: () => {
              loop.watchers.delete(w);
              watcher = null;
              let data: Uint8Array;
              try {
                data = sys.read(fd);
              } catch (e) {
                if (e instanceof SysError && e.errno === Errno.EAGAIN) return void loop.watchers.add((watcher = w));
                close();
                signal.removeEventListener('abort', onAbort);
                c.error(new TypeError('terminated', { cause: e instanceof SysError ? uvError(e.errno, 'read') : e }));
                return done();
              }
              if (data.byteLength === 0) {
                close();
                signal.removeEventListener('abort', onAbort);
                c.close();
              } else c.enqueue(data);
              done();
            },
          };
          watcher = w;
          loop.watchers.add(w);
        });
      },
      cancel() {
        signal.removeEventListener('abort', onAbort);
        close();
      },
    });
  };

  const respond = (res: HttpResponse, method: string, url: string, hops: number, signal: AbortSignal): Response => {
    const headers = new Headers();
    for (const [k, v] of res.headers) headers.append(k, v);
    let body: ReadableStream<Uint8Array> | null = null;
    if (NULL_BODY.has(res.status) || method === 'HEAD') {
      try { sys.close(res.fd); } catch { /* already closed */ }
    } else {
      body = bodyStream(res.fd, signal);
      // The host may hand the body over still encoded: decode what a browser would.
      const coding = (headers.get('content-encoding') ?? '').trim().toLowerCase();
      if (!res.decoded && (coding === 'gzip' || coding === 'x-gzip' || coding === 'deflate')) {
        body = body.pipeThrough(inflateStream());
      }
    }
    const out = new Response(body, { status: res.status, statusText: res.statusText, headers });
    // Set by the engine only for its own fetches: the final URL and whether a redirect led there.
    Object.defineProperty(out, 'url', { value: url, enumerable: false, configurable: true });
    Object.defineProperty(out, 'redirected', { value: hops > 0, enumerable: false, configurable: true });
    return out;
  };

  return async function fetch(input: unknown, init?: RequestInit): Promise<Response> {
    const req = new Request(input as RequestInfo, init);
    const signal = req.signal;
    if (signal.aborted) throw abortError(signal);
    let url = new URL(req.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw failed(new Error(`${url.protocol.slice(0, -1)} URLs are not supported by agentOS's fetch (only http and https)`));
    let method = req.method;
    let body: Uint8Array | undefined = req.body ? new Uint8Array(await req.arrayBuffer()) : undefined;
    let headers = [...req.headers];
    const has = (name: string) => headers.some(([k]) => k === name);
    // Node's defaults where the program set none.
    if (!has('accept')) headers.push(['accept', '*/*']);
    if (!has('user-agent')) headers.push(['user-agent', 'node']);
    for (let hops = 0; ; hops++) {
      if (signal.aborted) throw abortError(signal);
      let res: HttpResponse;
      try {
        res = sys.http({ method, url: url.href, headers, body });
      } catch (e) {
        throw failed(netCause(e, url));
      }
      const location = res.headers.find(([k]) => k.toLowerCase() === 'location')?.[1];
      if (!REDIRECTS.has(res.status) || location === undefined || req.redirect === 'manual') return respond(res, method, url.href, hops, signal);
      try { sys.close(res.fd); } catch { /* already closed */ }
      if (req.redirect === 'error') throw failed(new TypeError('unexpected redirect'));
      if (hops + 1 > MAX_REDIRECTS) throw failed(new TypeError('redirect count exceeded'));
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw failed(new TypeError(`invalid redirect location: ${location}`));
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') throw failed(new TypeError('URL scheme must be a HTTP(S) scheme'));
      // As the fetch standard: 303 (but HEAD), and 301/302 after a POST, become a GET without a body.
      if ((res.status === 303 && method !== 'HEAD' && method !== 'GET') || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        headers = headers.filter(([k]) => !/^content-(type|length|encoding|language|location)$/.test(k));
      }
      // Credentials are for the origin they were given for.
      if (next.origin !== url.origin) headers = headers.filter(([k]) => k !== 'authorization' && k !== 'cookie' && k !== 'proxy-authorization');
      url = next;
    }
  };
}

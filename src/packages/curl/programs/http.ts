// What curl and wget share: one request through the kernel's http syscall,
// redirects followed hop by hop (each hop is a new request, so the VM's
// network policy is checked again at every one), and curl's exit codes for
// kernel errnos.

import { Errno, SysError } from '../../../abi/errno.js';
import type { HttpRequest, HttpResponse } from '../../../abi/http.js';

/** curl's exit codes (libcurl's CURLcode) that these tools use. */
export const EXIT = {
  UNSUPPORTED_PROTOCOL: 1, URL_MALFORMAT: 3, COULDNT_RESOLVE_HOST: 6, COULDNT_CONNECT: 7, PARTIAL_FILE: 18,
  HTTP_RETURNED_ERROR: 22, WRITE_ERROR: 23, READ_ERROR: 26, OPERATION_TIMEDOUT: 28, TOO_MANY_REDIRECTS: 47,
  RECV_ERROR: 56, SSL_CACERT: 60,
} as const;

/** A failed transfer: curl's exit code and its message. */
export class TransferError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export function parseUrl(raw: string): URL {
  // curl's default scheme is http when none is given.
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new TransferError(EXIT.URL_MALFORMAT, 'URL using bad/illegal format or missing URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new TransferError(EXIT.UNSUPPORTED_PROTOCOL, `Protocol "${u.protocol.slice(0, -1)}" not supported or disabled in libcurl`);
  }
  return u;
}

function portOf(u: URL): number {
  return u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
}

/** A kernel errno from the http syscall (or a body read) as curl's code and message. */
export function transferError(e: unknown, u: URL, elapsedMs: number, received: number): TransferError {
  if (!(e instanceof SysError)) throw e;
  const detail = e.detail ?? '';
  const host = u.hostname;
  switch (e.errno) {
    case Errno.EACCES:
      return new TransferError(EXIT.COULDNT_CONNECT, detail);
    case Errno.ENXIO:
      return new TransferError(EXIT.COULDNT_RESOLVE_HOST, `Could not resolve host: ${host}`);
    case Errno.ECONNREFUSED:
    case Errno.ENETUNREACH:
    case Errno.EHOSTUNREACH:
      return new TransferError(EXIT.COULDNT_CONNECT, `Failed to connect to ${host} port ${portOf(u)} after ${elapsedMs} ms: Couldn't connect to server`);
    case Errno.ETIMEDOUT:
      return new TransferError(
        EXIT.OPERATION_TIMEDOUT,
        detail.startsWith('Operation timed out') ? `Operation timed out after ${elapsedMs} milliseconds with ${received} bytes received` : detail || 'Timeout was reached',
      );
    case Errno.ECONNRESET:
      return new TransferError(EXIT.RECV_ERROR, 'Recv failure: Connection reset by peer');
    case Errno.EPROTO:
      return new TransferError(detail.startsWith('SSL') ? EXIT.SSL_CACERT : EXIT.RECV_ERROR, detail);
    case Errno.EIO:
      return new TransferError(EXIT.PARTIAL_FILE, detail || 'transfer closed with outstanding read data remaining');
    case Errno.EINTR:
      return new TransferError(EXIT.RECV_ERROR, 'interrupted');
    default:
      return new TransferError(EXIT.RECV_ERROR, detail || e.message);
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function locationOf(res: HttpResponse): string | null {
  const h = res.headers.find(([k]) => k.toLowerCase() === 'location');
  return h ? h[1] : null;
}

/** The next hop's request after a redirect, as curl does it. */
export function redirected(req: HttpRequest, res: HttpResponse, base: URL): HttpRequest {
  const next = new URL(locationOf(res)!, base);
  let { method, body, bodyFd } = req;
  let headers = req.headers;
  // 303 always becomes GET (but HEAD stays); curl turns a POST into GET on 301/302 too.
  if ((res.status === 303 && method !== 'HEAD') || ((res.status === 301 || res.status === 302) && method === 'POST')) {
    method = 'GET';
    body = undefined;
    bodyFd = undefined;
    headers = headers.filter(([k]) => !/^content-(type|length)$/i.test(k));
  }
  // Credentials are for the origin they were given for.
  if (next.origin !== base.origin) headers = headers.filter(([k]) => !/^(authorization|cookie)$/i.test(k));
  return { ...req, method, url: next.href, headers, body, bodyFd };
}

export function isRedirect(res: HttpResponse): boolean {
  return REDIRECTS.has(res.status) && locationOf(res) !== null;
}

export function header(res: HttpResponse, name: string): string | undefined {
  const n = name.toLowerCase();
  return res.headers.find(([k]) => k.toLowerCase() === n)?.[1];
}

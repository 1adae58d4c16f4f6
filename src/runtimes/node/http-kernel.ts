// The way out of the VM for node's `http` and `https` clients: a request to
// anywhere but a server listening on the VM's own loopback goes through the
// kernel's http syscall, the path global fetch and curl take, so the network
// policy, host-held secrets, approvals and the audit log apply to it (and
// the host does the TLS of an https URL). ClientRequest writes its message
// as it would to a socket; that message is parsed back here into the
// syscall's method, URL, headers and body (the body is sent whole, when the
// request ends). The response body is the syscall's pipe fd.

import { Buffer } from 'buffer';
import { Errno, SysError } from '../../abi/errno.js';
import type { HttpResponse } from '../../abi/http.js';
import type { Sys } from '../../libc/sys.js';
import { HttpParser, type HttpHead } from './http-parser.js';
import { netCause } from './fetch.js';

/** Headers about this one connection: the kernel's client frames and connects on its own. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'upgrade', 'content-length', 'host', 'expect']);

/** Collects what a request writes, as a socket would receive it. */
export class MessageBuffer {
  readonly destroyed = false;
  private parts: Uint8Array[] = [];
  write(data: Uint8Array | string, cb: () => void): void {
    this.parts.push(typeof data === 'string' ? Buffer.from(data, 'latin1') : data);
    cb();
  }
  bytes(): Uint8Array {
    return Buffer.concat(this.parts);
  }
}

/** A whole HTTP/1.1 request message → the syscall's request for `origin` (e.g. `https://host:8443`). */
export function kernelRequest(message: Uint8Array, origin: string): { method: string; url: string; headers: [string, string][]; body?: Uint8Array } {
  let head: HttpHead | null = null;
  const body: Uint8Array[] = [];
  const parser = new HttpParser('request', { head: (h) => void (head = h), body: (c) => void body.push(c.slice()), end: () => {} });
  parser.execute(message);
  const h = head as HttpHead | null;
  if (!h) throw new SysError(Errno.EINVAL, 'http: an incomplete request');
  const headers: [string, string][] = [];
  for (let i = 0; i < h.rawHeaders.length; i += 2) {
    if (!HOP_BY_HOP.has(h.rawHeaders[i].toLowerCase())) headers.push([h.rawHeaders[i], h.rawHeaders[i + 1]]);
  }
  const bytes = body.length ? Buffer.concat(body) : undefined;
  // A path is sent to the named host whatever it holds: '@other/x' or an absolute form must not make the URL another host's.
  const path = h.url.startsWith('/') ? h.url : `/${h.url}`;
  return { method: h.method, url: origin + path, headers, body: bytes };
}

/** Send it; a refusal or failure is the error Node's client gives (the policy's own words for a refusal). */
export function kernelExchange(sys: Sys, req: ReturnType<typeof kernelRequest>): HttpResponse {
  try {
    return sys.http(req);
  } catch (e) {
    throw netCause(e, new URL(req.url));
  }
}

/** The response's head as the parser would have given it; a body the host already decoded loses its coding and length. */
export function responseHead(res: HttpResponse): HttpHead {
  const [major, minor] = res.httpVersion.split('.').map(Number);
  const rawHeaders: string[] = [];
  for (const [k, v] of res.headers) {
    const name = k.toLowerCase();
    if (res.decoded && (name === 'content-encoding' || name === 'content-length')) continue;
    rawHeaders.push(k, v);
  }
  return {
    method: '', url: '', statusCode: res.status, statusMessage: res.statusText,
    versionMajor: major || 1, versionMinor: minor || 0, rawHeaders, keepAlive: false, upgrade: false,
  };
}

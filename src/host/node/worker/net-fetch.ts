// Node host: the kernel's HTTP(S) requests, made from the kernel worker with
// node:http/https. DNS-rebinding safety: the host name is resolved once here,
// every address is classified (kernel/net/address.ts: loopback, private,
// link-local... in any spelling, IPv4-mapped and embedding IPv6 forms too)
// and only a public one is used unless the policy allows private ones for this
// host; the connection goes to that checked address through a pinned `lookup`
// — the name is never resolved again behind the check. TLS still verifies the
// certificate for the name.

import { lookup as dnsLookup } from 'node:dns/promises';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Errno } from '../../../abi/errno.js';
import { canonicalHost, classifyAddress } from '../../../kernel/net/address.js';
import { NetError, type HostFetch, type HostRequest, type HostResponse } from '../../../kernel/net/host.js';
import { privateDenial } from '../../../kernel/net/policy.js';

interface Resolved {
  address: string;
  family: 4 | 6;
}

async function resolveHost(req: HostRequest, host: string): Promise<Resolved> {
  const mapped = req.hosts.get(canonicalHost(host));
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  let candidates: Resolved[];
  if (mapped) candidates = [{ address: mapped, family: isIP(mapped) === 6 ? 6 : 4 }];
  else if (isIP(literal)) candidates = [{ address: literal, family: isIP(literal) as 4 | 6 }];
  else {
    try {
      candidates = (await dnsLookup(literal, { all: true })) as Resolved[];
    } catch {
      throw new NetError(Errno.ENXIO, `Could not resolve host: ${host}`);
    }
  }
  if (req.allowPrivate) return candidates[0];
  // Anything that is not an address the classifier knows is refused too.
  const kinds = candidates.map((c) => classifyAddress(c.address) ?? { kind: 'reserved' as const, address: c.address });
  const ok = candidates.find((_, i) => kinds[i].kind === 'public');
  if (!ok) throw new NetError(Errno.EACCES, privateDenial(host, kinds[0]));
  return ok;
}

function headerObject(list: [string, string][]): OutgoingHttpHeaders {
  const h: OutgoingHttpHeaders = {};
  for (const [k, v] of list) {
    const prev = h[k];
    h[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [String(prev), v];
  }
  return h;
}

/** Node's socket error codes as errno and a curl-like message. */
function mapError(e: unknown, host: string, port: number): NetError {
  if (e instanceof NetError) return e;
  const code = (e as { code?: string }).code ?? '';
  const msg = (e as Error).message ?? String(e);
  const where = `${host} port ${port}`;
  switch (code) {
    case 'ECONNREFUSED':
      return new NetError(Errno.ECONNREFUSED, `Failed to connect to ${where}: Connection refused`);
    case 'ENETUNREACH':
      return new NetError(Errno.ENETUNREACH, `Failed to connect to ${where}: Network is unreachable`);
    case 'EHOSTUNREACH':
      return new NetError(Errno.EHOSTUNREACH, `Failed to connect to ${where}: No route to host`);
    case 'ETIMEDOUT':
      return new NetError(Errno.ETIMEDOUT, `Failed to connect to ${where}: Connection timed out`);
    case 'ECONNRESET':
      return new NetError(Errno.ECONNRESET, 'Recv failure: Connection reset by peer');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new NetError(Errno.ENXIO, `Could not resolve host: ${host}`);
  }
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO/.test(code)) return new NetError(Errno.EPROTO, `SSL certificate problem: ${msg}`);
  if (code.startsWith('HPE_')) return new NetError(Errno.EPROTO, `Invalid HTTP response: ${msg}`);
  return new NetError(Errno.EIO, msg);
}

export const nodeFetch: HostFetch = async (req) => {
  const url = new URL(req.url);
  const https = url.protocol === 'https:';
  const port = url.port ? Number(url.port) : https ? 443 : 80;
  const signal = req.signal;
  const started = Date.now();
  let connectTimer: ReturnType<typeof setTimeout> | null = null;
  const connectTimeout = new Promise<never>((_, fail) => {
    connectTimer = setTimeout(
      () => fail(new NetError(Errno.ETIMEDOUT, `Connection timed out after ${Date.now() - started} milliseconds`)),
      req.connectTimeoutMs,
    );
  });
  connectTimeout.catch(() => {});
  const stopConnectTimer = () => connectTimer && clearTimeout(connectTimer);
  let agent: HttpAgent | null = null;
  let handedOver = false;
  try {
    const target = await Promise.race([resolveHost(req, url.hostname), connectTimeout]);
    signal.throwIfAborted();
    agent = new (https ? HttpsAgent : HttpAgent)({ keepAlive: true, maxSockets: 1 });
    const lookup: LookupFunction = (_name, opts, cb) => {
      if (opts.all) (cb as unknown as (e: null, a: Resolved[]) => void)(null, [target]);
      else cb(null, target.address, target.family);
    };
    const request = (https ? httpsRequest : httpRequest)({
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port,
      path: url.pathname + url.search,
      method: req.method,
      headers: headerObject(req.headers),
      lookup,
      // One connection per request, kept alive only to look like any client (no `Connection: close`); freed after the body.
      agent,
    });
    // Not the `signal` option: its AbortError is emitted on streams that nothing
    // listens to once the body has been read, and an uncaught error ends the kernel.
    // After the handover a plain destroy() ends the body's iterator instead.
    signal.addEventListener('abort', () => request.destroy(handedOver ? undefined : new Error('The operation was aborted')), { once: true });
    // The connect timeout covers resolving and connecting, not a slow server.
    request.once('socket', (s) => (s.connecting ? s.once('connect', stopConnectTimer) : stopConnectTimer()));
    const head = new Promise<IncomingMessage>((ok, fail) => {
      request.once('response', ok);
      request.once('error', (e) => fail(mapError(e, url.hostname, port)));
    });
    void sendBody(request, req.body).catch((e: unknown) => request.destroy(e as Error));
    const res = await Promise.race([head, connectTimeout.catch((e: unknown) => {
      request.destroy();
      throw e;
    })]);
    stopConnectTimer();
    // From here errors reach the guest through the body's iterator; one that comes
    // when nothing iterates must not be an uncaught 'error' event.
    request.on('error', () => {});
    res.on('error', () => {});
    const headers: [string, string][] = [];
    for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
    const sock = res.socket;
    const response: HostResponse = {
      status: res.statusCode ?? 0,
      statusText: res.statusMessage ?? '',
      httpVersion: res.httpVersion,
      headers,
      url: req.url,
      remote: sock?.remoteAddress ? `${sock.remoteAddress}:${sock.remotePort}` : '',
      decoded: false,
      body: bodyIterator(res, url.hostname, port, agent),
    };
    handedOver = true;
    return response;
  } finally {
    stopConnectTimer();
    if (!handedOver) agent?.destroy();
  }
};

async function* bodyIterator(res: IncomingMessage, host: string, port: number, agent: HttpAgent): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of res) yield chunk as Uint8Array;
    // A body cut short (the peer closed early) is an error, as in curl (18).
    if (!res.complete) throw new NetError(Errno.EIO, 'transfer closed with outstanding read data remaining');
  } catch (e) {
    throw mapError(e, host, port);
  } finally {
    agent.destroy();
  }
}

async function sendBody(request: ReturnType<typeof httpRequest>, body: HostRequest['body']): Promise<void> {
  if (body === null) return void request.end();
  if (body instanceof Uint8Array) return void request.end(body);
  for await (const chunk of body) {
    if (request.destroyed) return;
    // A failed request never drains: its close ends the wait (and the fd's reader, through the loop's exit).
    if (!request.write(chunk)) await new Promise<void>((ok) => (request.once('drain', ok), request.once('close', ok)));
  }
  request.end();
}

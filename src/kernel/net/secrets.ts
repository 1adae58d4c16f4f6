// Host-held secrets (policy.secrets; decision 0063). The value of a secret
// never enters the VM: every process the host starts gets NAME=<token> in its
// environment, a random placeholder made per VM, and the kernel swaps the
// token for the value in the header values of a request bound for one of the
// secret's hosts — after the policy check, on each hop's own URL (clients
// follow redirects one request at a time). URLs, bodies and requests to other
// hosts keep the token. A response to a request that carried a value gets
// the value masked back to the token, in its headers and, across chunk
// boundaries, in its body, so a server that echoes what it received hands
// the guest nothing it did not have. Unlike policy.env.secrets
// (policy/secrets.ts), which masks values the guest holds, here the guest
// never holds one.

import type { HostSecret } from '../../api/policy.js';
import { canonicalHost } from './address.js';
import { NetError, type HostRequest, type HostResponse } from './host.js';
import { concatBytes } from '../../abi/bytes.js';
import { Errno } from '../../abi/errno.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// A DNS name (ASCII; an IDN is given in its xn-- form), an IPv4 address, or [IPv6], optionally under `*.`.
const HOST = /^(\*\.)?([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])$/i;
/** Shorter values would mask innocent text in the responses they are masked in. */
const MIN_VALUE = 8;

function fail(msg: string): never {
  throw new Error(`secrets: ${msg}`);
}

/** One host rule in canonical form: `api.x.com`, or `*.x.com` for its subdomains. */
function hostRule(name: string, h: unknown): string {
  if (typeof h !== 'string' || !HOST.test(h)) fail(`${name}: '${String(h)}' is not a host name or *.domain (no scheme, port or path)`);
  const wild = h.startsWith('*.');
  const bare = wild ? h.slice(2) : h;
  if (wild && !bare.includes('.')) fail(`${name}: '${h}' would match a whole top-level domain`);
  return (wild ? '*.' : '') + canonicalHost(new URL(`http://${bare}/`).hostname);
}

/**
 * Check policy.secrets (policy/types.ts calls this) and return a copy: names
 * are environment variable names; a value is at least 8 characters with no
 * control characters (it goes into a header); hosts is a non-empty list.
 */
export function checkSecrets(v: unknown): Record<string, HostSecret> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) fail('must be an object of NAME: { value, hosts }');
  const out: Record<string, HostSecret> = {};
  for (const [name, s] of Object.entries(v)) {
    if (!NAME.test(name)) fail(`'${name}' is not an environment variable name`);
    if (!s || typeof s !== 'object' || Array.isArray(s)) fail(`${name} must be an object { value, hosts }`);
    for (const k of Object.keys(s)) if (k !== 'value' && k !== 'hosts') fail(`unknown key ${name}.${k}`);
    const { value, hosts } = s as Record<string, unknown>;
    // The value itself is never put in a message.
    if (typeof value !== 'string') fail(`${name}.value must be a string`);
    if (value.length < MIN_VALUE) fail(`${name}.value is shorter than ${MIN_VALUE} characters`);
    // eslint-disable-next-line no-control-regex
    if (/[\x00-\x08\x0a-\x1f\x7f]/.test(value)) fail(`${name}.value has a control character (it goes into a header)`);
    if (!Array.isArray(hosts) || !hosts.length) fail(`${name}.hosts must be a non-empty array of host names`);
    hosts.forEach((h) => hostRule(name, h));
    out[name] = { value, hosts: [...(hosts as string[])] };
  }
  return out;
}

interface Entry {
  name: string;
  value: string;
  token: string;
  /** Canonical host rules. */
  hosts: string[];
  valueBytes: Uint8Array;
  tokenBytes: Uint8Array;
}

function hostMatches(rule: string, host: string): boolean {
  return rule.startsWith('*.') ? host.endsWith(rule.slice(1)) && host.length > rule.length - 1 : rule === host;
}

function randomHex(bytes: number): string {
  const b = globalThis.crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

const enc = new TextEncoder();

/** The VM's host-held secrets: the tokens the guest sees and the values only the kernel's HTTP path uses. */
export class HostSecrets {
  private readonly list: Entry[];

  constructor(spec: Readonly<Record<string, HostSecret>> = {}) {
    this.list = Object.entries(checkSecrets(spec)).map(([name, s]) => {
      // 128 random bits: unguessable, and recognisable for what it is.
      const token = `aos-secret-${name}-${randomHex(16)}`;
      return { name, value: s.value, token, hosts: s.hosts.map((h) => hostRule(name, h)), valueBytes: enc.encode(s.value), tokenBytes: enc.encode(token) };
    });
  }

  get active(): boolean {
    return this.list.length > 0;
  }

  /** The placeholder the guest sees for secret `name` (the model service puts it in a provider's key header). */
  token(name: string): string | undefined {
    return this.list.find((e) => e.name === name)?.token;
  }

  /** The values (for the audit trail's redaction: they should never reach it, and are masked if they do). */
  get values(): string[] {
    return this.list.map((e) => e.value);
  }

  /** An environment the host passes to a process it starts, with NAME=<token> for every secret (over any NAME given). */
  environ(env: string[]): string[] {
    if (!this.list.length) return env;
    const names = new Set(this.list.map((e) => e.name));
    return [...env.filter((kv) => !names.has(kv.slice(0, kv.indexOf('=')))), ...this.list.map((e) => `${e.name}=${e.token}`)];
  }

  /** Text with every value (of `used`, or all) masked to its token. */
  mask(text: string, used: readonly Entry[] = this.list): string {
    let out = text;
    for (const e of used) if (out.includes(e.value)) out = out.split(e.value).join(e.token);
    return out;
  }

  /** The secrets a request to `url` may carry. */
  private forUrl(url: string): Entry[] {
    let host: string;
    try {
      host = canonicalHost(new URL(url).hostname);
    } catch {
      return [];
    }
    return this.list.filter((e) => e.hosts.some((r) => hostMatches(r, host)));
  }

  /**
   * Make `req` (through `fetch`) with the tokens of the secrets listed for its
   * host replaced by their values in header values, and the values masked in
   * what comes back. A request that carries no value passes through as is.
   */
  async send(fetch: (req: HostRequest) => Promise<HostResponse>, req: HostRequest): Promise<HostResponse> {
    const listed = this.list.length ? this.forUrl(req.url) : [];
    const used = listed.filter((e) => req.headers.some(([, v]) => v.includes(e.token)));
    if (!used.length) return fetch(req);
    const headers = req.headers
      // A compressed echo could not be checked for the value: ask for none.
      .filter(([k]) => k.toLowerCase() !== 'accept-encoding')
      .map(([k, v]): [string, string] => [k, used.reduce((s, e) => s.split(e.token).join(e.value), v)]);
    headers.push(['Accept-Encoding', 'identity']);
    let res: HostResponse;
    try {
      // A host that follows redirects itself (the browser under network 'all') would send the headers on to wherever they lead.
      res = await fetch({ ...req, headers, mayFollow: false });
    } catch (e) {
      throw this.masked(e, used);
    }
    const coding = res.decoded ? undefined : res.headers.find(([k]) => k.toLowerCase() === 'content-encoding')?.[1].trim().toLowerCase();
    if (coding && coding !== 'identity') {
      void res.body.return?.();
      throw new NetError(Errno.EPROTO, `the response to a request carrying a host-held secret is encoded (${coding}) and cannot be checked for it`);
    }
    return {
      ...res,
      statusText: this.mask(res.statusText, used),
      url: this.mask(res.url, used),
      headers: res.headers.map(([k, v]) => [this.mask(k, used), this.mask(v, used)]),
      body: maskBody(res.body, used, (e) => this.masked(e, used)),
    };
  }

  /** A host failure whose message might quote a value, masked. */
  private masked(e: unknown, used: readonly Entry[]): unknown {
    if (!(e instanceof Error) || this.mask(e.message, used) === e.message) return e;
    return e instanceof NetError ? new NetError(e.errno, this.mask(e.message, used)) : new Error(this.mask(e.message, used));
  }
}

function indexOf(hay: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0];
  for (let i = hay.indexOf(first, from); i >= 0 && i + needle.length <= hay.length; i = hay.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && hay[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

/**
 * Mask `data` up to where a value could still begin in bytes not yet seen
 * (all of it when `final`): returns the masked bytes and where the rest starts.
 */
function maskChunk(data: Uint8Array, used: readonly Entry[], final: boolean): [Uint8Array[], number] {
  const longest = Math.max(...used.map((e) => e.valueBytes.length));
  const out: Uint8Array[] = [];
  let pos = 0;
  for (;;) {
    let at = -1;
    let hit: Entry | null = null;
    for (const e of used) {
      const i = indexOf(data, e.valueBytes, pos);
      if (i >= 0 && (at < 0 || i < at)) [at, hit] = [i, e];
    }
    if (!hit) break;
    out.push(data.subarray(pos, at), hit.tokenBytes);
    pos = at + hit.valueBytes.length;
  }
  // Only a tail that is the start of a value (cut by the chunk boundary) waits for the next chunk:
  // the rest goes on at once, so a stream (SSE) is not held back by an event.
  let hold = 0;
  if (!final) {
    for (let k = Math.min(longest - 1, data.length - pos); k > 0 && !hold; k--) {
      if (used.some((e) => e.valueBytes.length > k && startsWith(data, data.length - k, e.valueBytes, k))) hold = k;
    }
  }
  const keep = data.length - hold;
  out.push(data.subarray(pos, keep));
  return [out, keep];
}

/** data[at, at + n) equals the first n bytes of `prefix`. */
function startsWith(data: Uint8Array, at: number, prefix: Uint8Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (data[at + i] !== prefix[i]) return false;
  return true;
}

/** The body with the values masked, a value split over chunks included. */
function maskBody(body: AsyncIterator<Uint8Array>, used: readonly Entry[], mapError: (e: unknown) => unknown): AsyncIterator<Uint8Array> {
  let carry: Uint8Array = new Uint8Array(0);
  let done = false;
  return {
    next: async () => {
      while (!done) {
        let r: IteratorResult<Uint8Array>;
        try {
          r = await body.next();
        } catch (e) {
          throw mapError(e);
        }
        if (r.done) done = true;
        const data = r.done ? carry : concatBytes([carry, r.value]);
        const [parts, keep] = maskChunk(data, used, done);
        carry = data.slice(keep);
        const out = concatBytes(parts);
        if (out.length) return { done: false, value: out };
      }
      return { done: true, value: undefined };
    },
    return: async () => {
      done = true;
      await body.return?.();
      return { done: true, value: undefined };
    },
  };
}

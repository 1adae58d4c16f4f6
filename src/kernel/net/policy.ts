// The VM's network policy (issue 9): which requests the kernel lets a guest
// make. Set by the host when the VM is created; the guest cannot change it.
//
//   'none'  (the default) — no request leaves the VM;
//   'all'   — any http(s) request to a public address;
//   { allow: [...] } — only the listed origins or hosts (optionally per method).
//
// An entry is an origin (`https://api.example.com`, `http://localhost:8080`:
// scheme, host and port must match), a host (`example.com`, `*.example.com`,
// `localhost:8080`: any http(s) scheme, any port unless one is given) or `*`
// (every public host). A string entry may list methods after a space:
// `'https://api.x.com GET,POST'`. Non-public addresses (loopback, private,
// link-local, ...: kernel/net/address.ts) are refused in every spelling, and
// names resolving to them too (DNS-rebinding safety: the Node host checks what
// it resolved), unless the entry names that very host (`localhost`,
// `127.0.0.1`) or says `private: true`. Entries and requests are compared in
// one canonical form (canonicalHost): `127.0.0.1` also allows `2130706433`
// and `[::ffff:7f00:1]`, `example.com` also `example.com.`. An entry that says
// `ask` (`ask: true`, or a last word `ask`: `'api.x.com POST ask'`) allows a
// request only once the host approves it (kernel/policy/approval.ts).

import type { AllowEntry, AllowRule, NetworkPolicy } from '../../api/policy.js';
import { canonicalHost, classifyAddress, classifyHost, type Classified } from './address.js';

/** One parsed allowlist entry. */
interface Rule {
  text: string;
  scheme: string | null;
  /** The host in canonical form (canonicalHost); `*.suffix` for wildcards, `*` for any host. */
  host: string;
  port: number | null;
  methods: Set<string> | null;
  private: boolean;
  ask: boolean;
}

export type Decision =
  | {
    allowed: true;
    /** Private/loopback addresses may be connected to. */
    allowPrivate: boolean;
    /** The rule that allowed it (for the audit trail). */
    rule: string;
    /** Set when only `ask` entries allow it: the host must approve first. */
    ask?: boolean;
  }
  | { allowed: false; message: string };

const DEFAULT_PORT: Record<string, number> = { 'http:': 80, 'https:': 443 };
const METHOD = /^[A-Z]+$/;

/** Parse `'https://api.x.com:443 GET,POST'` (the CLI's and string entries' form). */
export function parseAllowString(s: string): AllowRule {
  const words = s.trim().split(/\s+/);
  const ask = words.length > 1 && words[words.length - 1] === 'ask';
  if (ask) words.pop();
  const [origin, methods, ...rest] = words;
  if (!origin || rest.length) throw new Error(`network policy: bad entry '${s}' (want ORIGIN-OR-HOST [METHOD,...] [ask])`);
  return { origin, ...(methods ? { methods: methods.split(',').filter(Boolean) } : {}), ...(ask ? { ask } : {}) };
}

function parseRule(e: AllowEntry): Rule {
  const r = typeof e === 'string' ? parseAllowString(e) : e;
  if (!r || typeof r.origin !== 'string') throw new Error('network policy: an entry needs an origin or host');
  if (r.methods !== undefined && (!Array.isArray(r.methods) || !r.methods.every((m) => typeof m === 'string'))) {
    throw new Error(`network policy: methods of '${r.origin}' must be an array of strings`);
  }
  for (const k of Object.keys(r)) if (!['origin', 'methods', 'private', 'ask'].includes(k)) throw new Error(`network policy: unknown key '${k}' in an allow entry`);
  const text = typeof e === 'string' ? e.trim().replace(/\s+/g, ' ') : [r.origin, r.methods?.join(','), r.ask ? 'ask' : ''].filter(Boolean).join(' ');
  let methods: Set<string> | null = null;
  if (r.methods) {
    methods = new Set(r.methods.map((m) => m.toUpperCase()));
    for (const m of methods) if (!METHOD.test(m)) throw new Error(`network policy: bad method '${m}' in '${text}'`);
  }
  const base = { text, methods, private: r.private === true, ask: r.ask === true };
  const o = r.origin.trim();
  if (o === '*') return { ...base, scheme: null, host: '*', port: null };
  if (o.includes('://')) {
    let u: URL;
    try {
      u = new URL(o);
    } catch {
      throw new Error(`network policy: bad origin '${o}'`);
    }
    if (!(u.protocol in DEFAULT_PORT)) throw new Error(`network policy: '${o}': only http and https origins exist`);
    if (u.pathname !== '/' || u.search || u.hash || u.username) throw new Error(`network policy: '${o}' is not an origin (no path)`);
    return { ...base, scheme: u.protocol, host: canonicalHost(u.hostname), port: u.port ? Number(u.port) : DEFAULT_PORT[u.protocol] };
  }
  const m = /^(\*\.)?([^\s/:]+|\[[0-9a-f:.]+\])(?::(\d+))?$/i.exec(o);
  const host = m && hostnameOf(m[2]);
  if (!m || !host) throw new Error(`network policy: bad host '${o}'`);
  return { ...base, scheme: null, host: (m[1] ?? '') + canonicalHost(host), port: m[3] ? Number(m[3]) : null };
}

/** A host as the URL parser reads it (so an entry is spelt as a request would be), or null. */
function hostnameOf(host: string): string | null {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return null;
  }
}

/** An address for `hosts`, in the URL parser's form (`0x7f.1` is `127.0.0.1`), without brackets. */
function hostsAddress(name: string, a: unknown): string {
  const bare = typeof a === 'string' ? a.replace(/^\[|\]$/g, '') : '';
  const h = classifyAddress(bare) ? hostnameOf(bare.includes(':') ? `[${bare}]` : bare) : null;
  if (!h) throw new Error(`network policy: hosts: '${name}' must map to an IP address, not ${JSON.stringify(a)}`);
  return h.replace(/^\[|\]$/g, '');
}

/** The denial of a request to a non-public address; the Node host says the same of a name that resolved to one. */
export function privateDenial(host: string, c: Classified): string {
  const shown = c.address === host ? host : `${host} (${c.address})`;
  return `network access to ${shown} denied by the VM's network policy (private address: ${c.kind}; allow the host by name or with private: true)`;
}

function hostMatches(rule: string, host: string): boolean {
  if (rule === '*') return true;
  if (rule.startsWith('*.')) return host.endsWith(rule.slice(1)) && host.length > rule.length - 1;
  return rule === host;
}

/** The policy, checked for every request the kernel is asked to make. */
export class NetPolicy {
  private readonly rules: Rule[] | null;
  readonly mode: 'none' | 'all' | 'allowlist';
  readonly hosts: ReadonlyMap<string, string>;

  constructor(readonly spec: NetworkPolicy = 'none') {
    if (spec === 'none' || spec === 'all') {
      this.mode = spec;
      this.rules = null;
      this.hosts = new Map();
      return;
    }
    if (!spec || typeof spec !== 'object' || !Array.isArray(spec.allow)) {
      throw new Error(`network policy: want 'none', 'all' or { allow: [...] }, got ${JSON.stringify(spec)}`);
    }
    this.mode = 'allowlist';
    this.rules = spec.allow.map(parseRule);
    this.hosts = new Map(Object.entries(spec.hosts ?? {}).map(([h, a]) => [canonicalHost(hostnameOf(h) ?? h), hostsAddress(h, a)]));
  }

  /** Some entry says `ask`: the host must be listening for approvals. */
  get asks(): boolean {
    return this.rules?.some((r) => r.ask) ?? false;
  }

  /** How a denial names the policy. */
  describe(): string {
    if (!this.rules) return `network: ${this.mode}`;
    return this.rules.length ? `allowlist: ${this.rules.map((r) => r.text).join(', ')}` : 'allowlist: empty';
  }

  check(method: string, url: string): Decision {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return { allowed: false, message: `malformed URL '${url}'` };
    }
    if (!(u.protocol in DEFAULT_PORT)) return { allowed: false, message: `protocol ${u.protocol.slice(0, -1)} not supported` };
    if (this.mode === 'none') return this.denied(`${u.protocol}//${u.host}`);
    const host = canonicalHost(u.hostname);
    const d = this.mode === 'all' ? ({ allowed: true, allowPrivate: false, rule: 'network: all' } as const) : this.match(method, u, host);
    if (!d.allowed || d.allowPrivate) return d;
    // An address (or localhost) in any spelling is refused here, on every host; names are the Node host's to resolve and check.
    const c = classifyHost(host);
    return c && c.kind !== 'public' ? { allowed: false, message: privateDenial(u.hostname, c) } : d;
  }

  /**
   * Whether an entry opens the host of `u` — a loopback one — to requests at
   * all, whatever their method: it names that host (or says private: true) for
   * this scheme and port. Only then does a loopback URL with nothing listening
   * in the VM go to the host's own loopback (net/loopback.ts).
   */
  opensLoopback(u: URL): boolean {
    if (!this.rules) return false;
    const host = canonicalHost(u.hostname);
    const port = u.port ? Number(u.port) : DEFAULT_PORT[u.protocol];
    return this.rules.some((r) => (r.scheme === null || r.scheme === u.protocol) && (r.port === null || r.port === port) && hostMatches(r.host, host) && (r.private || r.host === host));
  }

  private denied(what: string): Decision {
    return { allowed: false, message: `network access to ${what} denied by the VM's network policy (${this.describe()})` };
  }

  /** The allowlist's decision. */
  private match(method: string, u: URL, host: string): Decision {
    const target = `${u.protocol}//${u.host}`;
    const port = u.port ? Number(u.port) : DEFAULT_PORT[u.protocol];
    const hits = this.rules!.filter(
      (r) => (r.scheme === null || r.scheme === u.protocol) && (r.port === null || r.port === port) && hostMatches(r.host, host),
    );
    if (!hits.length) return this.denied(target);
    const m = method.toUpperCase();
    const ok = hits.filter((r) => !r.methods || r.methods.has(m));
    if (!ok.length) return this.denied(`${m} ${target}`);
    // An entry that allows outright wins over one that asks.
    const plain = ok.filter((r) => !r.ask);
    const use = plain.length ? plain : ok;
    return {
      allowed: true,
      // Naming an address or localhost is asking for it; a name may not lead to one unless marked private.
      allowPrivate: use.some((r) => r.private || (r.host === host && classifyHost(host) !== null)),
      rule: use[0].text,
      ...(plain.length ? {} : { ask: true }),
    };
  }
}

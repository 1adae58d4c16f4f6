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
// `'https://api.x.com GET,POST'`. Private and loopback addresses are refused
// (DNS-rebinding safety) unless the entry names that very host literally
// (`localhost`, `127.0.0.1`) or says `private: true`. An entry that says
// `ask` (`ask: true`, or a last word `ask`: `'api.x.com POST ask'`) allows a
// request only once the host approves it (kernel/policy/approval.ts).

export interface AllowRule {
  /** An origin, a host (`*.` wildcards), or `*`. */
  origin: string;
  /** HTTP methods allowed (any when absent). */
  methods?: string[];
  /** The host may resolve to private or loopback addresses. */
  private?: boolean;
  /** Each request waits for the host's approval (once / always / never for this entry). */
  ask?: boolean;
}

export type AllowEntry = string | AllowRule;

export type NetworkPolicy =
  | 'none'
  | 'all'
  | {
      allow: AllowEntry[];
      /** Host name → address used instead of DNS (like curl --resolve or /etc/hosts), set by the host. */
      hosts?: Record<string, string>;
    };

/** One parsed allowlist entry. */
interface Rule {
  text: string;
  scheme: string | null;
  /** Lower-case host; `*.suffix` for wildcards, `*` for any host. */
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
    return { ...base, scheme: u.protocol, host: u.hostname.toLowerCase(), port: u.port ? Number(u.port) : DEFAULT_PORT[u.protocol] };
  }
  const m = /^(\*\.)?([^\s/:]+|\[[0-9a-f:.]+\])(?::(\d+))?$/i.exec(o);
  if (!m) throw new Error(`network policy: bad host '${o}'`);
  return { ...base, scheme: null, host: (m[1] ?? '') + m[2].toLowerCase(), port: m[3] ? Number(m[3]) : null };
}

function hostMatches(rule: string, host: string): boolean {
  if (rule === '*') return true;
  if (rule.startsWith('*.')) return host.endsWith(rule.slice(1)) && host.length > rule.length - 1;
  return rule === host;
}

/** A host that is an address or localhost by itself: naming it is asking for it. */
function isLiteralLocal(host: string): boolean {
  return host === 'localhost' || /^[\d.]+$/.test(host) || host.startsWith('[');
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
    this.hosts = new Map(Object.entries(spec.hosts ?? {}).map(([h, a]) => [h.toLowerCase(), a]));
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
    const target = `${u.protocol}//${u.host}`;
    const denied = (what: string): Decision => ({
      allowed: false,
      message: `network access to ${what} denied by the VM's network policy (${this.describe()})`,
    });
    if (!(u.protocol in DEFAULT_PORT)) return { allowed: false, message: `protocol ${u.protocol.slice(0, -1)} not supported` };
    if (this.mode === 'none') return denied(target);
    if (this.mode === 'all') return { allowed: true, allowPrivate: false, rule: 'network: all' };
    const host = u.hostname.toLowerCase();
    const port = u.port ? Number(u.port) : DEFAULT_PORT[u.protocol];
    const hits = this.rules!.filter(
      (r) => (r.scheme === null || r.scheme === u.protocol) && (r.port === null || r.port === port) && hostMatches(r.host, host),
    );
    if (!hits.length) return denied(target);
    const m = method.toUpperCase();
    const ok = hits.filter((r) => !r.methods || r.methods.has(m));
    if (!ok.length) return denied(`${m} ${target}`);
    // An entry that allows outright wins over one that asks.
    const plain = ok.filter((r) => !r.ask);
    const use = plain.length ? plain : ok;
    return {
      allowed: true,
      allowPrivate: use.some((r) => r.private || (r.host === host && isLiteralLocal(host))),
      rule: use[0].text,
      ...(plain.length ? {} : { ask: true }),
    };
  }
}

/** The CLI's flags (`--network none|all`, `--allow-host SPEC`...) as a policy; allow-hosts imply an allowlist. */
export function policyFromFlags(network: string | undefined, allowHosts: string[]): NetworkPolicy {
  if (allowHosts.length) {
    if (network !== undefined && network !== 'allowlist') throw new Error(`--allow-host does not go with --network ${network}`);
    return { allow: allowHosts };
  }
  if (network === undefined || network === 'none' || network === 'all') return network ?? 'none';
  throw new Error(`--network must be none, all or allowlist (with --allow-host), not '${network}'`);
}

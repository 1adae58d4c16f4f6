// Parsing <agentos-terminal> attributes.

import type { NetworkPolicy, Policy } from '../../api/policy.js';
import { checkPolicy } from '../../host/check-policy.js';

/**
 * `env`: either a JSON object (`{"A": "1"}`) or `NAME=value` words separated by
 * spaces, a value quoted with '…' or "…" when it holds spaces (`A=1 B="two words"`).
 */
export function parseEnv(text: string | null): Record<string, string> | undefined {
  if (!text?.trim()) return undefined;
  const t = text.trim();
  if (t.startsWith('{')) {
    const obj = JSON.parse(t) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, String(v)]));
  }
  const env: Record<string, string> = {};
  for (const m of t.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("([^"]*)"|'([^']*)'|(\S*))/g)) {
    env[m[1]] = m[3] ?? m[4] ?? m[5] ?? '';
  }
  return env;
}

/** A positive integer attribute, or undefined. */
export function parseSize(text: string | null): number | undefined {
  const n = Number(text);
  return text !== null && Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * `policy` (the policy object as JSON) and `network` (`none`, `all`, or hosts
 * and origins separated by commas or spaces) as one policy. Strict: bad JSON,
 * an unknown key, a malformed rule, or a network given in both, differently,
 * throws — the element then refuses to boot rather than run a looser VM.
 */
export function parsePolicy(policyText: string | null, networkText: string | null): Policy | undefined {
  let policy: Policy | undefined;
  if (policyText !== null) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(policyText);
    } catch (e) {
      throw new TypeError(`policy attribute is not JSON: ${(e as Error).message}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new TypeError('policy attribute must be a JSON object');
    policy = parsed as Policy;
  }
  if (networkText !== null) {
    const words = networkText.split(/[\s,]+/).filter(Boolean);
    if (!words.length) throw new TypeError('network attribute is empty (say none, all, or hosts)');
    const network: NetworkPolicy = words.length === 1 && (words[0] === 'none' || words[0] === 'all') ? words[0] : { allow: words };
    if (policy?.network !== undefined && JSON.stringify(policy.network) !== JSON.stringify(network)) {
      throw new TypeError('the network is given twice (network attribute and policy.network) and they differ');
    }
    policy = { ...policy, network };
  }
  return policy === undefined ? undefined : checkPolicy(policy);
}

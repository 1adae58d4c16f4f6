// The path every HTTP request of the VM takes, whoever makes it — a guest
// process through the `http` syscall (net/sys.ts) or the kernel's model
// service for an agent process (agent/io.ts): the network policy's decision,
// the host's approval when an `ask` entry is what allows it, the audit trail,
// then the host's fetch. One path, so no request skips a check.

import { Errno, SysError } from '../../abi/errno.js';
import type { Kernel } from '../kernel.js';
import type { HostRequest, HostResponse } from './host.js';
import type { Decision } from './policy.js';

export type Allowed = Decision & { allowed: true };

/** The URL as the audit trail and the approver see it: no credentials, no query (it often carries tokens). */
export function shown(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}${u.search ? '?…' : ''}`;
  } catch {
    return url.slice(0, 200);
  }
}

interface Verdict {
  decision: Allowed;
  /** The approval rule to ask the host about, or null: allowed outright (and audited). */
  ask: string | null;
  audit: (fields: Record<string, unknown>) => void;
}

function verdict(k: Kernel, pid: number, method: string, url: string): Verdict {
  const d = k.net.policy.check(method, url);
  const audit = (fields: Record<string, unknown>) => k.policy.audit.record('network', pid, { method, url: shown(url), ...fields });
  if (!d.allowed) {
    audit({ decision: 'deny', rule: k.net.policy.describe(), message: d.message });
    throw new SysError(Errno.EACCES, d.message);
  }
  if (!d.ask) audit({ decision: 'allow', rule: d.rule });
  return { decision: d, ask: d.ask ? `network.ask:${d.rule}` : null, audit };
}

function denied(method: string, url: string, rule: string): SysError {
  return new SysError(Errno.EACCES, `network access to ${method} ${new URL(url).origin} denied by the host (policy ${rule})`);
}

/**
 * The decision in a syscall handler: an `ask` parks the call on
 * ApprovalNeeded (approvals.require) and it comes back here with the answer.
 * EACCES with the policy's message when the request may not go.
 */
export function decide(k: Kernel, pid: number, method: string, url: string): Allowed {
  const v = verdict(k, pid, method, url);
  if (!v.ask) return v.decision;
  try {
    k.policy.approvals.require(v.ask, `${method} ${shown(url)}`, pid);
  } catch (e) {
    if (!(e instanceof SysError)) throw e; // ApprovalNeeded: asked, back here with the answer
    const err = denied(method, url, v.ask);
    v.audit({ decision: 'deny', rule: v.ask, message: err.detail });
    throw err;
  }
  v.audit({ decision: 'allow', rule: v.ask });
  return v.decision;
}

/** The same decision for kernel code that can wait for the host's answer (approvals.approve). */
export async function decideAsync(k: Kernel, pid: number, method: string, url: string): Promise<Allowed> {
  const v = verdict(k, pid, method, url);
  if (!v.ask) return v.decision;
  if ((await k.policy.approvals.approve(v.ask, `${method} ${shown(url)}`, pid)) === 'deny') {
    const err = denied(method, url, v.ask);
    v.audit({ decision: 'deny', rule: v.ask, message: err.detail });
    throw err;
  }
  v.audit({ decision: 'allow', rule: v.ask });
  return v.decision;
}

/** Ask the host to perform a request the policy allowed (`decision`); ENETUNREACH when the host gives the VM no network. */
export function hostFetch(k: Kernel, decision: Allowed, req: Pick<HostRequest, 'method' | 'url' | 'headers' | 'body' | 'connectTimeoutMs' | 'signal'>): Promise<HostResponse> {
  const fetch = k.net.fetch;
  if (!fetch) throw new SysError(Errno.ENETUNREACH, 'this host gives the VM no network');
  return fetch({ ...req, allowPrivate: decision.allowPrivate, hosts: k.net.policy.hosts, mayFollow: k.net.policy.mode === 'all' });
}

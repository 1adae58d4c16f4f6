// The check of the VM's permission policy (its shape: src/api/policy.ts). The
// host sets it when it creates the VM; it crosses to the kernel worker in the
// first message and is frozen there; nothing the guest can call changes it.

import type { Limit, NetworkPolicy, Policy } from '../../api/policy.js';
import { NetPolicy } from '../net/policy.js';
import { checkSecrets } from '../net/secrets.js';
import { LIMIT_KEYS } from './defaults.js';

const LIST_KEYS = { fs: ['readOnly', 'hidden', 'ask'], processes: ['allow', 'ask'], env: ['secrets'] } as const;

/** A limit's value is valid: a non-negative number, Infinity, or 'none'. */
function isLimit(v: unknown): v is Limit {
  return v === 'none' || (typeof v === 'number' && v >= 0);
}

function fail(msg: string): never {
  throw new TypeError(`policy: ${msg}`);
}

function section(p: Record<string, unknown>, name: string, allowed: readonly string[]): Record<string, unknown> {
  const v = p[name];
  if (v === undefined) return {};
  if (!v || typeof v !== 'object' || Array.isArray(v)) fail(`${name} must be an object`);
  for (const k of Object.keys(v)) if (!allowed.includes(k)) fail(`unknown key ${name}.${k}`);
  return v as Record<string, unknown>;
}

function pathList(v: unknown, where: string): string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) fail(`${where} must be an array of strings`);
  return v as string[];
}

/**
 * Check a policy's shape and return a deep-frozen copy. Unknown keys are
 * errors (a misspelt rule must not silently allow); paths must be absolute.
 */
export function checkPolicy(input: unknown): Readonly<Policy> {
  if (input === undefined || input === null) return Object.freeze({});
  if (typeof input !== 'object' || Array.isArray(input)) fail('must be an object');
  const p = input as Record<string, unknown>;
  for (const k of Object.keys(p)) if (!['fs', 'processes', 'env', 'secrets', 'approvalTimeoutMs', 'network'].includes(k)) fail(`unknown key ${k}`);
  const out: Policy = {};
  const fs = section(p, 'fs', LIST_KEYS.fs);
  const procs = section(p, 'processes', [...LIST_KEYS.processes, ...LIMIT_KEYS, 'sudo']);
  const env = section(p, 'env', LIST_KEYS.env);
  if (p.fs !== undefined) {
    out.fs = {};
    for (const k of LIST_KEYS.fs) {
      const list = pathList(fs[k], `fs.${k}`);
      if (!list) continue;
      for (const path of list) if (!path.startsWith('/')) fail(`fs.${k}: '${path}' is not an absolute path`);
      out.fs[k] = Object.freeze([...list]) as string[];
    }
  }
  if (p.processes !== undefined) {
    out.processes = {};
    for (const k of LIST_KEYS.processes) {
      const list = pathList(procs[k], `processes.${k}`);
      if (list) out.processes[k] = Object.freeze([...list]) as string[];
    }
    for (const k of LIMIT_KEYS) {
      const n = procs[k];
      if (n === undefined) continue;
      if (!isLimit(n)) fail(`processes.${k} must be a non-negative number or 'none'`);
      out.processes[k] = n;
    }
    if (procs.sudo !== undefined) {
      if (typeof procs.sudo !== 'boolean') fail('processes.sudo must be true or false');
      out.processes.sudo = procs.sudo;
    }
  }
  if (p.env !== undefined) {
    const list = pathList(env.secrets, 'env.secrets');
    out.env = list ? { secrets: Object.freeze([...list]) as string[] } : {};
  }
  if (p.secrets !== undefined) {
    try {
      out.secrets = checkSecrets(p.secrets);
    } catch (e) {
      fail((e as Error).message);
    }
    for (const s of Object.values(out.secrets)) Object.freeze(Object.freeze(s).hosts);
  }
  if (p.approvalTimeoutMs !== undefined) {
    if (!isLimit(p.approvalTimeoutMs)) fail("approvalTimeoutMs must be a non-negative number or 'none'");
    out.approvalTimeoutMs = p.approvalTimeoutMs;
  }
  if (p.network !== undefined) {
    try {
      void new NetPolicy(p.network as NetworkPolicy);
    } catch (e) {
      fail((e as Error).message);
    }
    // A copy (JSON: the network policy is plain data) so the caller cannot change it afterwards.
    out.network = JSON.parse(JSON.stringify(p.network)) as NetworkPolicy;
  }
  for (const v of Object.values(out)) if (v && typeof v === 'object') Object.freeze(v);
  return Object.freeze(out);
}

/**
 * The VM's network policy: `policy.network`, or the older `network` option
 * beside the policy. Both given and different is an error, not a silent pick.
 */
export function networkOf(policy: Policy | undefined, network: NetworkPolicy | undefined): NetworkPolicy {
  const inPolicy = policy?.network;
  if (inPolicy !== undefined && network !== undefined && JSON.stringify(inPolicy) !== JSON.stringify(network)) {
    fail('network is given twice (policy.network and the network option) and they differ');
  }
  return network ?? inPolicy ?? 'none';
}

// The operator's model table, /etc/aos/models.yaml: which backend serves a
// model and what a million input and output tokens cost. Budgets are charged
// from it, so the kernel trusts it only as root's: the file and its directory
// owned by root and writable by no one else. A model with no price cannot be
// called: a budget cannot be kept without one.

import { parse } from 'yaml';
import { Errno, SysError } from '../../abi/errno.js';
import type { Kernel } from '../kernel.js';
import { readText } from '../software/manifest.js';
import type { Inode } from '../vfs/types.js';

export const MODELS_YAML = '/etc/aos/models.yaml';

export interface ModelPrice {
  /** The registry name of the backend that serves it (kernel/agent/backends.ts). */
  backend: string;
  inputUsdPerMtok: number;
  outputUsdPerMtok: number;
  /** The most output tokens one request may ask for. */
  maxOutputTokens: number;
  /** A provider's endpoint (`base_url`), its key's host-held secret NAME (`api_key_secret`) and header (`key_header`). */
  baseUrl?: string;
  apiKeySecret?: string;
  keyHeader?: string;
}

export interface ModelTable {
  /** The budget of a top-level agent that names none, USD. */
  defaultBudgetUsd: number;
  /** The most any top-level agent may have, USD (Infinity: no cap). */
  maxBudgetUsd: number;
  /** What all agents together may spend since boot, USD (Infinity: no cap). */
  systemBudgetUsd: number;
  models: Map<string, ModelPrice>;
}

const DEFAULT_MAX_OUTPUT = 32_768;

/** Owned by root and writable by root only: what a guest could not have written. */
function rootOnly(i: Inode, what: string): void {
  if (i.uid !== 0 || (i.mode & 0o022) !== 0) throw new SysError(Errno.EACCES, `${what} is not root's (owner ${i.uid}, mode ${(i.mode & 0o7777).toString(8)}): the model service will not charge by it`);
}

function num(v: unknown, what: string, dflt?: number): number {
  if (v === undefined && dflt !== undefined) return dflt;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new SysError(Errno.EINVAL, `${MODELS_YAML}: ${what} must be a number >= 0`);
  return v;
}

const caches = new WeakMap<Kernel, { key: string; table: ModelTable }>();

/** The table as the file says now (parsed again only when the file changed). */
export function modelTable(k: Kernel): ModelTable {
  const root = k.init.cred;
  let file: Inode;
  try {
    rootOnly(k.vfs.resolve(root, k.vfs.root(), '/etc/aos'), '/etc/aos');
    file = k.vfs.resolve(root, k.vfs.root(), MODELS_YAML);
  } catch (e) {
    if (e instanceof SysError && e.errno === Errno.ENOENT) throw new SysError(Errno.ENOENT, `${MODELS_YAML}: no model table: no model can be priced`);
    throw e;
  }
  rootOnly(file, MODELS_YAML);
  const key = `${file.ino}:${file.mtimeMs}:${file.ctimeMs}:${file.size}`;
  const cache = caches.get(k);
  if (cache?.key === key) return cache.table;
  let doc: unknown;
  try {
    doc = parse(readText(k.vfs, root, k.vfs.root(), MODELS_YAML));
  } catch (e) {
    if (e instanceof SysError) throw e;
    throw new SysError(Errno.EINVAL, `${MODELS_YAML}: not valid YAML`);
  }
  const d = (doc ?? {}) as { default_budget_usd?: unknown; max_budget_usd?: unknown; system_budget_usd?: unknown; models?: Record<string, Record<string, unknown>> };
  const models = new Map<string, ModelPrice>();
  for (const [name, m] of Object.entries(d.models ?? {})) {
    if (!m || typeof m !== 'object') continue;
    models.set(name, {
      backend: typeof m.backend === 'string' ? m.backend : name.split(':')[0],
      inputUsdPerMtok: num(m.input_usd_per_mtok, `models.${name}.input_usd_per_mtok`),
      outputUsdPerMtok: num(m.output_usd_per_mtok, `models.${name}.output_usd_per_mtok`),
      maxOutputTokens: Math.floor(num(m.max_output_tokens, `models.${name}.max_output_tokens`, DEFAULT_MAX_OUTPUT)),
      ...(typeof m.base_url === 'string' ? { baseUrl: m.base_url } : {}),
      ...(typeof m.api_key_secret === 'string' ? { apiKeySecret: m.api_key_secret } : {}),
      ...(typeof m.key_header === 'string' ? { keyHeader: m.key_header } : {}),
    });
  }
  const table = {
    defaultBudgetUsd: num(d.default_budget_usd, 'default_budget_usd', 1),
    maxBudgetUsd: num(d.max_budget_usd, 'max_budget_usd', Infinity),
    systemBudgetUsd: num(d.system_budget_usd, 'system_budget_usd', Infinity),
    models,
  };
  caches.set(k, { key, table });
  return table;
}

/**
 * The price of a model string: its own entry, else its backend's (`mock:<script>`
 * is priced as `mock`, `openai:gpt-4o` as `gpt-4o` or else `openai`).
 */
export function priceOf(t: ModelTable, model: string): ModelPrice & { name: string } {
  const colon = model.indexOf(':');
  const names = colon < 0 ? [model] : [model, model.slice(colon + 1), model.slice(0, colon)];
  for (const n of names) {
    const p = t.models.get(n);
    if (p) return { ...p, backend: colon < 0 ? p.backend : model.slice(0, colon), name: n };
  }
  throw new SysError(Errno.EINVAL, `model ${model}: no price in ${MODELS_YAML}`);
}

export function costUsd(p: ModelPrice, inputTokens: number, outputTokens: number): number {
  return (inputTokens * p.inputUsdPerMtok + outputTokens * p.outputUsdPerMtok) / 1e6;
}

/** What an operator's agent config (/etc/aos/agents.d/<name>.yaml) allows at most: a ceiling on what the agent asks. */
export interface AgentCeiling {
  budgetUsd: number;
  /** null: the config lists no tools, so it limits none. */
  tools: string[] | null;
}

/** The named agent's ceiling, or null when it has no config (an ad-hoc or shebang agent). */
export function agentCeiling(k: Kernel, name: string): AgentCeiling | null {
  if (!/^[A-Za-z0-9._-]+$/.test(name)) return null;
  const root = k.init.cred;
  const path = `/etc/aos/agents.d/${name}.yaml`;
  let file: Inode;
  try {
    file = k.vfs.resolve(root, k.vfs.root(), path);
  } catch {
    return null;
  }
  rootOnly(k.vfs.resolve(root, k.vfs.root(), '/etc/aos/agents.d'), '/etc/aos/agents.d');
  rootOnly(file, path);
  let d: Record<string, unknown>;
  try {
    d = (parse(readText(k.vfs, root, k.vfs.root(), path)) ?? {}) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof SysError) throw e;
    throw new SysError(Errno.EINVAL, `${path}: not valid YAML`);
  }
  const tools = Array.isArray(d.tools) ? d.tools.map(String) : null;
  return { budgetUsd: typeof d.budget === 'number' && d.budget >= 0 ? d.budget : Infinity, tools };
}

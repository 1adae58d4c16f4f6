// What an agent run is made of before it starts: an agent's config
// (/etc/aos/agents.d/<name>.yaml, the operator's), a shebang file's
// directives, and the command line, the latter winning.

import { parse } from 'yaml';
import type { Sys } from '../../../libc/sys.js';

export const AGENTS_D = '/etc/aos/agents.d';

export interface RunConfig {
  agent: string;
  model: string;
  system: string;
  budgetUsd?: number;
  tools?: string[];
  /** Tools that run only once a person approved the call (an intent, /aos/procs/<pid>/intents/pending). */
  ask?: string[];
  timeoutSec?: number;
  maxTokens?: number;
}

const dec = new TextDecoder();

function list(v: unknown): string[] | undefined {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'string') return v.replace(/^\[|\]$/g, '').split(',').map((s) => s.trim()).filter(Boolean);
  return undefined;
}

const number = (v: unknown) => (v === undefined || v === null || v === '' ? undefined : Number(v));

/** /etc/aos/agents.d/<name>.yaml, or null when there is none. */
export function agentConfig(sys: Sys, name: string): Partial<RunConfig> | null {
  if (!/^[A-Za-z0-9._-]+$/.test(name)) return null;
  let text: string;
  try {
    text = dec.decode(sys.readFile(`${AGENTS_D}/${name}.yaml`));
  } catch {
    return null;
  }
  const d = (parse(text) ?? {}) as Record<string, unknown>;
  return {
    model: typeof d.model === 'string' ? d.model : undefined,
    system: typeof d.system === 'string' ? d.system : typeof d.prompt === 'string' ? d.prompt : undefined,
    budgetUsd: number(d.budget),
    tools: list(d.tools),
    ask: list(d.ask),
    timeoutSec: number(d.timeout),
  };
}

/**
 * A shebang agent: `#!/usr/bin/env aos`, then `# @directive: value` lines
 * (@model, @budget, @tools, @ask, @timeout), then the system prompt.
 */
export function shebangConfig(text: string): Partial<RunConfig> {
  const lines = text.split('\n');
  let i = lines[0]?.startsWith('#!') ? 1 : 0;
  const out: Partial<RunConfig> = {};
  for (; i < lines.length; i++) {
    const l = lines[i].trim();
    if (l === '') continue;
    const m = /^#\s*@(\w+)\s*:?\s*(.*)$/.exec(l);
    if (!m) {
      if (l.startsWith('#')) continue;
      break;
    }
    const [, key, value] = m;
    if (key === 'model') out.model = value.trim();
    else if (key === 'budget') out.budgetUsd = number(value.trim());
    else if (key === 'tools') out.tools = list(value.trim());
    else if (key === 'ask') out.ask = list(value.trim());
    else if (key === 'timeout') out.timeoutSec = number(value.trim());
    else if (key === 'max_tokens') out.maxTokens = number(value.trim());
  }
  out.system = lines.slice(i).join('\n').trim();
  return out;
}

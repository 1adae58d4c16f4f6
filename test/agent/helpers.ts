// Shared by the agent tests: one VM per file, mock scripts written into it,
// and readers of `aos` output.

import { AgentVM } from '../../src/host/node/index.js';

export async function bootVM(): Promise<AgentVM> {
  const vm = new AgentVM({});
  await vm.start();
  return vm;
}

/** A mock script: one JSON object a line. */
export const script = (...turns: object[]) => `${turns.map((t) => JSON.stringify(t)).join('\n')}\n`;

export interface Budget {
  pid: number;
  limit: number;
  spent: number;
}

/** `aos budget` lines: `PID: limit $L spent $S tokens U/T`. */
export function budgets(text: string): Map<number, Budget> {
  const out = new Map<number, Budget>();
  for (const m of text.matchAll(/^(\d+): limit (\$[\d.]+|unlimited) spent \$([\d.]+)/gm)) {
    const pid = Number(m[1]);
    out.set(pid, { pid, limit: m[2] === 'unlimited' ? Infinity : Number(m[2].slice(1)), spent: Number(m[3]) });
  }
  return out;
}

/** The JSON events of `aos trace PID`. */
export const events = (text: string) => text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

// Issue 19, item 5, as a property: over random mock scripts (any number of
// turns and tool calls, any claimed usage, even more than the request could
// have cost) and random limits, no agent's spend ever passes its limit; a run
// that would have is refused before the call, with exit 64 BUDGET_EXHAUSTED.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { AgentVM } from '../../src/host/node/index.js';
import { bootVM, budgets, script } from './helpers.js';

let vm: AgentVM;
before(async () => {
  vm = await bootVM();
});
after(() => vm.stop());

/** mulberry32: the same cases on every run. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('item 5: budgets are never exceeded, over random scripts and limits', async () => {
  const rnd = prng(19);
  const int = (n: number) => Math.floor(rnd() * n);
  const CASES = 24;
  await vm.exec('mkdir -p /tmp/bp');
  const lines: string[] = [];
  for (let i = 0; i < CASES; i++) {
    const turns: object[] = [];
    const n = 1 + int(6);
    for (let t = 0; t < n; t++) {
      const last = t === n - 1;
      turns.push({
        text: last ? `answer ${i}` : 'working',
        ...(last ? {} : { tool_calls: [{ name: 'bash', arguments: { command: `echo ${'x'.repeat(int(400))}` } }] }),
        // Claimed usage up to 10x what the request could have used: the service believes no more than its bound.
        ...(rnd() < 0.7 ? { usage: { input_tokens: int(20_000), output_tokens: int(20_000) } } : {}),
      });
    }
    await vm.writeFile(`/tmp/bp/${i}.jsonl`, script(...turns));
    const budget = (0.0005 + rnd() * 0.02).toFixed(6);
    const maxTokens = 1 + int(4096);
    lines.push(`aos run --budget ${budget} --max-tokens ${maxTokens} --mock /tmp/bp/${i}.jsonl go >/dev/null 2>/tmp/bp/${i}.err & p=$!; wait $p; echo "case ${i} status $?"; aos budget $p`);
  }
  const r = await vm.exec(lines.join('\n'));
  const statuses = [...r.stdout.matchAll(/^case (\d+) status (\d+)$/gm)].map((m) => Number(m[2]));
  assert.equal(statuses.length, CASES, r.stdout + r.stderr);
  const b = [...budgets(r.stdout).values()];
  assert.equal(b.length, CASES);
  for (const x of b) assert.ok(x.spent <= x.limit, `agent ${x.pid} spent $${x.spent} of a $${x.limit} limit`);
  for (const s of statuses) assert.ok(s === 0 || s === 64, `exit ${s}`);
  // Both outcomes occur, so the property is tested on both sides of the limit.
  assert.ok(statuses.includes(0) && statuses.includes(64), `statuses ${statuses.join(' ')}`);
});

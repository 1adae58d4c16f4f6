// One scenario for every host (AgentVM here, BrowserVM in test/engines): an event that a
// descendant records in an agent's trace after the agent exited still reaches vm.agents.on('trace').

import assert from 'node:assert/strict';
import type { Agents } from '../../src/host/api/agents.js';
import { script } from './helpers.js';

interface HasAgents {
  agents: Agents;
  writeFile(path: string, data: string): Promise<void>;
}

/** `settleMs`: long enough for polls that read the agent as ended to go by. */
export async function lateTraceEvent(vm: HasAgents, settleMs: number): Promise<void> {
  // The agent leaves a descendant behind that asks a question once /tmp/late-go exists.
  await vm.writeFile('/tmp/late.sh', 'until [ -e /tmp/late-go ]; do sleep 0.05; done; echo "still there?" > /aos/channels/human\n');
  await vm.writeFile('/tmp/late.jsonl', script(
    { text: '', tool_calls: [{ name: 'bash', arguments: { command: 'sh /tmp/late.sh >/dev/null 2>&1 &' } }] },
    { text: 'left one behind' },
  ));
  const got: string[] = [];
  let pid = 0;
  const off = vm.agents.on('trace', (e) => {
    if (e.pid === pid) got.push(String(e.event.type));
  });
  const seen = async (type: string) => {
    for (let i = 0; i < 200 && !got.includes(type); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(got.includes(type), `on('trace') gave ${type}: it gave ${got.join(' ')}`);
  };
  try {
    const a = await vm.agents.run('go', { mock: '/tmp/late.jsonl', tools: ['bash'] });
    pid = a.pid;
    assert.equal((await a.wait()).code, 0);
    await seen('exit');
    await new Promise((r) => setTimeout(r, settleMs));
    await vm.writeFile('/tmp/late-go', '');
    await seen('question');
    assert.deepEqual(got, (await vm.agents.trace(pid)).map((e) => String(e.type)), 'every event of the run, once each, in order');
    const q = (await vm.agents.pending()).questions.find((x) => x.question === 'still there?');
    assert.ok(q);
    await vm.agents.answer(q.id, 'no');
  } finally {
    off();
  }
}

// Issue 19: the model service is the kernel's (kernel/agent/): a hostile guest
// that calls the agent syscalls itself, from inside an agent's tool call and
// from a double-forked orphan, cannot raise its budget above its parent
// agent's remaining, forge its spend or its model, or write another process's
// trace; the operator's model table counts only while it is root's.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { AgentVM } from '../../src/host/node/index.js';
import { bootVM, budgets, events, script } from '../agent/helpers.js';

let vm: AgentVM;
before(async () => {
  vm = await bootVM();
});
after(() => vm.stop());

/** The hostile guest: a JS program that speaks the agent syscall family itself. */
const HOSTILE = `#!/usr/libexec/agentos/js
const s = agentos.sys;
const out = {};
// The orphan: begin only once init has adopted it (its parent shell is gone).
if (agentos.argv[1] === 'orphan') for (let i = 0; i < 400 && s.getppid() !== 1; i++) s.sleep(5);
out.ppid = s.getppid();
const attempt = (name, f) => { try { out[name] = f(); } catch (e) { out[name] = 'error ' + e.message; } };
attempt('exitFirst', () => s.agent('exit', 0, 'SUCCESS', 'forged'));
attempt('begin', () => s.agent('begin', { agent: 'evil', model: 'mock:/tmp/h.jsonl', budgetUsd: 1e9, tokens: 1e12, tools: ['bash', 'read_file', 'nonsense'] }).budget.limitUsd);
attempt('again', () => s.agent('begin', { agent: 'evil', model: 'mock', budgetUsd: 1e9, tools: [] }));
attempt('bigMax', () => s.agent('call', { model: 'mock:/tmp/h.jsonl', messages: [{ role: 'user', content: 'x' }], tools: [], maxTokens: 1e9 }));
attempt('otherModel', () => s.agent('call', { model: 'openai:gpt-free', messages: [{ role: 'user', content: 'x' }], tools: [], maxTokens: 10 }).ok);
attempt('wideTool', () => s.agent('call', { model: 'mock', messages: [{ role: 'user', content: 'x' }], tools: [{ name: 'spawn_agent', description: 'd', parameters: {} }], maxTokens: 10 }).exit);
attempt('report', () => s.agent('exit', 0, 'SUCCESS', 'forged success'));
agentos.print(JSON.stringify(out) + '\\n');
agentos.exit(97);
`;

test('a guest calling the agent syscalls: budget capped by its parent (also as an orphan), model and tools its own, exit its real one', async () => {
  await vm.writeFile('/tmp/h.js', HOSTILE, 0o755);
  await vm.writeFile('/tmp/h.jsonl', script({ text: 'cheap', usage: { input_tokens: 1, output_tokens: 1 } }));
  await vm.writeFile('/tmp/sec.jsonl', script(
    { match: '^go', text: '', tool_calls: [{ name: 'bash', arguments: { command: 'sh -c "/tmp/h.js orphan > /tmp/h2.out 2>&1 &"; /tmp/h.js > /tmp/h1.out 2>&1; until [ -s /tmp/h2.out ]; do sleep 0.01; done; echo ran' } }], usage: { input_tokens: 100, output_tokens: 100 } },
    { match: '^ran', text: 'parent done' },
  ));
  const r = await vm.exec('aos run --budget 0.01 --tools bash,read_file --mock /tmp/sec.jsonl go & p=$!; wait $p; echo "status=$? parent=$p"; cat /tmp/h1.out /tmp/h2.out; aos budget; aos trace $p');
  const [answer, status, h1, h2, ...rest] = r.stdout.split('\n');
  const parentPid = Number(/parent=(\d+)/.exec(status)?.[1]);
  assert.deepEqual([answer, status], ['parent done', `status=0 parent=${parentPid}`], r.stderr);
  assert.equal((JSON.parse(h2) as { ppid: number }).ppid, 1, 'the second guest began as an orphan');
  for (const h of [h1, h2]) {
    const o = JSON.parse(h) as Record<string, unknown>;
    assert.match(String(o.exitFirst), /^error EPERM/, 'no exit report before becoming an agent');
    assert.ok(typeof o.begin === 'number' && o.begin <= 0.01, `asked $1e9 under a $0.01 parent, got ${String(o.begin)}`);
    assert.match(String(o.again), /^error EBUSY/);
    assert.match(String(o.bigMax), /^error EINVAL.*maxTokens above/);
    assert.equal(o.otherModel, true, 'a call naming another model runs (and is charged) as its own model');
    assert.equal(o.wideTool, 'REFUSED', 'a tool its parent does not have is refused');
  }
  const all = budgets(r.stdout);
  const trace = events(rest.filter((l) => l.startsWith('{')).join('\n'));
  const parent = all.get(parentPid)!;
  const guests = [...all.values()].filter((b) => b.pid !== parentPid);
  assert.equal(guests.length, 2);
  const guestSpend = guests.reduce((n, b) => n + b.spent, 0);
  assert.ok(guestSpend > 0 && parent.spent > guestSpend, `the guests' spend ($${guestSpend}) is in the parent's ($${parent.spent})`);
  assert.ok(parent.spent <= 0.01);
  // The parent's trace is the kernel's record of its own calls: nothing the guests said is in it but as tool output.
  assert.deepEqual(trace.map((e) => e.type), ['start', 'model_call', 'model_reply', 'tool_call', 'tool_result', 'model_call', 'model_reply', 'exit']);
  assert.equal(trace.at(-1)!.reason, 'completed');
  // The guests' own records: the model they are charged as, and the exit status they really had.
  const g = await vm.exec(guests.map((b) => `aos trace ${b.pid} | grep -c '"model":"mock:/tmp/h.jsonl"'; aos ps | grep "^${b.pid} " | cut -d" " -f5,6`).join('\n'));
  assert.equal(g.stdout, guests.map(() => '2\n97 CTX_OVERFLOW\n').join(''), 'the forged "exit 0 success" report does not stand against the real exit 97');
});

test('a model table the guest could have written is not charged by', async () => {
  await vm.writeFile('/tmp/ok.jsonl', script({ text: 'fine' }));
  // Root makes the table group-writable (an operator's mistake): the service refuses to price by it.
  const r = await vm.exec([
    'echo "x" >> /etc/aos/models.yaml; echo "write=$?"',
    'sudo -n chmod 666 /etc/aos/models.yaml',
    'aos run --mock /tmp/ok.jsonl go; echo "status=$?"',
    'sudo -n chmod 644 /etc/aos/models.yaml; aos run --mock /tmp/ok.jsonl go; echo "status=$?"',
  ].join('\n'));
  assert.match(r.stdout, /^write=1\nstatus=1\nfine\nstatus=0\n$/, r.stderr);
  assert.match(r.stderr, /aos: \/etc\/aos\/models\.yaml is not root's \(owner 0, mode 666\)/);
});

test('a mock script cannot stall the kernel with a backtracking match regex', async () => {
  await vm.writeFile('/tmp/redos.jsonl', script({ match: '^((a+))+$', text: 'never' }));
  await vm.writeFile('/tmp/redos2.jsonl', script({ match: '(x|xx)*y', text: 'never' }));
  const r = await vm.exec(`aos run --mock /tmp/redos.jsonl ${'a'.repeat(40)}!; echo "status=$?"; aos run --mock /tmp/redos2.jsonl ${'x'.repeat(40)}; echo "status=$?"; echo alive`);
  assert.equal(r.stdout, 'status=2\nstatus=2\nalive\n');
  assert.match(r.stderr, /mock script line 1: match is too complex/);
});

test("the operator's agent config is a ceiling: a budget or tool asked above it is not granted", async () => {
  await vm.writeFile('/tmp/cfg.jsonl', script({ text: '', tool_calls: [{ name: 'bash', arguments: { command: 'echo escaped' } }] }));
  const r = await vm.exec([
    "sudo -n sh -c 'mkdir -p /etc/aos/agents.d && printf \"model: mock\\nbudget: 0.02\\ntools: [read_file, list_dir]\\n\" > /etc/aos/agents.d/researcher.yaml'",
    'aos run researcher --budget 5 --tools bash,read_file --mock /tmp/cfg.jsonl go & p=$!; wait $p; echo "status=$?"; aos ps | grep "^$p " | cut -d" " -f2,7',
  ].join('\n'));
  assert.match(r.stdout, /^status=96\nresearcher \$0\.0000\d\d\/\$0\.020000\n$/, r.stderr);
  assert.match(r.stderr, /the model called bash, which is not among this agent's tools \(read_file\)/);
});

// Approval is I/O, wired into the agent runner (`aos`): a tool the agent's
// config marks `ask` waits as an intent until a different principal decides
// (the host's onApproval, or the operator's `sudo aos approve|reject`); the
// agent approving itself is EPERM; `ask_human` goes through
// /aos/channels/human; guest programs watch a live agent in /aos/procs/<pid>/.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';
import { events, script } from './helpers.js';
import { lateTraceEvent } from './late-trace.js';

const dec = new TextDecoder();
let vm: AgentVM;
before(async () => {
  vm = new AgentVM({});
  await vm.start();
  await vm.vm.mkdirp('/etc/aos/agents.d');
  // The operator's agent: bash runs only once a person said yes.
  await vm.vm.writeFile('/etc/aos/agents.d/careful.yaml', 'model: mock\ntools: [bash, write_file, read_file]\nask: [write_file]\n');
});
after(() => vm.stop());

/** Poll a guest command until `ok` holds for its stdout (an agent in the background gets there in its own time). */
async function until(cmd: string, ok: (out: string) => boolean): Promise<string> {
  let out = '';
  for (let i = 0; i < 200; i++) {
    out = (await vm.exec(cmd)).stdout;
    if (ok(out)) return out;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`${cmd}: never got there; last output ${JSON.stringify(out)}`);
}

test("an ask tool waits for the host's onApproval and runs once allowed", async () => {
  const seen: string[] = [];
  const host = new AgentVM({ onApproval: (req) => (seen.push(req.rule), req.rule === 'agent.ask:bash' ? 'once' : 'deny') });
  await host.start();
  try {
    await host.writeFile('/tmp/s.jsonl', script(
      { text: '', tool_calls: [{ name: 'bash', arguments: { command: 'echo ran > /tmp/ran; echo done' } }] },
      { text: 'finished', match: '^done' },
    ));
    const r = await host.exec('aos run --mock /tmp/s.jsonl --ask bash go & p=$!; wait $p; echo "status=$?"; aos trace $p');
    const [answer, status, ...trace] = r.stdout.split('\n');
    assert.equal(answer, 'finished', r.stderr);
    assert.equal(status, 'status=0');
    assert.deepEqual(seen, ['agent.ask:bash']);
    assert.equal(dec.decode(await host.readFile('/tmp/ran')), 'ran\n');
    const ev = events(trace.join('\n'));
    assert.deepEqual(ev.filter((e) => e.type === 'intent' || e.type === 'decision').map((e) => [e.type, e.tool, e.decision]), [['intent', 'bash', undefined], ['decision', 'bash', 'allow']]);
  } finally {
    await host.stop();
  }
});

test('the operator rejects with sudo aos reject; the agent approving its own intent is EPERM', async () => {
  await vm.writeFile('/tmp/approver.sh', String.raw`for i in $(seq 400); do id=$(aos pending | grep intent | sed 's/[^0-9]*//; s/[^0-9].*//'); [ -n "$id" ] && break; sleep 0.05; done; sudo aos approve $id; echo "self=$?"` + '\n');
  await vm.writeFile('/tmp/rej.jsonl', script(
    // Turn 1: a process of the agent's own tree (in the background) waits for the intent and tries to approve it.
    { text: '', tool_calls: [{ name: 'bash', arguments: { command: 'sh /tmp/approver.sh > /tmp/self 2>&1 &' } }] },
    { text: '', tool_calls: [{ name: 'write_file', arguments: { path: '/tmp/deploy', content: 'go' } }] },
    { text: 'not deployed', match: '^rejected' },
  ));
  const agent = vm.run(['/bin/sh', '-c', 'aos run careful --mock /tmp/rej.jsonl deploy & p=$!; echo $p > /tmp/rej.pid; wait $p; echo "status=$?"'], { timeoutMs: 30_000 });
  const self = await until('cat /tmp/self 2>/dev/null', (o) => o.includes('self='));
  assert.match(self, /Operation not permitted/);
  assert.match(self, /self=1/);
  const pid = (await vm.exec('cat /tmp/rej.pid')).stdout.trim();
  assert.equal((await vm.exec(`cat /aos/procs/${pid}/status`)).stdout, 'waiting_human\n');
  const pending = JSON.parse((await vm.exec(`cat /aos/procs/${pid}/intents/pending`)).stdout.trim().split('\n')[0]) as { id: number; tool: string };
  assert.equal(pending.tool, 'write_file');
  // Not root: EACCES; the operator: decided.
  assert.match((await vm.exec(`aos reject ${pending.id}`)).stderr, /Permission denied/);
  const rejected = await vm.exec(`sudo aos reject ${pending.id} not today`);
  assert.equal(rejected.exitCode, 0, rejected.stderr);
  assert.equal(dec.decode((await agent).stdout), 'not deployed\nstatus=0\n');
  assert.equal((await vm.exec('test -e /tmp/deploy; echo $?')).stdout, '1\n');
  const ev = events((await vm.exec(`aos trace ${pid}`)).stdout);
  assert.deepEqual(ev.find((e) => e.type === 'decision'), { ...ev.find((e) => e.type === 'decision'), tool: 'write_file', decision: 'deny' });
  const result = ev.filter((e) => e.type === 'tool_result')[1];
  assert.equal(result.is_error, true);
  assert.match(String(result.content), /^rejected: write_file needs a person's approval/);
});

test('ask_human: the question waits on /aos/channels/human until the operator answers; /aos/procs/<pid> while it runs', async () => {
  await vm.writeFile('/tmp/human.jsonl', script(
    { text: '', tool_calls: [{ name: 'ask_human', arguments: { question: 'Which colour?' } }], usage: { input_tokens: 10, output_tokens: 5 } },
    { text: 'painting it blue', match: '^blue' },
  ));
  const agent = vm.run(['/bin/sh', '-c', 'aos run --mock /tmp/human.jsonl paint & p=$!; echo $p > /tmp/human.pid; wait $p; echo "status=$?"'], { timeoutMs: 30_000 });
  const q = JSON.parse(await until('aos pending | grep colour', (o) => o.includes('"question"'))) as { question: number; pid: number; text: string };
  assert.equal(q.text, 'Which colour?');
  const pid = (await vm.exec('cat /tmp/human.pid')).stdout.trim();
  const dir = `/aos/procs/${pid}`;
  // Guest programs read the live agent: its status, trace so far, spend; ctl pauses and resumes it.
  const live = await vm.exec(`cat ${dir}/status; wc -l < ${dir}/trace.jsonl; cat ${dir}/budget/spent; echo pause > ${dir}/ctl; cat ${dir}/status; echo resume > ${dir}/ctl; cat ${dir}/status`);
  const [status, lines, spent, paused, resumed] = live.stdout.trim().split('\n');
  assert.equal(status, 'waiting_human', (await vm.exec(`aos ps; aos pending; ps -ef; echo ${pid}`)).stdout);
  assert.ok(Number(lines) >= 4, `trace lines ${lines}`);
  assert.ok(Number(spent) > 0, `spent ${spent}`);
  assert.equal(paused, 'paused');
  assert.equal(resumed, 'waiting_human');
  assert.equal((await vm.exec(`sudo aos answer ${q.question} blue`)).exitCode, 0);
  assert.equal(dec.decode((await agent).stdout), 'painting it blue\nstatus=0\n');
  const after = await vm.exec(`cat ${dir}/status; wc -l < ${dir}/trace.jsonl`);
  const [st, more] = after.stdout.trim().split('\n');
  assert.equal(st, 'exited');
  assert.ok(Number(more) > Number(lines), `trace grew: ${lines} -> ${more}`);
  const ev = events((await vm.exec(`aos trace ${pid}`)).stdout);
  assert.deepEqual(ev.filter((e) => e.type === 'question' || e.type === 'answer').map((e) => e.type), ['question', 'answer']);
  assert.equal(ev.find((e) => e.type === 'tool_result')?.content, 'blue\n');
});

test('a parent waiting for its child agent is waiting_child; the child narrows its tools by capabilities', async () => {
  await vm.writeFile('/tmp/family.jsonl', script(
    { text: '', tool_calls: [{ name: 'spawn_agent', arguments: { prompt: 'child: ask' } }], match: '^parent' },
    { text: '', tool_calls: [{ name: 'wait', arguments: {} }], match: '^started agent' },
    { text: '', tool_calls: [{ name: 'ask_human', arguments: { question: 'child asks' } }], match: '^child' },
    { text: 'child done', match: '^yes' },
    { text: 'parent done', match: 'child done' },
  ));
  const agent = vm.run(['/bin/sh', '-c', 'aos run --tools spawn_agent,wait,ask_human,bash --mock /tmp/family.jsonl parent & p=$!; echo $p > /tmp/family.pid; wait $p; echo "status=$?"'], { timeoutMs: 30_000 });
  const q = JSON.parse(await until('aos pending | grep "child asks"', (o) => o.includes('child asks'))) as { question: number; pid: number };
  const parent = (await vm.exec('cat /tmp/family.pid')).stdout.trim();
  await until(`cat /aos/procs/${parent}/status`, (o) => o === 'waiting_child\n');
  const child = (await vm.exec(`aos ps | awk '$1 != ${parent} && $1 != "PID" && $4 != "exited" {print $1}'`)).stdout.trim();
  assert.equal((await vm.exec(`cat /aos/procs/${child}/status`)).stdout, 'waiting_human\n');
  // The parent's tools, intersected through the capabilities the child inherited.
  const info = JSON.parse((await vm.exec(`aos trace ${child} | head -1`)).stdout) as { tools: string[] };
  assert.deepEqual(info.tools, ['bash', 'spawn_agent', 'wait', 'ask_human']);
  await vm.exec(`sudo aos answer ${q.question} yes`);
  assert.equal(dec.decode((await agent).stdout), 'parent done\nstatus=0\n');
});

test('vm.agents: run and wait, list, trace events as they come, approve an intent as the host', async () => {
  await vm.writeFile('/tmp/api.jsonl', script(
    { text: '', tool_calls: [{ name: 'write_file', arguments: { path: '/tmp/api-out', content: 'ok' } }] },
    { text: 'written', match: '^wrote' },
  ));
  const events: string[] = [];
  const off = vm.agents.on('trace', (e) => {
    events.push(`${e.pid}:${String(e.event.type)}`);
    // Approve the intent as the host once the trace shows it.
    if (e.event.type === 'intent' && (e.event.arguments as { path?: string }).path === '/tmp/api-out') void vm.agents.approve(Number(e.event.id), true, 'fine');
  });
  try {
    const a = await vm.agents.run('write it', { mock: '/tmp/api.jsonl', tools: ['write_file'], ask: ['write_file'] });
    const r = await a.wait();
    assert.deepEqual(r, { code: 0, answer: 'written\n', stderr: '' });
    const info = (await vm.agents.list()).find((x) => x.pid === a.pid);
    assert.equal(info?.exit?.name, 'SUCCESS');
    assert.deepEqual(info?.tools, ['write_file']);
    const trace = (await vm.agents.trace(a.pid)).map((e) => e.type);
    assert.ok(trace.includes('decision'));
    for (let i = 0; i < 50 && !events.includes(`${a.pid}:exit`); i++) await new Promise((res) => setTimeout(res, 50));
    assert.deepEqual(events.filter((e) => e.startsWith(`${a.pid}:`)).map((e) => e.split(':')[1]), trace);
    assert.equal(dec.decode(await vm.readFile('/tmp/api-out')), 'ok');
  } finally {
    off();
  }
});

test('vm.agents: pending shows an ask_human question, answer replies as the host; signal pauses, resumes and kills', async () => {
  await vm.writeFile('/tmp/q.jsonl', script(
    { text: '', tool_calls: [{ name: 'ask_human', arguments: { question: 'Which colour?' } }] },
    { text: 'blue it is', match: '^blue' },
  ));
  const a = await vm.agents.run('pick', { mock: '/tmp/q.jsonl' });
  let q = (await vm.agents.pending()).questions.find((x) => x.question === 'Which colour?');
  for (let i = 0; i < 200 && !q; i++) {
    await new Promise((r) => setTimeout(r, 25));
    q = (await vm.agents.pending()).questions.find((x) => x.question === 'Which colour?');
  }
  assert.ok(q, 'the question is pending');
  await vm.agents.answer(q.id, 'blue');
  assert.deepEqual(await a.wait(), { code: 0, answer: 'blue it is\n', stderr: '' });
  await assert.rejects(vm.agents.answer(q.id, 'again'), /no pending question/);

  await vm.writeFile('/tmp/long.jsonl', script({ text: '', tool_calls: [{ name: 'bash', arguments: { command: 'sleep 60' } }] }));
  const b = await vm.agents.run('wait', { mock: '/tmp/long.jsonl' });
  const status = async (want: string) => {
    let s: string | undefined;
    for (let i = 0; i < 200 && s !== want; i++) {
      s = (await vm.agents.list()).find((x) => x.pid === b.pid)?.status;
      if (s !== want) await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal(s, want);
  };
  await status('running');
  await vm.agents.signal(b.pid, 'STOP');
  await status('paused');
  await vm.agents.signal(b.pid, 'CONT');
  await status('running');
  await vm.agents.signal(b.pid, 'KILL');
  assert.equal((await b.wait()).code, 137);
  await vm.exec('pkill -x sleep'); // its bash tool's child, left running by the KILL
  assert.equal((await vm.agents.list()).find((x) => x.pid === b.pid)?.exit?.name, 'KILLED');
});

test("vm.agents.on('trace'): an event recorded after the agent exited still reaches the subscriber", async () => {
  await lateTraceEvent(vm, 350);
});

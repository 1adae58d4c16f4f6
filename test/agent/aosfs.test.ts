// /aos through the real VFS of a kernel in this thread: the tree, the
// per-process files over agent records, ctl's signals, trace growth (what
// `tail -f` polls), intents and the human channel's blocking read.

import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { O_WRONLY, O_RDWR } from '../../src/abi/fcntl.js';
import { SIG_HANDLE, SIGUSR1 } from '../../src/abi/signal.js';
import type { Kernel } from '../../src/kernel/kernel.js';
import { WaitQueue } from '../../src/kernel/waitqueue.js';
import { agent, cat, Errno, errnoOf, errnoOfAsync, open, proc, readAll, sys, world, writeAs } from './aos-world.js';

const kernels: Kernel[] = [];
function boot(policy?: unknown): Kernel {
  const k = world(policy);
  kernels.push(k);
  return k;
}
after(() => kernels.forEach((k) => k.shutdown()));

test('the tree: agents from /etc/aos/agents.d, models from models.yaml, etc a view of /etc/aos', () => {
  const k = boot();
  const names = (path: string) => k.vfs.readdirOf(open(k, k.init.cred, path)).map((e) => e.name).filter((n) => n !== '.' && n !== '..').sort();
  assert.deepEqual(names('/aos'), ['agents', 'channels', 'cores', 'etc', 'models', 'procs', 'system']);
  assert.deepEqual(names('/aos/agents'), ['coder']);
  assert.deepEqual(names('/aos/agents/coder'), ['config', 'inbox', 'output', 'status']);
  assert.equal(cat(k, k.init.cred, '/aos/agents/coder/config'), 'model: mock\ntools: [bash]\n');
  assert.equal(cat(k, k.init.cred, '/aos/etc/agents.d/coder.yaml'), 'model: mock\ntools: [bash]\n');
  assert.equal(cat(k, k.init.cred, '/aos/models/mock/pricing'), 'input_usd_per_mtok: 1\noutput_usd_per_mtok: 2\n');
  assert.equal(cat(k, k.init.cred, '/aos/agents/coder/status'), 'idle\n');
  assert.equal(errnoOf(() => open(k, k.init.cred, '/aos/agents/nobody/status')), Errno.ENOENT);
  assert.equal(errnoOf(() => open(k, k.init.cred, '/aos/procs/4242/status')), Errno.ENOENT);
});

test('procs/<pid>: status, agent, ppid, budget, exit, output; owned by the process owner', () => {
  const k = boot();
  const sh = proc(k, k.init);
  const p = proc(k, sh, 1000, 'aos');
  const a = agent(k, p);
  const dir = `/aos/procs/${p.pid}`;
  assert.equal(cat(k, p, `${dir}/status`), 'running\n');
  assert.equal(cat(k, p, `${dir}/agent`), 'coder\n');
  assert.equal(cat(k, p, `${dir}/ppid`), `${sh.pid}\n`);
  assert.equal(cat(k, p, `${dir}/budget/limit`), '1\n');
  assert.equal(cat(k, p, `${dir}/budget/spent`), '0.25\n');
  assert.equal(cat(k, p, `${dir}/budget/tokens_limit`), 'unlimited\n');
  assert.equal(cat(k, p, `${dir}/budget/tokens_used`), '1234\n');
  assert.equal(cat(k, p, `${dir}/exit`), '');
  assert.equal(cat(k, p, '/aos/system/spend'), '0.25\n');
  assert.equal(cat(k, p, '/aos/agents/coder/status'), 'running\n');
  const st = k.vfs.stat(p.cred, k.vfs.root(), `${dir}/ctl`);
  assert.deepEqual([st.uid, st.mode & 0o777], [1000, 0o600]);
  k.agents.record(p.pid, { type: 'model_reply', text: 'the answer', stop_reason: 'end' });
  a.exit = { code: 96, name: 'REFUSED', reason: 'tool not allowed' };
  assert.equal(cat(k, p, `${dir}/status`), 'exited\n');
  assert.deepEqual(JSON.parse(cat(k, p, `${dir}/exit`)), { code: 96, name: 'REFUSED', reason: 'tool not allowed' });
  assert.equal(cat(k, p, '/aos/agents/coder/output'), 'the answer\n');
});

test('trace.jsonl grows while open: its size and a read from where the last one ended (what tail -f polls)', () => {
  const k = boot();
  const p = proc(k, k.init);
  agent(k, p);
  const path = `/aos/procs/${p.pid}/trace.jsonl`;
  k.agents.record(p.pid, { type: 'model_call', model: 'mock' });
  const f = open(k, p.cred, path);
  const first = readAll(f) as string;
  assert.equal(first.split('\n').filter(Boolean).length, 1);
  assert.equal(k.vfs.stat(p.cred, k.vfs.root(), path).size, first.length);
  k.agents.record(p.pid, { type: 'tool_call', name: 'bash' });
  assert.ok(k.vfs.stat(p.cred, k.vfs.root(), path).size > first.length);
  const more = readAll(f) as string;
  assert.equal(JSON.parse(more).type, 'tool_call');
  f.unref();
  // Another user may not read it.
  assert.equal(errnoOf(() => open(k, { uid: 1001, gid: 1001, pid: 99 }, path)), Errno.EACCES);
});

test('ctl: pause and resume are SIGSTOP and SIGCONT (status paused); unknown EINVAL; exited ESRCH', () => {
  const k = boot();
  const p = proc(k, k.init);
  const a = agent(k, p);
  const ctl = `/aos/procs/${p.pid}/ctl`;
  // A process that runs (stop needs a channel to park its next syscall on).
  (p as unknown as { channel: unknown }).channel = { flagSignals() {}, parked() {} };
  writeAs(k, p.cred, ctl, 'pause\n', O_WRONLY);
  assert.equal(p.state, 'T');
  assert.equal(cat(k, p, `/aos/procs/${p.pid}/status`), 'paused\n');
  writeAs(k, p.cred, ctl, 'resume\n', O_WRONLY);
  assert.notEqual(p.state, 'T');
  assert.equal(cat(k, p, `/aos/procs/${p.pid}/status`), 'running\n');
  assert.equal(errnoOf(() => writeAs(k, p.cred, ctl, 'explode\n', O_WRONLY)), Errno.EINVAL);
  // checkpoint is SIGUSR1, for an agent that catches it; one that does not would die of it.
  assert.equal(errnoOf(() => writeAs(k, p.cred, ctl, 'checkpoint\n', O_WRONLY)), Errno.ENOTSUP);
  p.dispositions[SIGUSR1] = SIG_HANDLE;
  writeAs(k, p.cred, ctl, 'checkpoint\n', O_WRONLY);
  assert.ok(p.alive);
  assert.ok(p.caught & (1 << SIGUSR1));
  a.exit = { code: 0, name: 'SUCCESS', reason: '' };
  assert.equal(errnoOf(() => writeAs(k, p.cred, ctl, 'stop\n', O_WRONLY)), Errno.ESRCH);
  const ctlEvents = a.trace.map((l) => JSON.parse(l)).filter((e) => e.type === 'ctl').map((e) => e.command);
  assert.deepEqual(ctlEvents, ['pause', 'resume', 'checkpoint']);
});

test('intents: ask parks the agent (waiting_human, intents/pending) until root decides; the decision is audited and traced', async () => {
  const k = boot();
  const sh = proc(k, k.init);
  const p = proc(k, sh, 1000, 'aos');
  const a = agent(k, p);
  const asked = sys(k, p, 'aosctl', 'ask', { id: 'c1', name: 'bash', arguments: { command: 'rm -rf /work' } });
  await Promise.resolve();
  assert.equal(a.status, 'waiting_human');
  const pending = cat(k, p, `/aos/procs/${p.pid}/intents/pending`);
  const intent = JSON.parse(pending) as { id: number; tool: string };
  assert.equal(intent.tool, 'bash');
  assert.equal(cat(k, p, `/aos/procs/${p.pid}/status`), 'waiting_human\n');
  // The operator: root, outside the agent's tree.
  const op = proc(k, k.init, 0, 'aosctl');
  await sys(k, op, 'aosctl', 'decide', intent.id, false, 'too risky');
  assert.equal(await asked, 'deny');
  assert.equal(a.status, 'running');
  assert.equal(cat(k, p, `/aos/procs/${p.pid}/intents/pending`), '');
  const trail = k.policy.audit.since(0).filter((e) => e.type === 'approval');
  assert.ok(trail.some((e) => e.intent === intent.id && e.decision === 'deny' && e.reason === 'too risky'));
  const decision = a.trace.map((l) => JSON.parse(l)).find((e) => e.type === 'decision');
  assert.equal(decision.decision, 'deny');
  // An approval runs the tool: 'allow'.
  const again = sys(k, p, 'aosctl', 'ask', { id: 'c2', name: 'bash', arguments: { command: 'ls' } });
  await Promise.resolve();
  const id = (k.policy.approvals.list().at(-1))!.id;
  await sys(k, k.init, 'aosctl', 'decide', id, true, '');
  assert.equal(await again, 'allow');
  assert.equal(await errnoOfAsync(sys(k, op, 'aosctl', 'decide', id, true, '')), Errno.ENOENT);
});

test('channels/human: a question written then read blocks until the operator answers', async () => {
  const k = boot();
  const sh = proc(k, k.init);
  const p = proc(k, sh, 1000, 'aos');
  const a = agent(k, p);
  const f = open(k, p.cred, '/aos/channels/human', O_RDWR);
  f.ops.write(f, new TextEncoder().encode('May I delete /tmp/x?'));
  const blocked = readAll(f);
  assert.ok(blocked instanceof WaitQueue);
  assert.equal(a.status, 'waiting_human');
  // The operator sees the question (a reader with none of its own) and answers it.
  const op = proc(k, k.init, 0, 'aosctl');
  const listed = JSON.parse(cat(k, op, '/aos/channels/human')) as { id: number; question: string };
  assert.equal(listed.question, 'May I delete /tmp/x?');
  await sys(k, op, 'aosctl', 'answer', listed.id, 'yes');
  assert.equal(readAll(f), 'yes\n');
  assert.equal(a.status, 'running');
  f.unref();
  assert.equal(cat(k, op, '/aos/channels/human'), '');
});

// /aos and the agent boundary against a hostile guest: an agent cannot
// approve its own intents (nor can anything it runs), the operator's config
// cannot be written through /aos, another user's agent cannot be
// controlled, an inbox takes no oversized or renamed-in message, and a
// process's capabilities never widen: a child is never wider than its parent.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Restriction } from '../../src/abi/aos.js';
import { O_WRONLY } from '../../src/abi/fcntl.js';
import { AgentVM } from '../../src/host/node/index.js';
import type { Kernel } from '../../src/kernel/kernel.js';
import { Process } from '../../src/kernel/process.js';
import { intersect, restrict } from '../../src/kernel/policy/restrict.js';
import { agent, cat, Errno, errnoOf, errnoOfAsync, proc, sys, world, writeAs } from '../agent/aos-world.js';

const kernels: Kernel[] = [];
function boot(): Kernel {
  const k = world();
  kernels.push(k);
  return k;
}

let vm: AgentVM;
before(async () => {
  vm = new AgentVM({});
  await vm.start();
  await vm.vm.mkdirp('/etc/aos/agents.d');
  await vm.vm.writeFile('/etc/aos/agents.d/coder.yaml', 'model: mock\ntools: [bash]\n');
});
after(async () => {
  kernels.forEach((k) => k.shutdown());
  await vm.stop();
});

/** An agent (pid p) waiting on an intent; returns its id. */
async function pendingIntent(k: Kernel, p: Process): Promise<{ id: number; asked: Promise<unknown> }> {
  const asked = sys(k, p, 'aosctl', 'ask', { id: 'c', name: 'bash', arguments: { command: 'rm -rf /' } });
  await Promise.resolve();
  const pending = JSON.parse(cat(k, p, `/aos/procs/${p.pid}/intents/pending`)) as { id: number };
  return { id: pending.id, asked };
}

test('self-approval: the agent, its tools (root ones too) and another agent get EPERM; the intent stays pending', async () => {
  const k = boot();
  const sh = proc(k, k.init);
  const p = proc(k, sh, 1000, 'aos');
  agent(k, p);
  const { id, asked } = await pendingIntent(k, p);
  assert.equal(await errnoOfAsync(sys(k, p, 'aosctl', 'decide', id, true, 'me')), Errno.EPERM);
  const tool = proc(k, p, 0, 'sudo'); // a tool that became root
  assert.equal(await errnoOfAsync(sys(k, tool, 'aosctl', 'decide', id, true, '')), Errno.EPERM);
  const grandchild = proc(k, tool, 0, 'sh');
  assert.equal(await errnoOfAsync(sys(k, grandchild, 'aosctl', 'decide', id, true, '')), Errno.EPERM);
  const other = proc(k, k.init, 0, 'aos');
  agent(k, other, 'reviewer');
  assert.equal(await errnoOfAsync(sys(k, other, 'aosctl', 'decide', id, true, '')), Errno.EPERM);
  // Not root, outside any agent: EACCES.
  assert.equal(await errnoOfAsync(sys(k, sh, 'aosctl', 'decide', id, true, '')), Errno.EACCES);
  assert.equal(JSON.parse(cat(k, p, `/aos/procs/${p.pid}/intents/pending`)).id, id);
  const refusals = k.policy.audit.since(0).filter((e) => e.rule === 'aos.approver');
  assert.equal(refusals.length, 4);
  // The operator decides.
  await sys(k, proc(k, k.init, 0, 'aosctl'), 'aosctl', 'decide', id, true, '');
  assert.equal(await asked, 'allow');
});

test('self-approval by a double fork: a process of the agent adopted by init is still in its tree (EPERM)', async () => {
  await vm.vm.writeFile('/etc/aos/agents.d/careful.yaml', 'model: mock\ntools: [bash, write_file]\nask: [write_file]\n');
  // The approver leaves the agent's tree by the ppid chain: its parent (the bash tool's shell) exits, init adopts it.
  await vm.writeFile('/tmp/approver.sh', String.raw`for i in $(seq 400); do id=$(aos pending | grep intent | sed 's/[^0-9]*//; s/[^0-9].*//'); [ -n "$id" ] && break; sleep 0.05; done; echo "ppid=$(awk '{print $4}' /proc/$$/stat)"; sudo aos approve $id; echo "self=$?"` + '\n');
  await vm.writeFile('/tmp/df.jsonl', [
    { text: '', tool_calls: [{ name: 'bash', arguments: { command: '(sh /tmp/approver.sh > /tmp/df.out 2>&1 &)' } }] },
    { text: '', tool_calls: [{ name: 'write_file', arguments: { path: '/tmp/df-written', content: 'x' } }] },
    { text: 'done' },
  ].map((t) => JSON.stringify(t)).join('\n'));
  const agentRun = vm.run(['/bin/sh', '-c', 'aos run careful --mock /tmp/df.jsonl go'], { timeoutMs: 30_000 });
  let out = '';
  for (let i = 0; i < 400 && !out.includes('self='); i++) {
    out = (await vm.exec('cat /tmp/df.out 2>/dev/null')).stdout;
    if (!out.includes('self=')) await new Promise((r) => setTimeout(r, 50));
  }
  assert.match(out, /^ppid=1$/m);
  assert.match(out, /Operation not permitted/);
  assert.match(out, /^self=1$/m);
  const id = (await vm.exec("aos pending | grep intent | sed 's/[^0-9]*//; s/[^0-9].*//'")).stdout.trim();
  assert.notEqual(id, '');
  assert.equal((await vm.exec(`sudo aos reject ${id}`)).exitCode, 0);
  await agentRun;
  assert.equal((await vm.exec('test -e /tmp/df-written; echo $?')).stdout, '1\n');
});

test("the VM policy's own asks stay the host's: aosctl cannot answer them, even as root", async () => {
  const k = boot();
  let asked = 0;
  void k.policy.approve('fs.ask:/home', 'write /home/x', 5).then(() => asked++);
  const req = k.policy.approvals.list()[0];
  assert.equal(await errnoOfAsync(sys(k, proc(k, k.init, 0), 'aosctl', 'decide', req.id, true, '')), Errno.ENOENT);
  assert.equal(k.policy.approvals.list().length, 1);
  assert.equal(asked, 0);
  k.policy.approvals.withdraw(req.id);
});

test('a question on channels/human cannot be answered from inside an agent tree', async () => {
  const k = boot();
  const p = proc(k, k.init, 1000, 'aos');
  agent(k, p);
  writeAs(k, p.cred, '/aos/channels/human', 'proceed?', O_WRONLY);
  const q = JSON.parse(cat(k, proc(k, k.init, 0), '/aos/channels/human')) as { id: number };
  assert.equal(await errnoOfAsync(sys(k, proc(k, p, 0), 'aosctl', 'answer', q.id, 'yes')), Errno.EPERM);
  assert.equal(await errnoOfAsync(sys(k, p, 'aosctl', 'answer', q.id, 'yes')), Errno.EPERM);
});

test('config is read-only through /aos for the user and for root (EROFS); the source stays as it was', async () => {
  const r = await vm.exec('echo "model: opus" > /aos/agents/coder/config; echo "user $?"; sudo sh -c \'echo x >> /aos/agents/coder/config; echo "root $?"\'; truncate -s 0 /aos/agents/coder/config; echo "truncate $?"; cat /etc/aos/agents.d/coder.yaml');
  assert.equal(r.stdout, 'user 1\nroot 1\ntruncate 1\nmodel: mock\ntools: [bash]\n', r.stderr);
  assert.match(r.stderr, /Read-only file system/);
  assert.doesNotMatch(r.stderr, /Permission denied/);
  // The source itself is root's: the user cannot change it either.
  const w = await vm.exec('echo x >> /aos/etc/agents.d/coder.yaml; echo $?');
  assert.equal(w.stdout, '1\n');
  assert.match(w.stderr, /Permission denied/);
});

test("another user's ctl: EACCES to open for writing; root may", () => {
  const k = boot();
  const p = proc(k, k.init, 1000, 'aos');
  agent(k, p);
  const ctl = `/aos/procs/${p.pid}/ctl`;
  assert.equal(errnoOf(() => writeAs(k, { uid: 1001, gid: 1001, pid: 77 }, ctl, 'kill\n', O_WRONLY)), Errno.EACCES);
  assert.ok(p.alive);
  // Nothing can be created or removed in /aos either.
  assert.equal(errnoOf(() => writeAs(k, { uid: 0, gid: 0, pid: 78 }, `/aos/procs/${p.pid}/new`, 'x')), Errno.EPERM);
  writeAs(k, k.init.cred, ctl, 'kill\n', O_WRONLY);
  assert.ok(!p.alive);
});

test('inbox: more than 64 KiB is EFBIG and starts nothing; renaming into it is EPERM; an agent tree may not write one', async () => {
  const r = await vm.exec('head -c 65537 /dev/zero > /aos/agents/coder/inbox; echo "big $?"; head -c 65536 /dev/zero | tr "\\0" a > /aos/agents/coder/inbox; echo "max $?"; echo hi > /tmp/p; mv /tmp/p /aos/agents/coder/inbox; echo "mv $?"; mv -f /tmp/p /aos/agents/coder/new; echo "new $?"; ls /tmp/p');
  assert.equal(r.stdout, 'big 1\nmax 0\nmv 1\nnew 1\n/tmp/p\n', r.stderr);
  assert.match(r.stderr, /File too large/);
  assert.match(r.stderr, /Operation not permitted/);
  const sent = (await vm.audit()).filter((e) => e.aosInbox === 'coder').map((e) => e.bytes);
  assert.deepEqual(sent, [65536]);
  const k = boot();
  const p = proc(k, k.init, 1000, 'aos');
  agent(k, p);
  assert.equal(errnoOf(() => writeAs(k, proc(k, p).cred, '/aos/agents/coder/inbox', 'go', O_WRONLY)), Errno.EPERM);
});

/** A small deterministic generator (no flaky property tests). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const TOOLS = ['bash', 'read_file', 'write_file', 'edit_file', 'list_dir', 'spawn_agent', 'wait', 'ask_human'];
const CMDS = ['/bin/ls', '/bin/cat', '/bin/rm', '/usr/bin/git', '/bin/sh'];
const PATHS = ['/home', '/etc', '/tmp/a', '/work', '/aos'];

function randomRestriction(r: () => number): Restriction {
  const pick = (xs: string[]) => xs.filter(() => r() < 0.5);
  const out: Restriction = {};
  if (r() < 0.6) out.tools = pick(TOOLS);
  if (r() < 0.6) out.commands = pick(CMDS);
  if (r() < 0.5) out.readOnly = pick(PATHS);
  if (r() < 0.5) out.hidden = pick(PATHS);
  if (r() < 0.3) out.network = 'none';
  return out;
}

/** `c` allows nothing `p` does not. */
function notWider(c: Restriction, p: Restriction): boolean {
  const sub = (x?: string[], y?: string[]) => (y === undefined ? true : x !== undefined && x.every((s) => y.includes(s)));
  const sup = (x?: string[], y?: string[]) => (y ?? []).every((s) => (x ?? []).includes(s));
  return sub(c.tools, p.tools) && sub(c.commands, p.commands) && sup(c.readOnly, p.readOnly) && sup(c.hidden, p.hidden) && (p.network !== 'none' || c.network === 'none');
}

test('property: over random restrictions, a child (and its children) is never wider than its parent', () => {
  const k = boot();
  const r = rng(19);
  for (let round = 0; round < 300; round++) {
    const parent = proc(k, k.init);
    restrict(k, parent, { tools: randomRestriction(r).tools ?? TOOLS });
    restrict(k, parent, randomRestriction(r));
    const child = new Process(k.procs.allocPid(), k.vfs.root(), parent);
    // The child tries to widen: ask for everything, then something random.
    restrict(k, child, { tools: TOOLS, commands: CMDS });
    restrict(k, child, randomRestriction(r));
    const grandchild = new Process(k.procs.allocPid(), k.vfs.root(), child);
    const pr = parent.caps!.r;
    assert.ok(notWider(child.caps!.r, pr), `round ${round}: ${JSON.stringify(child.caps!.r)} wider than ${JSON.stringify(pr)}`);
    assert.ok(notWider(grandchild.caps!.r, child.caps!.r));
    assert.ok(notWider(intersect(pr, randomRestriction(r)), pr));
    k.procs.remove(parent);
  }
});

test('outside its capabilities: a command, a hidden or read-only path, the network are refused (EACCES/ENOENT/EROFS)', async () => {
  const B = '/opt/agentos/bin';
  const run = await vm.exec(`aosctl restrict '{"commands":["${B}/ls","${B}/aosctl"]}' bash -c 'ls / >/dev/null && echo ls-ok; cat /etc/hostname; echo "cat $?"; aosctl restrict "{\\"commands\\":[\\"${B}/cat\\",\\"${B}/aosctl\\"]}"; aosctl restrict "{\\"commands\\":[\\"${B}/cat\\"]}" bash -c "cat /etc/hostname; echo cat2 \\$?"'`);
  assert.equal(run.stdout, 'ls-ok\ncat 126\n{"commands":["/opt/agentos/bin/aosctl"]}\ncat2 126\n', run.stderr);
  assert.match(run.stderr, /Permission denied/);
  const fs = await vm.exec(`mkdir -p ~/ro ~/secret && echo s > ~/secret/k && aosctl restrict '{"readOnly":["/home/user/ro"],"hidden":["/home/user/secret"]}' bash -c 'touch ~/ro/x; echo "ro $?"; cat ~/secret/k; echo "hidden $?"; ls ~ | tr "\\n" " "; echo; touch ~/ok; echo "ok $?"'; cat ~/secret/k`);
  assert.equal(fs.stdout, 'ro 1\nhidden 1\nro \nok 0\ns\n', fs.stderr);
  assert.match(fs.stderr, /Read-only file system/);
  assert.match(fs.stderr, /No such file or directory/);
  // (The VM's own network is 'none' too: the audit trail says which rule refused.)
  const net = await vm.exec(`aosctl restrict '{"network":"none"}' curl -sS http://127.0.0.1:9/; echo "curl $?"`);
  assert.notEqual(net.stdout, 'curl 0\n');
  const trail = (await vm.audit()).filter((e) => typeof e.rule === 'string' && (e.rule as string).startsWith('capabilities.'));
  assert.ok(trail.some((e) => e.rule === 'capabilities.commands'));
  assert.ok(trail.some((e) => e.rule === 'capabilities.network'));
});

test("a refusal is recorded in the agent's trace as REFUSED", () => {
  const k = boot();
  const p = proc(k, k.init, 1000, 'aos');
  const a = agent(k, p);
  restrict(k, p, { readOnly: ['/etc'] });
  const tool = new Process(k.procs.allocPid(), k.vfs.root(), p);
  tool.uid = 0;
  k.procs.add(tool);
  assert.equal(errnoOf(() => writeAs(k, tool.cred, '/etc/passwd', 'x')), Errno.EROFS);
  const refused = a.trace.map((l) => JSON.parse(l)).filter((e) => e.type === 'refused');
  assert.equal(refused.length, 1);
  assert.equal(refused[0].exit, 'REFUSED');
  assert.equal(refused[0].pid, tool.pid);
});

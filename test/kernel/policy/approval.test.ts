// Human approval and the host channel on the Node host: `ask`
// rules block in the kernel until the host answers; once/always/never/deny
// and timeouts behave as documented; the guest cannot answer for the host,
// cannot drive the kernel's channel, and cannot spoof the exec sentinel.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentVM } from '../../../src/host/node/index.js';
import type { Answer, ApprovalRequest } from '../../../src/host/node/index.js';
import { sealEndpoint } from '../../../src/host/sealed-endpoint.js';
import { nodeEndpoint } from '../../../src/host/node/endpoint.js';
import { MessageChannel } from 'node:worker_threads';

/** onApproval answering from a script, recording what it was asked. */
function scripted(answers: Answer[]) {
  const asked: ApprovalRequest[] = [];
  return {
    asked,
    onApproval: (req: ApprovalRequest): Answer => {
      asked.push(req);
      return answers.shift() ?? 'deny';
    },
  };
}

test('fs ask: once, deny, always and never, each for the rule; EACCES with a clear message', async () => {
  const s = scripted(['once', 'once', 'deny', 'always']);
  const vm = new AgentVM({ policy: { fs: { ask: ['/home/user/project'] } }, onApproval: s.onApproval });
  await vm.start();
  try {
    assert.equal((await vm.exec('mkdir ~/project && echo one > ~/project/a; echo "status $?"')).stdout, 'status 0\n');
    assert.equal(s.asked.length, 2, 'mkdir asked, then the file in the new (now marked) directory');
    assert.equal(s.asked[0].rule, 'fs.ask:/home/user/project');
    assert.match(s.asked[0].detail, /project/);
    // The next change asks again and is denied.
    const denied = await vm.exec('echo two > ~/project/a');
    assert.notEqual(denied.exitCode, 0);
    assert.match(denied.stderr, /Permission denied/);
    assert.equal((await vm.exec('cat ~/project/a')).stdout, 'one\n');
    // 'always': allowed now and from now on, without asking.
    assert.equal((await vm.exec('echo three > ~/project/a && rm ~/project/a && echo ok')).stdout, 'ok\n');
    const n = s.asked.length;
    await vm.exec('touch ~/project/b ~/project/c');
    assert.equal(s.asked.length, n);
    const trail = await vm.audit();
    const answers = trail.filter((e) => e.type === 'approval').map((e) => e.answer);
    assert.deepEqual(answers, ['once', 'once', 'deny', 'always']);
  } finally {
    await vm.stop();
  }
});

test('one syscall that meets two ask rules asks each once, and a once lasts that one syscall', async () => {
  const s = scripted(['once', 'once', 'deny']);
  const vm = new AgentVM({ policy: { fs: { ask: ['/home/user/a', '/home/user/b'] } }, onApproval: s.onApproval });
  await vm.start();
  try {
    await vm.vm.mkdirp('/home/user/a');
    await vm.vm.mkdirp('/home/user/b');
    await vm.vm.syscall('chown', '/home/user/a', 1000, 1000);
    await vm.vm.syscall('chown', '/home/user/b', 1000, 1000);
    await vm.vm.writeFile('/home/user/a/x', 'x\n');
    await vm.vm.syscall('chown', '/home/user/a/x', 1000, 1000);
    // rename(2) out of a and into b: two rules, two questions, one syscall.
    const r = await vm.exec('mv ~/a/x ~/b/x; echo "status $?"');
    assert.equal(r.stdout, 'status 0\n', r.stderr);
    assert.deepEqual((await vm.vm.readdir('/home/user/b')).map((e) => e.name), ['.', '..', 'x']);
    assert.deepEqual(s.asked.map((q) => q.rule), ['fs.ask:/home/user/a', 'fs.ask:/home/user/b']);
    // The next syscall asks again.
    assert.notEqual((await vm.exec('rm ~/b/x')).exitCode, 0);
    assert.equal(s.asked.length, 3);
  } finally {
    await vm.stop();
  }
});

test('command ask: never is remembered for the rule; other commands run', async () => {
  const s = scripted(['never']);
  const vm = new AgentVM({ policy: { processes: { ask: ['/opt/agentos/bin/rm'] } }, onApproval: s.onApproval });
  await vm.start();
  try {
    await vm.exec('touch ~/keep');
    const r = await vm.exec('rm ~/keep; echo "status $?"');
    assert.equal(r.stdout, 'status 126\n');
    assert.match(r.stderr, /Permission denied/);
    assert.equal((await vm.exec('rm ~/keep; ls ~/keep')).stdout, '/home/user/keep\n');
    assert.equal(s.asked.length, 1, 'never: not asked again');
    assert.equal((await vm.exec('ls ~/keep')).exitCode, 0);
  } finally {
    await vm.stop();
  }
});

test('no answer in time is a denial, and the VM keeps running', async () => {
  const vm = new AgentVM({
    policy: { fs: { ask: ['/home/user/slow'] }, approvalTimeoutMs: 300 },
    onApproval: () => new Promise<Answer>(() => {}),
  });
  await vm.start();
  try {
    const t0 = Date.now();
    const r = await vm.exec('mkdir ~/slow; echo "status $?"');
    assert.equal(r.stdout, 'status 1\n');
    assert.ok(Date.now() - t0 < 5000);
    assert.equal((await vm.audit()).find((e) => e.type === 'approval')?.answer, 'timeout');
    assert.equal((await vm.exec('echo fine')).stdout, 'fine\n');
  } finally {
    await vm.stop();
  }
});

test('the guest cannot answer for the host', async () => {
  const s = scripted(['deny', 'deny', 'deny']);
  const vm = new AgentVM({ policy: { fs: { ask: ['/home/user/p'] }, approvalTimeoutMs: 2000 }, onApproval: s.onApproval });
  await vm.start();
  try {
    // Nothing in the VM names the approval machinery: /proc/agentos is read-only and has no answer file.
    for (const cmd of ['echo always > /proc/agentos/approve', 'echo "{\\"answer\\":\\"always\\"}" > /proc/agentos/audit', 'ls /proc/agentos']) {
      const r = await vm.exec(cmd);
      assert.ok(r.exitCode !== 0 || r.stdout === 'audit\n', cmd);
    }
    // A program trying every way to reach the kernel's port.
    await vm.writeFile('/tmp/forge.js', `#!/usr/libexec/agentos/js
const out = [];
for (const name of ['postMessage', 'require', 'parentPort']) out.push(name + ':' + typeof globalThis[name]);
out.push('process.binding:' + (() => { try { return typeof globalThis.process.binding('messaging'); } catch { return 'refused'; } })());
try { const wt = await import('node:worker_threads'); wt.parentPort.postMessage({ type: 'answer' }); out.push('import:ok'); } catch (e) { out.push('import:failed'); }
agentos.print(out.join(' ') + '\\n');
`);
    const forge = await vm.exec('chmod +x /tmp/forge.js; /tmp/forge.js; mkdir ~/p; echo "status $?"');
    assert.match(forge.stdout, /postMessage:undefined require:undefined parentPort:undefined process.binding:refused import:failed\nstatus 1\n/);
    // The host's own channel: an answer for a request that does not exist is refused.
    assert.equal(await vm.vm.answerApproval(9999, 'always'), false);
  } finally {
    await vm.stop();
  }
});

test('the control channel ignores messages without the VM secret', async () => {
  const { port1, port2 } = new MessageChannel();
  const a = sealEndpoint(nodeEndpoint(port1), 'secret-a');
  const got: unknown[] = [];
  a.addEventListener('message', ((ev: MessageEvent) => got.push(ev.data)) as unknown as EventListener);
  port2.postMessage({ type: 'forged' });
  port2.postMessage({ __agentosSecret: 'guess', msg: { type: 'forged2' } });
  sealEndpoint(nodeEndpoint(port2), 'secret-a').postMessage({ type: 'real' });
  await new Promise((ok) => setTimeout(ok, 50));
  assert.deepEqual(got, [{ type: 'real' }]);
  port1.close();
});

test('the exec sentinel cannot be spoofed, nor the session shell\'s stdin read', async () => {
  const vm = new AgentVM();
  await vm.start();
  try {
    const r = await vm.exec('printf "\\0AOS-END:deadbeef:0\\n"; printf "\\0AOS-END:deadbeef\\n" >&2; echo after; exit_code() { return 7; }; exit_code');
    assert.equal(r.exitCode, 7);
    assert.match(r.stdout, /after\n$/);
    // Stealing the next frame (and its token) from the shell's stdin.
    const steal = await vm.exec('cat /proc/$$/fd/0; echo "status $?"');
    assert.match(steal.stdout, /status 1/);
    assert.match(steal.stderr, /Permission denied/);
    assert.equal((await vm.exec('echo next')).stdout, 'next\n');
  } finally {
    await vm.stop();
  }
});

// kernelBackendIO: a backend's requests take the kernel's own network path
// (net/request.ts) as the process's `http` syscall does — the network policy,
// `ask` approvals, the audit trail, the host's fetch (Node's, here) — so a
// host the policy denies fails with the policy's error and never sees the
// request. A kernel in this thread (no process workers) over a fake provider.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Errno, SysError } from '../../src/abi/errno.js';
import { O_CREAT, O_WRONLY } from '../../src/abi/fcntl.js';
import type { ModelRequest } from '../../src/abi/agent.js';
import { nodeFetch } from '../../src/host/node/worker/net-fetch.js';
import { openaiBackend } from '../../src/kernel/agent/backends/openai.js';
import { kernelBackendIO } from '../../src/kernel/agent/io.js';
import { FifoTable } from '../../src/kernel/fifo.js';
import { MemFs } from '../../src/kernel/fs/memfs.js';
import { Kernel } from '../../src/kernel/kernel.js';
import { NetPolicy } from '../../src/kernel/net/policy.js';
import { NetStack } from '../../src/kernel/net/stack.js';
import type { NetworkPolicy } from '../../src/api/policy.js';
import { Vfs } from '../../src/kernel/vfs/vfs.js';
import { fakeProvider, sse, type FakeProvider } from './fake-provider.js';

let srv: FakeProvider;
before(async () => {
  srv = await fakeProvider();
});
after(() => srv.close());

const idleWorker = () => ({ post() {}, onMessage() {}, onError() {}, terminate() {} });

function kernel(network: NetworkPolicy, fetch: typeof nodeFetch | null): Kernel {
  const fifos = new FifoTable();
  return new Kernel({ vfs: new Vfs(new MemFs(), { openFifo: (i, f) => fifos.open(i, f) }), fifos, workers: idleWorker, warmWorkers: 0, net: new NetStack(new NetPolicy(network), fetch) });
}

const REQ: ModelRequest = { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], tools: [], maxTokens: 16 };
const OK = sse([[null, { choices: [{ index: 0, delta: { content: 'hello' }, finish_reason: 'stop' }] }], [null, '[DONE]']]);
const backend = () => openaiBackend({ baseUrl: `${srv.base}/v1`, retry: { attempts: 1 } });

async function withKernel(network: NetworkPolicy, fn: (k: Kernel) => Promise<void>, fetch: typeof nodeFetch | null = nodeFetch): Promise<void> {
  const k = kernel(network, fetch);
  try {
    await fn(k);
  } finally {
    k.shutdown();
  }
}

const trail = (k: Kernel) => k.policy.audit.jsonl().trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.type === 'network');

test('an allowed host: the backend streams its reply through the kernel, and the request is audited', () => withKernel({ allow: [srv.base] }, async (k) => {
  srv.script({ pieces: [OK] });
  const reply = await backend().complete(REQ, kernelBackendIO(k, k.init.pid, new AbortController().signal));
  assert.equal(reply.text, 'hello');
  assert.deepEqual(trail(k).map((e) => [e.pid, e.method, e.url, e.decision]), [[k.init.pid, 'POST', `${srv.base}/v1/chat/completions`, 'allow']]);
}));

test('a host the network policy denies fails with the policy\'s error, and never sees the request', () => withKernel({ allow: ['api.openai.com'] }, async (k) => {
  const denied = openaiBackend({ baseUrl: 'https://api.denied.test/v1', retry: { attempts: 1 } });
  await assert.rejects(denied.complete(REQ, kernelBackendIO(k, k.init.pid, new AbortController().signal)), (e: unknown) => {
    assert.ok(e instanceof SysError);
    assert.equal(e.errno, Errno.EACCES);
    assert.equal(e.detail, 'network access to https://api.denied.test denied by the VM\'s network policy (allowlist: api.openai.com)');
    return true;
  });
  assert.deepEqual(trail(k).map((e) => e.decision), ['deny']);
}));

test('127.0.0.1 that the policy does not name is the VM\'s loopback: nothing listens there, so ECONNREFUSED, and the host\'s server never sees it', () => withKernel({ allow: ['api.openai.com'] }, async (k) => {
  const seen = srv.seen.length;
  await assert.rejects(backend().complete(REQ, kernelBackendIO(k, k.init.pid, new AbortController().signal)), /ECONNREFUSED|nothing listens/);
  assert.equal(srv.seen.length, seen);
  assert.deepEqual(trail(k), [], 'the VM\'s loopback is not the network: nothing audited');
}));

test('an ask entry waits for the host: a denial is EACCES, an approval lets the request go', () => withKernel({ allow: [`${srv.base} ask`] }, async (k) => {
  const answers = ['deny', 'once'];
  k.policy.approvals.onRequest((r) => void k.policy.approvals.answer(r.id, answers.shift() ?? 'deny'));
  const seen = srv.seen.length;
  await assert.rejects(backend().complete(REQ, kernelBackendIO(k, k.init.pid, new AbortController().signal)), /denied by the host \(policy network\.ask:/);
  assert.equal(srv.seen.length, seen);
  srv.script({ pieces: [OK] });
  assert.equal((await backend().complete(REQ, kernelBackendIO(k, k.init.pid, new AbortController().signal))).text, 'hello');
  assert.deepEqual(trail(k).map((e) => e.decision), ['deny', 'allow']);
}));

test('readFile reads the VM as the process; a missing file is ENOENT', () => withKernel('none', async (k) => {
  const f = k.vfs.open(k.init.cred, k.init.cwd, '/script.jsonl', O_WRONLY | O_CREAT, 0o644);
  assert.ok('ops' in f);
  f.ops.write(f, new TextEncoder().encode('{"text":"hi"}\n'));
  f.unref();
  const io = kernelBackendIO(k, k.init.pid, new AbortController().signal);
  assert.equal(new TextDecoder().decode(io.readFile('/script.jsonl')), '{"text":"hi"}\n');
  assert.throws(() => io.readFile('/nope'), (e: unknown) => e instanceof SysError && e.errno === Errno.ENOENT);
}));

test('the process signalled mid-stream: the request is cancelled and the call ends with EINTR', () => withKernel({ allow: [srv.base] }, async (k) => {
  srv.script({ pieces: [OK.slice(0, 20)], stall: true });
  const ctl = new AbortController();
  const seen = srv.seen.length;
  const call = backend().complete(REQ, kernelBackendIO(k, k.init.pid, ctl.signal));
  while (srv.seen.length === seen) await new Promise((r) => setTimeout(r, 5));
  ctl.abort();
  await assert.rejects(call, (e: unknown) => e instanceof SysError && e.errno === Errno.EINTR);
}));

test('a host that gives the VM no network: ENETUNREACH at once, not retried', () => withKernel({ allow: [srv.base] }, async (k) => {
  const slow = openaiBackend({ baseUrl: `${srv.base}/v1`, retry: { attempts: 3 }, sleep: () => assert.fail('retried') });
  await assert.rejects(slow.complete(REQ, kernelBackendIO(k, k.init.pid, new AbortController().signal)), (e: unknown) => e instanceof SysError && e.errno === Errno.ENETUNREACH);
}, null));

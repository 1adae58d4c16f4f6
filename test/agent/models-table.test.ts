// The image's model table (/etc/aos/models.yaml as shipped): every provider
// model in it reaches its provider's real API host with the key of the
// host-held secret the README names (OPENAI_API_KEY, ANTHROPIC_API_KEY), put
// in by the kernel's HTTP path — so `--secret OPENAI_API_KEY=ENV@api.openai.com`
// works with no table of one's own. A kernel in this thread; the host's fetch
// is a fake that records what it is given (no network).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { ModelRequest } from '../../src/abi/agent.js';
import { O_CREAT, O_WRONLY } from '../../src/abi/fcntl.js';
import { backendFor } from '../../src/kernel/agent/backends.js';
import { kernelBackendIO } from '../../src/kernel/agent/io.js';
import { MODELS_YAML, modelTable, priceOf } from '../../src/kernel/agent/pricing.js';
import { FifoTable } from '../../src/kernel/fifo.js';
import { MemFs } from '../../src/kernel/fs/memfs.js';
import { Kernel } from '../../src/kernel/kernel.js';
import type { HostRequest, HostResponse } from '../../src/kernel/net/host.js';
import { NetPolicy } from '../../src/kernel/net/policy.js';
import { HostSecrets } from '../../src/kernel/net/secrets.js';
import { NetStack } from '../../src/kernel/net/stack.js';
import { ROOT_CRED, Vfs } from '../../src/kernel/vfs/vfs.js';
import { anthropicText, sse } from './fake-provider.js';

const TABLE = readFileSync(new URL('../../../src/image/rootfs/etc/aos/models.yaml', import.meta.url), 'utf8');
const KEYS = { OPENAI_API_KEY: 'sk-openai-table-5b1e0c9d', ANTHROPIC_API_KEY: 'sk-ant-table-77a2f4e1' };
const HOSTS = { openai: 'api.openai.com', anthropic: 'api.anthropic.com' } as const;
const idleWorker = () => ({ post() {}, onMessage() {}, onError() {}, terminate() {} });
const enc = new TextEncoder();

function kernel(sent: HostRequest[]): Kernel {
  const fifos = new FifoTable();
  const secrets = new HostSecrets({
    OPENAI_API_KEY: { value: KEYS.OPENAI_API_KEY, hosts: [HOSTS.openai] },
    ANTHROPIC_API_KEY: { value: KEYS.ANTHROPIC_API_KEY, hosts: [HOSTS.anthropic] },
  });
  const fetch = (req: HostRequest): Promise<HostResponse> => {
    sent.push(req);
    const body = new URL(req.url).hostname === HOSTS.anthropic
      ? anthropicText('hi')
      : sse([[null, { choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: 'stop' }] }], [null, '[DONE]']]);
    let done = false;
    return Promise.resolve({
      status: 200, statusText: 'OK', httpVersion: '1.1', headers: [['content-type', 'text/event-stream']], url: req.url, remote: '', decoded: false,
      body: { next: () => Promise.resolve(done ? { done: true, value: undefined } : ((done = true), { done: false, value: enc.encode(body) })) },
    });
  };
  const k = new Kernel({
    vfs: new Vfs(new MemFs(), { openFifo: (i, f) => fifos.open(i, f) }), fifos, workers: idleWorker, warmWorkers: 0,
    net: new NetStack(new NetPolicy({ allow: [HOSTS.openai, HOSTS.anthropic] }), fetch, secrets),
  });
  for (const d of ['/etc', '/etc/aos']) k.vfs.mkdir(ROOT_CRED, k.vfs.root(), d, 0o755);
  const f = k.vfs.open(ROOT_CRED, k.vfs.root(), MODELS_YAML, O_WRONLY | O_CREAT, 0o644);
  assert.ok('ops' in f);
  f.ops.write(f, enc.encode(TABLE));
  f.unref();
  return k;
}

test("the image's models.yaml: each openai and anthropic model goes to its provider's real host with the key of OPENAI_API_KEY / ANTHROPIC_API_KEY", async () => {
  const sent: HostRequest[] = [];
  const k = kernel(sent);
  try {
    const models = [...modelTable(k).models].filter(([, m]) => m.backend !== 'mock');
    assert.ok(models.some(([, m]) => m.backend === 'openai') && models.some(([, m]) => m.backend === 'anthropic'), 'both providers have models');
    for (const [name, m] of models) {
      const backend = m.backend as keyof typeof HOSTS;
      const req: ModelRequest = { model: name, messages: [{ role: 'user', content: 'hi' }], tools: [], maxTokens: 16 };
      const reply = await backendFor(k, priceOf(modelTable(k), name)).complete(req, kernelBackendIO(k, k.init.pid, new AbortController().signal));
      assert.equal(reply.text, 'hi', name);
      const r = sent.at(-1)!;
      const header = (h: string) => r.headers.find(([n]) => n === h)?.[1];
      if (backend === 'openai') {
        assert.equal(r.url, 'https://api.openai.com/v1/chat/completions', name);
        assert.equal(header('authorization'), `Bearer ${KEYS.OPENAI_API_KEY}`, name);
      } else {
        assert.equal(r.url, 'https://api.anthropic.com/v1/messages', name);
        assert.equal(header('x-api-key'), KEYS.ANTHROPIC_API_KEY, name);
      }
      assert.equal((JSON.parse(new TextDecoder().decode(r.body as Uint8Array)) as { model: string }).model, name);
    }
    // Each model's own price, never its backend's (a cheap default would let a dear model overspend).
    assert.throws(() => priceOf(modelTable(k), 'openai:some-new-model'), /no price/);
  } finally {
    k.shutdown();
  }
});

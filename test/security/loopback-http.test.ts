// A hostile guest using the VM's loopback to reach the host (decision 0070).
// A loopback URL is served by the VM's own sockets: a host server on the
// same port is never reached from it (the host server counts connections),
// however the loopback is spelt and whatever the policy — a listener in the
// VM wins even where the policy names the host's loopback. Host-held
// secrets are never substituted into a request to the VM's own server (it
// is the guest), even when the secret's hosts and the policy name localhost.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AgentVM, type AgentVMOptions } from '../../src/host/node/index.js';
import { startServer, type TestServer } from '../kernel/net/server.js';
import { serve, VM_SERVER } from '../kernel/net/vm-server.js';

let host: TestServer;

before(async () => {
  host = await startServer();
});
after(async () => {
  await host?.close();
});

async function withVm(opts: AgentVMOptions, fn: (vm: AgentVM) => Promise<void>): Promise<void> {
  const vm = new AgentVM(opts);
  await vm.start();
  try {
    await vm.writeFile('/tmp/srv.js', VM_SERVER);
    await vm.exec('chmod +x /tmp/srv.js');
    await fn(vm);
  } finally {
    await vm.stop();
  }
}

/** Loopback spellings a guest may use; each is the VM's loopback, never the host's. */
const SPELLINGS = ['localhost', 'LOCALHOST.', 'api.localhost', '127.0.0.1', '127.1', '2130706433', '0x7f.1', '127.0.0.1.', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::1]', '0.0.0.0', '[::]'];

describe('a loopback URL reaches only the VM, never a host server on the same port', () => {
  const networks: AgentVMOptions['network'][] = ['all', { allow: ['*'] }, 'none'];
  for (const network of networks) {
    test(`network ${JSON.stringify(network)}: the VM's server answers on every spelling; with none listening, refused`, async () => {
      await withVm({ network }, async (vm) => {
        const seen = host.connections;
        const curls = SPELLINGS.map((h) => `curl -sS -m 5 http://${h}:${host.port}/hello`).join('; ');
        const r = await vm.exec(`${serve(host.port, '::')} ${curls}; kill $SRV; wait $SRV; ${curls.replaceAll('; ', ' 2>&1; ')} 2>&1`, { timeoutMs: 60_000 });
        const refused = SPELLINGS.map((h) => `curl: (7) Failed to connect to ${new URL(`http://${h}/`).hostname} port ${host.port} after `);
        const lines = r.stdout.split('\n');
        assert.deepEqual(lines.slice(0, SPELLINGS.length), SPELLINGS.map(() => 'hello'), r.stdout + r.stderr);
        assert.deepEqual(lines.slice(SPELLINGS.length, -1).map((l) => l.replace(/after \d+ ms.*/, 'after ')), refused);
        assert.equal(host.connections, seen, 'the host server saw no connection');
      });
    });
  }

  test('a policy naming the host loopback does not take a port the VM listens on', async () => {
    await withVm({ network: { allow: ['127.0.0.1', 'localhost'] } }, async (vm) => {
      const seen = host.connections;
      const r = await vm.exec(`${serve(host.port)} curl -sS -i http://127.0.0.1:${host.port}/hello; curl -sS http://localhost:${host.port}/hello; kill $SRV`);
      assert.match(r.stdout, /^HTTP\/1\.1 200 OK\r\n.*X-Served-By: vm\r\n/s);
      assert.ok(r.stdout.endsWith('hello\nhello\n'), r.stdout);
      assert.equal(host.connections, seen, 'the host server saw no connection');
    });
  });

  test('the raw syscall with hostile spellings reaches the VM only', async () => {
    await withVm({ network: 'all' }, async (vm) => {
      await vm.writeFile('/tmp/raw.js', `#!/usr/libexec/agentos/js
for (const url of ['http://0x7f.1:${host.port}/hello', '\\thttp://[::ffff:127.0.0.1]:${host.port}/hello', 'HTTP://LOCALHOST.:${host.port}/hello', 'http://evil.example@127.0.0.1:${host.port}/hello']) {
  try { const r = agentos.sys.http({ method: 'GET', url, timeoutMs: 5000 }); agentos.print(r.status + ' ' + r.remote + '\\n'); agentos.sys.close(r.fd); }
  catch (e) { agentos.print(e.code + '\\n'); }
}
`);
      const seen = host.connections;
      const r = await vm.exec(`chmod +x /tmp/raw.js; /tmp/raw.js; ${serve(host.port)} /tmp/raw.js; kill $SRV`);
      assert.equal(r.stdout, 'ECONNREFUSED\n'.repeat(4) + `200 127.0.0.1:${host.port}\n`.repeat(4));
      assert.equal(host.connections, seen);
    });
  });
});

describe('host-held secrets and the VM loopback', () => {
  const VALUE = 'sk-live-loopback-secret-value';

  test('a request to a server in the VM carries the token, never the value, though the secret and the policy name localhost', async () => {
    const policy = { network: { allow: ['localhost', '127.0.0.1'] }, secrets: { API_KEY: { value: VALUE, hosts: ['localhost', '127.0.0.1'] } } };
    await withVm({ policy }, async (vm) => {
      const r = await vm.exec(`${serve(18300)} curl -sS -H "Authorization: Bearer $API_KEY" http://localhost:18300/echo; curl -sS -H "X-Key: $API_KEY" http://127.0.0.1:18300/echo; kill $SRV; echo "$API_KEY"`);
      assert.equal(r.stderr, '');
      assert.ok(!r.stdout.includes(VALUE), r.stdout);
      const token = r.stdout.trim().split('\n').pop()!;
      assert.match(token, /^aos-secret-API_KEY-[0-9a-f]{32}$/);
      assert.ok(r.stdout.includes(`authorization: Bearer ${token}\n`), r.stdout);
      assert.ok(r.stdout.includes(`x-key: ${token}\n`), r.stdout);
    });
  });
});

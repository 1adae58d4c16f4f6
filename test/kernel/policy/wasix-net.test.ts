// Issue 9's "WASIX sockets" attack on the Node host: a WASIX program opens a
// socket and connects to a real server on 127.0.0.1 under network: 'all' —
// Wasmer's networking is off (decision 0021), so the connect is refused and
// the server sees no connection; the VM goes on.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { AgentVM } from '../../../src/host/node/index.js';

test('a WASIX program cannot reach a host server, even under network: all', async () => {
  let connections = 0;
  const server = createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as import('node:net').AddressInfo).port;
  const vm = new AgentVM({ network: 'all' });
  await vm.start();
  try {
    // This file runs from dist/test/kernel/policy/; the WASI programs are built into dist/wasm/.
    await vm.writeFile('/tmp/wasixnet', readFileSync(new URL('../../../wasm/wasixnet.wasm', import.meta.url)), 0o755);
    const r = await vm.exec(`/tmp/wasixnet ${port}; echo "status $?"`);
    assert.equal(r.stdout, 'sock_open: errno 0\nsock_connect: errno 58\nstatus 2\n');
    assert.equal(connections, 0, 'nothing reached the server');
    assert.equal((await vm.exec('echo still here')).stdout, 'still here\n');
  } finally {
    await vm.stop();
    server.close();
  }
});

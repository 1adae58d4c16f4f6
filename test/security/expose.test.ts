// Hostile guests and exposed ports: only the host opens a port outside the VM
// (vm.expose), only on the host's 127.0.0.1, and an exposure reaches only its
// own VM's listener.

import assert from 'node:assert/strict';
import { connect, createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { once } from 'node:events';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';

let vm: AgentVM;

before(async () => {
  vm = new AgentVM();
  await vm.start();
});

after(async () => {
  await vm.stop();
});

/** How a connection to host:port ends: the first bytes it got (then it closes), or the error code. */
function reach(host: string, port: number): Promise<string> {
  return new Promise((done) => {
    let got = '';
    let error = '';
    const s = connect({ host, port });
    s.setEncoding('utf8');
    s.on('data', (t: string) => {
      got += t;
      s.end();
    });
    s.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    s.on('close', () => done(error || got));
  });
}

async function freeHostPort(): Promise<number> {
  const s = createServer().listen(0, '127.0.0.1');
  await once(s, 'listening');
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

async function listening(v: AgentVM, port: number): Promise<void> {
  for (let seq = -1; ; ) {
    const l = await v.listeningPorts(seq);
    if (l.ports.includes(port)) return;
    seq = l.seq;
  }
}

test('a guest cannot open a host port by itself: its listener on port P is not at the host\'s 127.0.0.1:P or ::1:P', { timeout: 30_000 }, async () => {
  const port = await freeHostPort();
  await vm.jobs.start(`echo guest | nc -l -k ${port}`);
  await listening(vm, port);
  assert.equal(await reach('127.0.0.1', port), 'ECONNREFUSED');
  assert.match(await reach('::1', port), /ECONNREFUSED|EADDRNOTAVAIL|ENETUNREACH/);
});

test('an exposed port listens on 127.0.0.1 only: not on ::1, not on the host\'s other addresses', { timeout: 30_000 }, async () => {
  await vm.jobs.start('echo served | nc -l -k 8090');
  await listening(vm, 8090);
  const e = await vm.expose(8090);
  try {
    assert.equal(new URL(e.url).hostname, '127.0.0.1');
    assert.equal(await reach('127.0.0.1', e.hostPort!), 'served\n');
    // Refused (or unroutable), not accepted: the exposure is not listening there.
    assert.match(await reach('::1', e.hostPort!), /^E[A-Z]+$/);
    const others = Object.values(networkInterfaces()).flat().filter((a) => a && !a.internal && a.family === 'IPv4');
    for (const a of others) assert.match(await reach(a!.address, e.hostPort!), /^E[A-Z]+$/, a!.address);
  } finally {
    await e.close();
  }
});

test('an exposure reaches its own VM only: another VM listening on the port is not reached', { timeout: 30_000 }, async () => {
  const other = new AgentVM();
  await other.start();
  try {
    await other.jobs.start('echo other | nc -l -k 8091');
    await listening(other, 8091);
    const e = await vm.expose(8091);
    try {
      assert.equal(await reach('127.0.0.1', e.hostPort!), 'ECONNRESET');
    } finally {
      await e.close();
    }
  } finally {
    await other.stop();
  }
});

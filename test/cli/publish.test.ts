// `agentos exec --publish HOST_PORT:VM_PORT` and MCP's expose_port
// (--allow-expose): a server in the VM reached from this machine's 127.0.0.1.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer } from 'node:net';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const cli = fileURLToPath(new URL('../../../bin/agentos.js', import.meta.url));

/** A port free on the host's loopback just now. */
async function freePort(): Promise<number> {
  const s = createServer().listen(0, '127.0.0.1');
  await once(s, 'listening');
  const port = (s.address() as { port: number }).port;
  await new Promise((done) => s.close(done));
  return port;
}

/** What 127.0.0.1:`port` answers to `send`; null when the connection is reset (nothing listens in the VM yet). */
function ask(port: number, send: string): Promise<string | null> {
  return new Promise((done) => {
    let got = '';
    let failed = false;
    const s = connect({ host: '127.0.0.1', port }, () => s.end(send));
    s.setEncoding('utf8');
    s.on('data', (t: string) => (got += t));
    s.on('error', () => (failed = true));
    s.on('close', () => done(failed && !got ? null : got));
  });
}

/** Ask until the VM's server answers (the host port is up before the script starts its server). */
async function askUntilAnswered(port: number, send: string): Promise<string> {
  for (;;) {
    const r = await ask(port, send);
    if (r !== null) return r;
    await new Promise((ok) => setTimeout(ok, 50));
  }
}

test('agentos exec --publish: the script\'s server answers on 127.0.0.1:HOST_PORT while it runs', { timeout: 60_000 }, async () => {
  const port = await freePort();
  const child = spawn(process.execPath, [cli, 'exec', '--publish', `${port}:8080`, '--', 'echo pong | nc -l -N 8080'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (t: string) => (out += t));
  const exited = once(child, 'exit');
  assert.equal(await askUntilAnswered(port, 'ping\n'), 'pong\n');
  const [code] = (await exited) as [number];
  assert.equal(code, 0);
  assert.equal(out, 'ping\n');
});

test('agentos exec --publish: bad values are usage errors', () => {
  for (const v of ['8080', '0:80', '80:70000', 'a:b']) {
    const child = spawn(process.execPath, [cli, 'exec', '--publish', v, '--', 'true']);
    void once(child, 'exit').then(([code]) => assert.equal(code, 2, v));
  }
});

test('mcp --allow-expose: expose_port makes a VM server reachable, unexpose_port closes it; without the flag there is no such tool', { timeout: 60_000 }, async () => {
  const start = async (args: string[]) => {
    const c = new Client({ name: 'agentos-test', version: '1.0.0' });
    await c.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', ...args], stderr: 'pipe' }));
    return c;
  };
  const plain = await start([]);
  try {
    assert.ok(!(await plain.listTools()).tools.some((t) => t.name === 'expose_port'));
  } finally {
    await plain.close();
  }
  const c = await start(['--allow-expose']);
  try {
    const text = async (name: string, args: Record<string, unknown>) => ((await c.callTool({ name, arguments: args })) as { content: { text: string }[] }).content[0].text;
    await text('job_start', { command: 'echo pong | nc -l -k -N 8080' });
    const e = JSON.parse(await text('expose_port', { port: 8080 })) as { url: string; hostPort: number };
    assert.equal(e.url, `http://127.0.0.1:${e.hostPort}/`);
    assert.equal(await askUntilAnswered(e.hostPort, 'ping\n'), 'pong\n');
    await text('unexpose_port', { port: 8080 });
    assert.equal(await ask(e.hostPort, 'ping\n'), null);
  } finally {
    await c.close();
  }
});

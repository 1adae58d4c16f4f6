// `agentos mcp` answering a real MCP client (the same SDK's Client over stdio):
// every tool, errors as tool results, and a persistent VM across servers.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const cli = fileURLToPath(new URL('../../../bin/agentos.js', import.meta.url));

async function connect(args: string[] = []): Promise<Client> {
  const client = new Client({ name: 'agentos-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', ...args], stderr: 'pipe' }));
  return client;
}

type Content = { content: { type: string; text: string }[]; isError?: boolean };
const call = async (c: Client, name: string, args: Record<string, unknown>) => {
  const r = (await c.callTool({ name, arguments: args })) as Content;
  return { text: r.content[0]?.text ?? '', isError: r.isError === true };
};

test('mcp: the tools, through a real client', async () => {
  const c = await connect();
  try {
    const names = (await c.listTools()).tools.map((t) => t.name).sort();
    assert.deepEqual(names, ['agent_run', 'agent_status', 'exec', 'job_kill', 'job_list', 'job_output', 'job_start', 'job_wait', 'list_directory', 'read_file', 'restore', 'snapshot', 'write_file']);

    const r = await call(c, 'exec', { command: 'cd /tmp && echo hi > a; cat a; echo err >&2' });
    assert.deepEqual(JSON.parse(r.text), { stdout: 'hi\n', stderr: 'err\n', exitCode: 0, timedOut: false, truncated: false });
    assert.equal(JSON.parse((await call(c, 'exec', { command: 'pwd' })).text).stdout, '/tmp\n', 'one session');
    const failed = await call(c, 'exec', { command: 'ls /nope' });
    assert.equal(failed.isError, true);
    assert.equal(JSON.parse(failed.text).exitCode, 2);

    assert.match((await call(c, 'write_file', { path: '/home/user/notes.txt', content: 'héllo\n' })).text, /wrote 7 bytes/);
    assert.deepEqual(JSON.parse((await call(c, 'read_file', { path: '/home/user/notes.txt' })).text), { encoding: 'utf8', content: 'héllo\n' });
    await call(c, 'write_file', { path: '/home/user/bin.dat', content: Buffer.from([0, 255, 1]).toString('base64'), encoding: 'base64' });
    assert.deepEqual(JSON.parse((await call(c, 'read_file', { path: '/home/user/bin.dat' })).text), { encoding: 'base64', content: 'AP8B' });
    assert.equal(JSON.parse((await call(c, 'exec', { command: 'stat -c %U:%s ~/notes.txt' })).text).stdout, 'user:7\n');

    const listing = JSON.parse((await call(c, 'list_directory', { path: '/home/user' })).text) as { name: string; type: string; size: number }[];
    assert.deepEqual(listing.filter((e) => !e.name.startsWith('.')).map((e) => [e.name, e.type, e.size]), [['bin.dat', 'file', 3], ['notes.txt', 'file', 7]]);
    const missing = await call(c, 'read_file', { path: '/nope' });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /ENOENT|No such file/);

    assert.match((await call(c, 'snapshot', { name: 'before' })).text, /created snapshot before/);
    await call(c, 'exec', { command: 'rm ~/notes.txt' });
    assert.equal((await call(c, 'restore', { name: 'before' })).text, 'restored snapshot before');
    assert.equal(JSON.parse((await call(c, 'exec', { command: 'cat ~/notes.txt' })).text).stdout, 'héllo\n');
    assert.equal((await call(c, 'restore', { name: 'nope' })).isError, true);
  } finally {
    await c.close();
  }
});

test('mcp: agent_run starts an agent (mock backend); agent_status shows it and, once ended, its answer', async () => {
  const c = await connect();
  try {
    const turns = [{ text: '', tool_calls: [{ name: 'bash', arguments: { command: 'echo 42 > /tmp/answer; cat /tmp/answer' } }] }, { text: 'the answer is 42', match: '^42' }];
    await call(c, 'write_file', { path: '/tmp/m.jsonl', content: turns.map((t) => JSON.stringify(t)).join('\n') });
    const started = await call(c, 'agent_run', { prompt: 'find the answer', model: 'mock', mock: '/tmp/m.jsonl', tools: ['bash'] });
    assert.equal(started.isError, false, started.text);
    const { pid } = JSON.parse(started.text) as { pid: number };
    let status: { status: string; tools: string[]; result?: { code: number; answer: string } } | undefined;
    for (let i = 0; i < 100 && !status?.result; i++) {
      [status] = JSON.parse((await call(c, 'agent_status', { pid })).text) as NonNullable<typeof status>[];
      if (!status?.result) await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(status?.status, 'exited');
    assert.deepEqual(status?.tools, ['bash']);
    assert.deepEqual(status?.result, { code: 0, answer: 'the answer is 42\n', stderr: '' });
    assert.equal((await call(c, 'agent_status', { pid: 99999 })).isError, true);
  } finally {
    await c.close();
  }
});

test('mcp: --state keeps the VM between servers; an unknown host is refused', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentos-mcp-'));
  try {
    const a = await connect(['--state', dir]);
    await call(a, 'write_file', { path: '/home/user/kept', content: 'yes' });
    await a.close();
    const b = await connect(['--state', dir]);
    assert.deepEqual(JSON.parse((await call(b, 'read_file', { path: '/home/user/kept' })).text), { encoding: 'utf8', content: 'yes' });
    await b.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await assert.rejects(connect(['--host', 'wasm']));
});

test('mcp: the policy options of exec apply to the served VM', async () => {
  const c = await connect(['--read-only', '/etc', '--hidden', '/etc/hostname', '--allow-host', 'localhost:9']);
  try {
    const ro = await call(c, 'exec', { command: 'echo x > /etc/agentos-test' });
    assert.equal(ro.isError, true);
    assert.match(JSON.parse(ro.text).stderr, /Read-only file system/);
    const tool = await call(c, 'write_file', { path: '/etc/agentos-test', content: 'x' });
    assert.equal(tool.isError, true, 'the host-side tools meet the same rule');
    assert.match(tool.text, /Read-only file system/);
    const hidden = await call(c, 'read_file', { path: '/etc/hostname' });
    assert.equal(hidden.isError, true);
    assert.match(hidden.text, /No such file/);
    const names = (JSON.parse((await call(c, 'list_directory', { path: '/etc' })).text) as { name: string }[]).map((e) => e.name);
    assert.ok(names.includes('passwd') && !names.includes('hostname'), names.join(' '));
    const net = await call(c, 'exec', { command: 'curl -sS http://example.com/' });
    assert.equal(net.isError, true);
    assert.equal(JSON.parse(net.text).stderr, "curl: (7) network access to http://example.com denied by the VM's network policy (allowlist: localhost:9)\n");
  } finally {
    await c.close();
  }
  // A bad policy option is a usage error: the server does not start.
  await assert.rejects(connect(['--network', 'some']));
  await assert.rejects(connect(['--max-procs', 'lots']));
});

// The CLI's browser host: `agentos exec --browser` and `agentos mcp --host
// browser` answering a real MCP client, against the built app in Chromium.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const cli = fileURLToPath(new URL('../../../bin/agentos.js', import.meta.url));
const web = fileURLToPath(new URL('../../web/', import.meta.url));
const skip = existsSync(join(web, 'sandbox.html')) ? false : 'dist/web is not built (node scripts/build.mjs without --node-only)';

const agentos = (args: string[], input?: string) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', input, timeout: 120_000 });

test('agentos exec --browser: output, status, stdin, --json; bad flags', { skip }, () => {
  const r = agentos(['exec', '--browser', '--env', 'W=world', '--', 'echo hello $W; echo oops >&2; exit 3']);
  assert.equal(r.stdout, 'hello world\n');
  assert.equal(r.stderr, 'oops\n');
  assert.equal(r.status, 3);
  const j = agentos(['exec', '--browser', '--json', '-i', '--', 'tr a-z A-Z'], 'piped\n');
  assert.deepEqual(JSON.parse(j.stdout), { stdout: 'PIPED\n', stderr: '', exitCode: 0, timedOut: false, truncated: false });
  const bad = agentos(['exec', '--chromium', '/nope/chromium', '--', 'true']);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /no Chromium at \/nope\/chromium/);
  const state = agentos(['exec', '--browser', '--state', '/tmp/x', '--', 'true']);
  assert.equal(state.status, 2);
  assert.match(state.stderr, /--state and --mount need the Node host/);
});

test('agentos shell --browser without a terminal: one exec per line, one session', { skip }, () => {
  const r = agentos(['shell', '--browser'], 'cd /tmp\npwd\necho $((6*7)) >&2\nfalse\n');
  assert.equal(r.stdout.replace(/agentos\$ /g, ''), '/tmp\n');
  assert.equal(r.stderr, '42\n');
  assert.equal(r.status, 1, 'the last line\'s status');
});

test('agentos mcp --host browser: the tools through a real client', { skip }, async () => {
  const c = new Client({ name: 'agentos-test', version: '1.0.0' });
  await c.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--host', 'browser'], stderr: 'pipe' }));
  type Content = { content: { type: string; text: string }[]; isError?: boolean };
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = (await c.callTool({ name, arguments: args })) as Content;
    return { text: r.content[0]?.text ?? '', isError: r.isError === true };
  };
  try {
    assert.deepEqual((await c.listTools()).tools.map((t) => t.name).sort(), ['agent_run', 'agent_status', 'exec', 'job_kill', 'job_list', 'job_output', 'job_start', 'job_wait', 'list_directory', 'read_file', 'restore', 'snapshot', 'write_file']);
    const r = await call('exec', { command: 'cd /tmp && echo hi; echo err >&2' });
    assert.deepEqual(JSON.parse(r.text), { stdout: 'hi\n', stderr: 'err\n', exitCode: 0, timedOut: false, truncated: false });
    assert.equal(JSON.parse((await call('exec', { command: 'pwd' })).text).stdout, '/tmp\n', 'one session');
    await call('write_file', { path: '/home/user/bin.dat', content: Buffer.from([0, 255, 1]).toString('base64'), encoding: 'base64' });
    assert.deepEqual(JSON.parse((await call('read_file', { path: '/home/user/bin.dat' })).text), { encoding: 'base64', content: 'AP8B' });
    assert.match((await call('write_file', { path: '/home/user/n.txt', content: 'héllo\n' })).text, /wrote 7 bytes/);
    const listing = JSON.parse((await call('list_directory', { path: '/home/user' })).text) as { name: string; type: string; size: number }[];
    assert.deepEqual(listing.filter((e) => !e.name.startsWith('.')).map((e) => [e.name, e.type, e.size]), [['bin.dat', 'file', 3], ['n.txt', 'file', 7]]);
    assert.match((await call('snapshot', { name: 'before' })).text, /created snapshot before/);
    await call('exec', { command: 'rm ~/n.txt' });
    assert.equal((await call('restore', { name: 'before' })).text, 'restored snapshot before');
    assert.equal(JSON.parse((await call('exec', { command: 'cat ~/n.txt' })).text).stdout, 'héllo\n');
    const missing = await call('read_file', { path: '/nope' });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /ENOENT|No such file/);
    const { id } = JSON.parse((await call('job_start', { command: 'echo job; exit 4' })).text) as { id: number };
    assert.deepEqual(JSON.parse((await call('job_wait', { id })).text), { id, running: false, exitCode: 4 });
    assert.equal(JSON.parse((await call('job_output', { id })).text).stdout, 'job\n');
    // Agents run in the page's kernel as on the Node host.
    await call('write_file', { path: '/tmp/m.jsonl', content: `${JSON.stringify({ text: 'browser agent done' })}\n` });
    const { pid } = JSON.parse((await call('agent_run', { prompt: 'go', model: 'mock', mock: '/tmp/m.jsonl' })).text) as { pid: number };
    let status: { status: string; result?: { code: number; answer: string } } | undefined;
    for (let i = 0; i < 100 && !status?.result; i++) {
      [status] = JSON.parse((await call('agent_status', { pid })).text) as NonNullable<typeof status>[];
      if (!status?.result) await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual(status?.result, { code: 0, answer: 'browser agent done\n', stderr: '' });
  } finally {
    await c.close();
  }
});

// `agentos mcp`'s job tools through the real server over stdio (the SDK's
// Client, as test/cli/mcp.test.ts): start a server-like job, poll its log by
// cursor, stop it, list and reap; bad calls come back as tool errors.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const cli = fileURLToPath(new URL('../../../bin/agentos.js', import.meta.url));

type Content = { content: { type: string; text: string }[]; isError?: boolean };

test('mcp: job_start, job_output by cursor, job_wait, job_kill, job_list', async () => {
  const c = new Client({ name: 'agentos-test', version: '1.0.0' });
  await c.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp'], stderr: 'pipe' }));
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = (await c.callTool({ name, arguments: args })) as Content;
    return { text: r.content[0]?.text ?? '', isError: r.isError === true };
  };
  const json = async (name: string, args: Record<string, unknown>) => {
    const r = await call(name, args);
    assert.equal(r.isError, false, `${name}: ${r.text}`);
    return JSON.parse(r.text) as Record<string, unknown>;
  };
  try {
    const tools = (await c.listTools()).tools;
    assert.deepEqual(tools.find((t) => t.name === 'job_output')?.inputSchema.required, ['id'], 'the tools have input schemas');

    const { id } = await json('job_start', { command: 'echo ready; echo warn >&2; while :; do echo tick; sleep 0.1; done' });
    assert.equal(typeof id, 'number');
    let out = '';
    let cursor = 0;
    for (let i = 0; i < 200 && !out.includes('tick\ntick\n'); i++) {
      const r = await json('job_output', { id, cursor });
      assert.equal(r.running, true);
      out += r.stdout as string;
      cursor = r.cursor as number;
      if (!out.includes('tick\ntick\n')) await new Promise((res) => setTimeout(res, 50));
    }
    assert.match(out, /^ready\n(tick\n)+$/);
    const again = await json('job_output', { id, cursor: 0 });
    assert.equal(again.stderr, 'warn\n');

    assert.deepEqual(await json('job_wait', { id, timeout_seconds: 0.1 }), { id, running: true });
    assert.equal((await call('job_kill', { id })).text, `sent TERM to job ${id}`);
    assert.deepEqual(await json('job_wait', { id }), { id, running: false, exitCode: 143, signal: 'SIGTERM' });
    const last = await json('job_output', { id, cursor });
    assert.equal(last.running, false);

    const listed = JSON.parse((await call('job_list', {})).text) as { id: number; running: boolean; command: string }[];
    assert.deepEqual(listed.map((j) => [j.id, j.running]), [[id, false]]);
    assert.equal((await call('job_list', {})).text, '[]', 'a drained job is listed once, then reaped');

    const gone = await call('job_output', { id });
    assert.equal(gone.isError, true);
    assert.match(gone.text, /no job/);
    const bad = await call('job_kill', { id: 12345, signal: 'KILL' });
    assert.equal(bad.isError, true);
    assert.equal((await call('job_start', { command: '' })).isError, true);
    assert.equal((await call('job_output', { id: 'one' })).isError, true, 'the schema refuses a non-number id');
  } finally {
    await c.close();
  }
});

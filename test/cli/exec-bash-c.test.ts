// Issue 15 item 2 through the CLI and MCP: an exec runs like `bash -c` in the
// session's state (the AgentVM side: test/shell/exec-bash-c.test.ts). Output is
// read from the CLI through a pipe, as an agent's harness reads it.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { EXEC_CASES, RESET } from '../shell/exec-cases.js';

const cli = fileURLToPath(new URL('../../../bin/agentos.js', import.meta.url));
const agentos = (args: string[], input = '') =>
  spawnSync(process.execPath, [cli, ...args], { input, encoding: 'utf8', timeout: 60_000 });

const byName = (part: string) => EXEC_CASES.find((c) => c.name.includes(part))!;

// One VM per `agentos exec`: a few cases, one of each kind.
for (const c of [byName('stops the exec before the rm'), byName('abandons the line, status 1'), byName('when an error stops the exec'), byName('bare name')]) {
  test(`agentos exec: ${c.name}`, () => {
    const r = agentos(['exec', '--', c.script]);
    assert.deepEqual({ stdout: r.stdout, status: r.status }, { stdout: c.stdout, status: c.status }, r.stderr);
    if (c.stderr !== undefined) assert.ok(c.stderr === '' ? r.stderr === '' : r.stderr.includes(c.stderr), r.stderr);
  });
}

test('mcp exec: like bash -c, and the session survives', async () => {
  const client = new Client({ name: 'agentos-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp'], stderr: 'pipe' }));
  const exec = async (command: string) => {
    const r = (await client.callTool({ name: 'exec', arguments: { command } })) as { content: { text: string }[] };
    return JSON.parse(r.content[0].text) as { stdout: string; stderr: string; exitCode: number };
  };
  try {
    await exec('k=kept');
    for (const c of EXEC_CASES) {
      const r = await exec(c.script);
      await exec(RESET);
      assert.deepEqual({ stdout: r.stdout, status: r.exitCode }, { stdout: c.stdout, status: c.status }, `${c.name}: ${r.stderr}`);
    }
    assert.equal((await exec('echo "$k"')).stdout, 'kept\n');
  } finally {
    await client.close();
  }
});

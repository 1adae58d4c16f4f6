// `agentos mcp`: one VM offered to an agent over the Model Context Protocol
// (stdio, @modelcontextprotocol/sdk). Tools: exec, read_file, write_file,
// list_directory, snapshot, restore. The VM lives as long as the connection.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { AgentVM } from '../host/node/index.js';
import { newBrowserFlags, newBrowserVM } from './browser-flags.js';
import type { BrowserVM } from '../host/playwright/browser-vm.js';
import { listGuestDirectory, readGuestFile, writeGuestFile, type RootRunner } from './mcp-files.js';
import { optionValue } from './option-value.js';
import { finishPolicy, newPolicyFlags, policyOptions, stopVm, takePolicyFlag } from './policy-flags.js';

export const MCP_USAGE = `  mcp [--state DIR] [--host node|browser] [--chromium PATH] [--ws-endpoint URL] [POLICY OPTIONS]
                          serve one VM over the Model Context Protocol on stdin/stdout:
                          tools exec, read_file, write_file, list_directory, snapshot,
                          restore; --state DIR makes it persistent (Node host);
                          --host browser runs it in headless Chromium (BrowserVM);
                          the VM runs under the policy the options give (as exec's)`;

type Result = { content: { type: 'text'; text: string }[]; isError?: boolean };

const text = (t: string, isError = false): Result => ({ content: [{ type: 'text', text: t }], ...(isError ? { isError } : {}) });

/** Tool errors go back to the agent as results, not protocol failures. */
async function guarded(fn: () => Promise<Result>): Promise<Result> {
  try {
    return await fn();
  } catch (e) {
    return text((e as Error).message, true);
  }
}

export async function mcpCommand(args: string[], usageError: (msg: string) => number): Promise<number> {
  let state: string | undefined;
  const bf = newBrowserFlags();
  let host = 'node';
  const pf = newPolicyFlags();
  for (let i = 0; i < args.length; i++) {
    try {
      const took = takePolicyFlag(args, i, pf);
      if (took) i += took - 1;
      else if (args[i] === '--state') state = optionValue(args, i++);
      else if (args[i] === '--host') {
        host = optionValue(args, i++);
        if (host !== 'node' && host !== 'browser') return usageError(`mcp: unknown host '${host}' (node or browser)`);
      } else if (args[i] === '--chromium') bf.chromium = optionValue(args, i++);
      else if (args[i] === '--ws-endpoint') bf.wsEndpoint = optionValue(args, i++);
      else return usageError(`mcp: unexpected '${args[i]}'`);
    } catch (e) {
      return usageError(`mcp: ${(e as Error).message}`);
    }
  }
  try {
    finishPolicy(pf);
  } catch (e) {
    return usageError(`mcp: ${(e as Error).message}`);
  }
  if (host === 'browser' && state !== undefined) return usageError('mcp: --state needs the Node host (a browser VM keeps its files for the connection)');
  if (host === 'node' && (bf.chromium ?? bf.wsEndpoint) !== undefined) return usageError('mcp: --chromium and --ws-endpoint need --host browser');
  const vm: AgentVM | BrowserVM = host === 'browser' ? await newBrowserVM(bf, policyOptions(pf)) : new AgentVM({ state, ...policyOptions(pf) });
  await vm.start();
  // The file tools run as guest programs, as root, so the policy binds them (mcp-files.ts).
  const root: RootRunner = (argv, stdin) => vm.run(argv, { uid: 0, gid: 0, cwd: '/', stdin });
  const server = new McpServer({ name: 'agentos', version: '0.1.0' });

  server.registerTool('exec', {
    description: 'Run a shell command (bash syntax) in the VM\'s persistent session. Returns stdout, stderr and the exit code; cd and variables persist between calls.',
    inputSchema: { command: z.string(), timeout_seconds: z.number().positive().optional(), cwd: z.string().optional() },
  }, ({ command, timeout_seconds, cwd }) => guarded(async () => {
    const r = await vm.exec(command, { timeoutMs: timeout_seconds === undefined ? undefined : timeout_seconds * 1000, cwd });
    return text(JSON.stringify({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode, timedOut: r.timedOut }), r.exitCode !== 0);
  }));

  server.registerTool('read_file', {
    description: 'Read a file of the VM. UTF-8 text as is; other bytes as base64 (encoding says which).',
    inputSchema: { path: z.string() },
  }, ({ path }) => guarded(async () => {
    const bytes = await readGuestFile(root, path);
    try {
      return text(JSON.stringify({ encoding: 'utf8', content: new TextDecoder('utf-8', { fatal: true }).decode(bytes) }));
    } catch {
      return text(JSON.stringify({ encoding: 'base64', content: Buffer.from(bytes).toString('base64') }));
    }
  }));

  server.registerTool('write_file', {
    description: 'Create or replace a file of the VM (owned by the VM user). content is UTF-8 text, or base64 with encoding "base64".',
    inputSchema: { path: z.string(), content: z.string(), encoding: z.enum(['utf8', 'base64']).optional(), mode: z.number().int().optional() },
  }, ({ path, content, encoding, mode }) => guarded(async () => {
    const data = encoding === 'base64' ? new Uint8Array(Buffer.from(content, 'base64')) : content;
    await writeGuestFile(root, path, data, mode ?? 0o644);
    await vm.sync();
    return text(`wrote ${typeof data === 'string' ? Buffer.byteLength(data) : data.length} bytes to ${path}`);
  }));

  server.registerTool('list_directory', {
    description: 'List a directory of the VM: name, type, size and mode of each entry.',
    inputSchema: { path: z.string() },
  }, ({ path }) => guarded(async () => {
    return text(JSON.stringify(await listGuestDirectory(root, path)));
  }));

  server.registerTool('snapshot', {
    description: 'Save the VM\'s files (its writable layer) as snapshot NAME.',
    inputSchema: { name: z.string() },
  }, ({ name }) => guarded(async () => {
    const info = await vm.snapshot(name);
    return text(`created snapshot ${info.name} (${info.bytes} bytes)`);
  }));

  server.registerTool('restore', {
    description: 'Make snapshot NAME the VM\'s files again. Every process stops; the next exec starts a fresh session.',
    inputSchema: { name: z.string() },
  }, ({ name }) => guarded(async () => {
    await vm.restore(name);
    return text(`restored snapshot ${name}`);
  }));

  const transport = new StdioServerTransport();
  const closed = new Promise<void>((done) => {
    transport.onclose = () => done();
    process.stdin.once('end', () => done());
  });
  await server.connect(transport);
  await closed;
  await stopVm(vm, pf);
  return 0;
}

// `agentos mcp`: one VM offered to an agent over the Model Context Protocol
// (stdio, @modelcontextprotocol/sdk). Tools: exec, read_file, write_file,
// list_directory, snapshot, restore, the background jobs' job_start,
// job_output, job_wait, job_kill, job_list, agent processes' agent_run and
// agent_status (either host); with --allow-expose, expose_port and
// unexpose_port. The VM (its jobs and exposed ports too) lives as long as the
// connection.
//
// Every tool acts for the agent, so none reaches further than the guest: exec
// runs in the guest's session; the file tools are AgentVM's file calls, which
// the kernel makes as the VM user under the policy (host/api/user-files.ts); and
// under filesystem rules the snapshot tools keep the in-VM command's limits
// (no restore, no replacing a snapshot: kernel/sys/snapshot.ts).

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { AgentVM, type AgentRunResult } from '../host/node/index.js';
import { newBrowserFlags, newBrowserVM } from './browser-flags.js';
import type { VM } from '../host/api/vm.js';
import { errnoFromName, strerror } from '../abi/errno.js';
import { hasFsRules } from '../api/policy.js';
import { LineTransport, type Output } from './mcp-stdio.js';
import { optionValue } from './option-value.js';
import { finishPolicy, newPolicyFlags, policyOptions, stopVm, takePolicyFlag } from './policy-flags.js';
import { newIsolationFlag, takeIsolationFlag } from './isolation-flag.js';

export const MCP_USAGE = `  mcp [--state DIR] [--isolation MODE] [--host node|browser] [--chromium PATH] [--ws-endpoint URL]
      [--allow-expose] [POLICY OPTIONS]
                          serve one VM over the Model Context Protocol on stdin/stdout:
                          tools exec, read_file, write_file, list_directory, snapshot,
                          restore, job_start, job_output, job_wait, job_kill, job_list,
                          agent_run, agent_status;
                          --state DIR makes it persistent (Node host);
                          --allow-expose adds expose_port and unexpose_port: the agent may make
                          a VM server reachable on this machine's 127.0.0.1 (Node host);
                          --host browser runs it in headless Chromium (BrowserVM), else it runs
                          isolated in a child Node process (--isolation, below);
                          the VM runs under the policy the options give (as exec's)`;

type Result = { content: { type: 'text'; text: string }[]; isError?: boolean };

const text = (t: string, isError = false): Result => ({ content: [{ type: 'text', text: t }], ...(isError ? { isError } : {}) });

/**
 * Tool errors go back to the agent as results, not protocol failures; a
 * system error on `path` reads as a Unix tool's: "read_file: /x: Permission denied".
 */
async function guarded(fn: () => Promise<Result>, tool?: string, path?: string): Promise<Result> {
  try {
    return await fn();
  } catch (e) {
    const err = e as Error & { code?: unknown };
    let errno = 0;
    try {
      errno = typeof err.code === 'string' ? errnoFromName(err.code) : 0;
    } catch {
      // not an errno name
    }
    return text(errno && tool && path !== undefined ? `${tool}: ${path}: ${strerror(errno)}` : err.message, true);
  }
}

/**
 * The host's stdout carries the protocol, so from here on only the transport
 * writes to it: anything else this process would print there (a library's
 * console.log, a worker's output piped to the host's stdout) goes to stderr,
 * where an MCP client reads logs, not messages.
 */
function takeStdout(): Output {
  const out = process.stdout;
  const write = out.write.bind(out) as (s: string) => boolean;
  out.write = ((...args: Parameters<typeof process.stderr.write>) => process.stderr.write(...args)) as typeof out.write;
  return { write, once: (ev, cb) => out.once(ev, cb) };
}

export async function mcpCommand(args: string[], usageError: (msg: string) => number): Promise<number> {
  let state: string | undefined;
  const bf = newBrowserFlags();
  let host = 'node';
  const pf = newPolicyFlags();
  const iso = newIsolationFlag();
  let allowExpose = false;
  for (let i = 0; i < args.length; i++) {
    try {
      const took = takePolicyFlag(args, i, pf) || takeIsolationFlag(args, i, iso);
      if (took) i += took - 1;
      else if (args[i] === '--state') state = optionValue(args, i++);
      else if (args[i] === '--allow-expose') allowExpose = true;
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
  if (host === 'browser' && allowExpose) return usageError('mcp: --allow-expose needs the Node host (a browser VM\'s ports are the page\'s previews)');
  if (host === 'browser' && iso.given) return usageError('mcp: --isolation is for the Node host (a browser VM is isolated by Chromium)');
  const protocol = takeStdout();
  const vm: VM = host === 'browser' ? await newBrowserVM(bf, policyOptions(pf)) : new AgentVM({ state, ...policyOptions(pf), isolation: iso.isolation });
  await vm.start();
  const ruled = hasFsRules(pf.policy?.fs);
  const server = new McpServer({ name: 'agentos', version: '0.1.0' });

  server.registerTool('exec', {
    description: 'Run a shell command (bash syntax) in the VM\'s persistent session. Returns stdout, stderr, the exit code, timedOut (the timeout ended it) and truncated (output past the policy\'s limit was dropped); cd and variables persist between calls.',
    inputSchema: { command: z.string(), timeout_seconds: z.number().positive().optional(), cwd: z.string().optional() },
  }, ({ command, timeout_seconds, cwd }) => guarded(async () => {
    const r = await vm.exec(command, { timeoutMs: timeout_seconds === undefined ? undefined : timeout_seconds * 1000, cwd });
    return text(JSON.stringify({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode, timedOut: r.timedOut, truncated: r.truncated === true }), r.exitCode !== 0);
  }));

  server.registerTool('read_file', {
    description: 'Read a file of the VM. UTF-8 text as is; other bytes as base64 (encoding says which).',
    inputSchema: { path: z.string() },
  }, ({ path }) => guarded(async () => {
    const bytes = await vm.readFile(path);
    try {
      return text(JSON.stringify({ encoding: 'utf8', content: new TextDecoder('utf-8', { fatal: true }).decode(bytes) }));
    } catch {
      return text(JSON.stringify({ encoding: 'base64', content: Buffer.from(bytes).toString('base64') }));
    }
  }, 'read_file', path));

  server.registerTool('write_file', {
    description: 'Create or replace a file of the VM, as the VM user (a new file is the user\'s, mode 0644 unless mode says). content is UTF-8 text, or base64 with encoding "base64".',
    inputSchema: { path: z.string(), content: z.string(), encoding: z.enum(['utf8', 'base64']).optional(), mode: z.number().int().optional() },
  }, ({ path, content, encoding, mode }) => guarded(async () => {
    const data = encoding === 'base64' ? new Uint8Array(Buffer.from(content, 'base64')) : content;
    await vm.writeFile(path, data, mode);
    return text(`wrote ${typeof data === 'string' ? Buffer.byteLength(data) : data.length} bytes to ${path}`);
  }, 'write_file', path));

  server.registerTool('list_directory', {
    description: 'List a directory of the VM: name, type, size and mode of each entry.',
    inputSchema: { path: z.string() },
  }, ({ path }) => guarded(async () => {
    return text(JSON.stringify(await vm.listDirectory(path)));
  }, 'list_directory', path));

  server.registerTool('snapshot', {
    description: 'Save the VM\'s files (its writable layer) as snapshot NAME.',
    inputSchema: { name: z.string() },
  }, ({ name }) => guarded(async () => {
    if (ruled && (await vm.snapshots.list()).some((s) => s.name === name)) {
      throw new Error(`snapshot '${name}' exists; under the VM's filesystem policy only the host replaces it`);
    }
    const info = await vm.snapshot(name);
    return text(`created snapshot ${info.name} (${info.bytes} bytes)`);
  }));

  server.registerTool('restore', {
    description: 'Make snapshot NAME the VM\'s files again. Every process stops; the next exec starts a fresh session.',
    inputSchema: { name: z.string() },
  }, ({ name }) => guarded(async () => {
    if (ruled) throw new Error('restore is not allowed under the VM\'s filesystem policy (the host can do it: agentos snapshot restore)');
    await vm.restore(name);
    return text(`restored snapshot ${name}`);
  }));

  // Background jobs: a server started here keeps running between calls; its output is polled by cursor.
  server.registerTool('job_start', {
    description: 'Start a shell command (bash syntax) as a background job in the VM, in a process group of its own (stdin /dev/null; stdout and stderr kept in a log of the newest log_bytes, default 1 MiB). Returns its id. Poll it with job_output, stop it with job_kill.',
    inputSchema: { command: z.string(), cwd: z.string().optional(), log_bytes: z.number().int().optional() },
  }, ({ command, cwd, log_bytes }) => guarded(async () => {
    return text(JSON.stringify({ id: await vm.jobs.start(command, { cwd, logBytes: log_bytes }) }));
  }));

  server.registerTool('job_output', {
    description: 'Output of job ID written since CURSOR (default 0: everything kept), as UTF-8 text: stdout, stderr, the cursor to pass next time, dropped (bytes lost to the log\'s bound since CURSOR), running, and once finished exitCode (128 + signal when killed) and signal.',
    inputSchema: { id: z.number().int(), cursor: z.number().int().nonnegative().optional() },
  }, ({ id, cursor }) => guarded(async () => text(JSON.stringify(await vm.jobs.output(id, cursor)))));

  server.registerTool('job_wait', {
    description: 'Wait until job ID finishes, at most TIMEOUT_SECONDS (default 30); returns running (true if it is still running), exitCode and signal.',
    inputSchema: { id: z.number().int(), timeout_seconds: z.number().positive().optional() },
  }, ({ id, timeout_seconds }) => guarded(async () => text(JSON.stringify(await vm.jobs.wait(id, { timeoutMs: (timeout_seconds ?? 30) * 1000 })))));

  server.registerTool('job_kill', {
    description: 'Send SIGNAL (default TERM; KILL, INT, HUP, ... or a number) to every process of job ID (its whole process group and session).',
    inputSchema: { id: z.number().int(), signal: z.union([z.string(), z.number().int()]).optional() },
  }, ({ id, signal }) => guarded(async () => {
    await vm.jobs.kill(id, signal ?? 'TERM');
    return text(`sent ${String(signal ?? 'TERM')} to job ${id}`);
  }));

  server.registerTool('job_list', {
    description: 'The background jobs: id, command, pid, running, exitCode, signal, bytes of output. A finished job whose last output job_output has returned is listed once more, then forgotten.',
    inputSchema: {},
  }, () => guarded(async () => text(JSON.stringify(await vm.jobs.list()))));

  registerAgentTools(server, vm);
  if (allowExpose && vm instanceof AgentVM) registerExposeTools(server, vm);

  const transport = new LineTransport(process.stdin, protocol);
  const closed = new Promise<void>((done) => {
    transport.onclose = () => done();
    process.stdin.once('end', () => done());
  });
  await server.connect(transport);
  await closed;
  await stopVm(vm, pf);
  return 0;
}

/** agent_run and agent_status: agent processes of the served VM (docs/agents.md). */
function registerAgentTools(server: McpServer, vm: VM): void {
  const started = new Set<number>();
  const finished = new Map<number, AgentRunResult>();
  server.registerTool('agent_run', {
    description: 'Start an agent process in the VM (aos run): a model loop whose tools are the VM itself (bash, files, child agents), with a budget the kernel keeps. model: a name from /etc/aos/models.yaml, or "mock" with mock: a script path in the VM. Returns its pid at once; agent_status tells how it goes and, once ended, its answer.',
    inputSchema: { prompt: z.string(), agent: z.string().optional(), model: z.string().optional(), mock: z.string().optional(), budget_usd: z.number().nonnegative().optional(), tools: z.array(z.string()).optional() },
  }, ({ prompt, agent, model, mock, budget_usd, tools }) => guarded(async () => {
    const a = await vm.agents.run(prompt, { agent, model, mock, budgetUsd: budget_usd, tools });
    started.add(a.pid);
    void a.wait().then((r) => finished.set(a.pid, r), () => {});
    return text(JSON.stringify({ pid: a.pid }));
  }));
  server.registerTool('agent_status', {
    description: 'An agent process (pid; none: all): status (running, waiting_human, waiting_child, paused, exited), budget and spend, exit, and for one started by agent_run that ended, its answer and exit code.',
    inputSchema: { pid: z.number().int().positive().optional() },
  }, ({ pid }) => guarded(async () => {
    const all = await vm.agents.list();
    const list = pid === undefined ? all : all.filter((a) => a.pid === pid);
    if (pid !== undefined && !list.length) {
      if (!started.has(pid)) throw new Error(`no agent ${pid}`);
      // Started here but not (yet, or ever) an agent: still starting, or it ended before (a usage error, say).
      const result = finished.get(pid);
      return text(JSON.stringify([{ pid, status: result ? 'exited' : 'starting', ...(result ? { result } : {}) }]));
    }
    return text(JSON.stringify(list.map((a) => ({ ...a, ...(finished.has(a.pid) ? { result: finished.get(a.pid) } : {}) }))));
  }));
}

/**
 * expose_port and unexpose_port (--allow-expose): a VM server reachable on the
 * host's 127.0.0.1, the operator having allowed the agent to ask for it.
 */
function registerExposeTools(server: McpServer, vm: AgentVM): void {
  server.registerTool('expose_port', {
    description: 'Make the server listening on PORT in the VM reachable from this machine at http://127.0.0.1:HOST_PORT/ (host_port: a free one unless given), until unexpose_port or the end of the session. Returns url and hostPort.',
    inputSchema: { port: z.number().int(), host_port: z.number().int().optional() },
  }, ({ port, host_port }) => guarded(async () => {
    const e = await vm.expose(port, { hostPort: host_port });
    return text(JSON.stringify({ url: e.url, hostPort: e.hostPort, port }));
  }));
  server.registerTool('unexpose_port', {
    description: 'Stop exposing the VM\'s PORT on this machine (connections through it are closed).',
    inputSchema: { port: z.number().int() },
  }, ({ port }) => guarded(async () => {
    await vm.unexpose(port);
    return text(`port ${port} is no longer exposed`);
  }));
}

// The tools an agent offers its model. Each is agentOS itself: a child
// process (bash, spawn_agent) or the agent process's own syscalls (files),
// so the VM's policy, limits and audit trail apply to them unchanged.

import type { Json, ToolCall, ToolSpec } from '../../../abi/agent.js';
import { concatBytes } from '../../../abi/bytes.js';
import { Errno, SysError, strerror } from '../../../abi/errno.js';
import { O_CREAT, O_RDONLY, O_RDWR, O_TRUNC, O_WRONLY } from '../../../abi/fcntl.js';
import { WEXITSTATUS, WIFSIGNALED, WNOHANG, WTERMSIG } from '../../../abi/wait.js';
import type { Sys } from '../../../libc/sys.js';

/** A tool's output kept for the model at most (the end of it, where errors usually are). */
const OUTPUT_MAX = 64 * 1024;

export interface ToolContext {
  sys: Sys;
  env: string[];
  /** How to start `aos run` for spawn_agent: argv before the child's own options. */
  aosArgv: string[];
  /** The model and mock script a child inherits unless it names its own. */
  model: string;
  /** Output files of spawned agents, by pid. */
  children: Map<number, string>;
  /** Tools that wait for a person's approval; a child agent asks for them too. */
  ask: string[];
}

const str = (o: { type: 'string'; description: string }) => o;

export const TOOL_SPECS: Record<string, ToolSpec> = {
  bash: {
    name: 'bash',
    description: 'Run a shell command (/bin/sh -c) in the VM; returns its output (stdout and stderr) and exit status.',
    parameters: { type: 'object', properties: { command: str({ type: 'string', description: 'The command line' }) }, required: ['command'] },
  },
  read_file: {
    name: 'read_file',
    description: 'Read a text file.',
    parameters: { type: 'object', properties: { path: str({ type: 'string', description: 'File path' }) }, required: ['path'] },
  },
  write_file: {
    name: 'write_file',
    description: 'Create or replace a file with the given content.',
    parameters: { type: 'object', properties: { path: str({ type: 'string', description: 'File path' }), content: str({ type: 'string', description: 'The whole new content' }) }, required: ['path', 'content'] },
  },
  edit_file: {
    name: 'edit_file',
    description: 'Replace one exact occurrence of old_string with new_string in a file; old_string must occur exactly once.',
    parameters: {
      type: 'object',
      properties: { path: str({ type: 'string', description: 'File path' }), old_string: str({ type: 'string', description: 'Text to find (unique)' }), new_string: str({ type: 'string', description: 'Replacement' }) },
      required: ['path', 'old_string', 'new_string'],
    },
  },
  list_dir: {
    name: 'list_dir',
    description: 'List a directory: one name a line, directories with a trailing /.',
    parameters: { type: 'object', properties: { path: str({ type: 'string', description: 'Directory path' }) }, required: ['path'] },
  },
  spawn_agent: {
    name: 'spawn_agent',
    description: 'Start a child agent on a task; its budget comes out of yours. Returns its pid; use wait to get its answer.',
    parameters: {
      type: 'object',
      properties: {
        prompt: str({ type: 'string', description: 'The task' }),
        agent: str({ type: 'string', description: 'An agent name from /etc/aos/agents.d (optional)' }),
        budget: { type: 'number', description: 'USD for the child (at most your remaining)' },
      },
      required: ['prompt'],
    },
  },
  wait: {
    name: 'wait',
    description: 'Wait for a child agent started by spawn_agent (the first one still running when no pid is given); returns its exit status and answer.',
    parameters: { type: 'object', properties: { pid: { type: 'number', description: 'The child agent pid' } } },
  },
  ask_human: {
    name: 'ask_human',
    description: 'Ask a person a question (through /aos/channels/human) and wait for the answer.',
    parameters: { type: 'object', properties: { question: str({ type: 'string', description: 'The question' }) }, required: ['question'] },
  },
};

export const DEFAULT_TOOLS = ['bash', 'read_file', 'write_file', 'edit_file', 'list_dir', 'spawn_agent', 'wait', 'ask_human'];

export class ToolFailure extends Error {}

function arg(call: ToolCall, name: string): string {
  const v: Json | undefined = call.arguments[name];
  if (typeof v !== 'string') throw new ToolFailure(`${call.name}: argument ${name} must be a string`);
  return v;
}

const dec = new TextDecoder();

/** The tail of `bytes` as text, with a note of what was cut. */
function tail(chunks: Uint8Array[], total: number): string {
  let kept = 0;
  const parts: Uint8Array[] = [];
  for (let i = chunks.length - 1; i >= 0 && kept < OUTPUT_MAX; i--) {
    parts.unshift(chunks[i]);
    kept += chunks[i].byteLength;
  }
  const text = dec.decode(concatBytes(parts));
  const cut = text.length > OUTPUT_MAX ? text.slice(text.length - OUTPUT_MAX) : text;
  return total > OUTPUT_MAX ? `[… ${total - cut.length} bytes cut]\n${cut}` : cut;
}

/** A call interrupted by a caught signal (SIGUSR1 asks for a checkpoint) is made again. */
export function again<T>(f: () => T): T {
  for (;;) {
    try {
      return f();
    } catch (e) {
      if (!(e instanceof SysError) || e.errno !== Errno.EINTR) throw e;
    }
  }
}

/**
 * Wait for a child agent through the model service, so this agent shows
 * waiting_child meanwhile; then reap it. A child that has not become an agent
 * yet (it is still starting) is looked at again shortly; one that ended
 * without ever becoming one is reaped as it is.
 */
function waitChild(sys: Sys, pid: number): [number, number] {
  for (;;) {
    try {
      again(() => sys.agent('wait', pid));
      break;
    } catch (e) {
      if (!(e instanceof SysError) || e.errno !== Errno.ESRCH) throw e;
    }
    const done = again(() => sys.waitpid(pid, WNOHANG));
    if (done[0] === pid) return done;
    sys.sleep(5);
  }
  return again(() => sys.waitpid(pid));
}

function describeStatus(status: number): string {
  return WIFSIGNALED(status) ? `killed by signal ${WTERMSIG(status)}` : `exit status ${WEXITSTATUS(status)}`;
}

/** Run argv with stdin /dev/null and stdout and stderr into one pipe; its output and wait status. */
function capture(cx: ToolContext, argv: string[], outFile?: string): { pid: number; output?: string; status?: number } {
  const { sys } = cx;
  const nul = sys.open('/dev/null', O_RDONLY);
  if (outFile !== undefined) {
    const out = sys.open(outFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600);
    try {
      return { pid: sys.spawn({ path: argv[0], argv, env: cx.env, fds: [[0, nul], [1, out], [2, out]] }) };
    } finally {
      sys.close(out);
      sys.close(nul);
    }
  }
  const [r, w] = sys.pipe();
  let pid: number;
  try {
    pid = sys.spawn({ path: argv[0], argv, env: cx.env, fds: [[0, nul], [1, w], [2, w]] });
  } finally {
    sys.close(w);
    sys.close(nul);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  let kept = 0;
  try {
    for (;;) {
      const b = again(() => sys.read(r));
      if (b.byteLength === 0) break;
      total += b.byteLength;
      kept += b.byteLength;
      chunks.push(b.slice());
      // Keep only about the last OUTPUT_MAX bytes while reading on.
      while (chunks.length > 1 && kept - chunks[0].byteLength > OUTPUT_MAX) kept -= chunks.shift()!.byteLength;
    }
  } finally {
    sys.close(r);
  }
  const [, status] = again(() => sys.waitpid(pid));
  return { pid, output: tail(chunks, total), status };
}

function edit(sys: Sys, path: string, from: string, to: string): string {
  if (from === '') throw new ToolFailure('edit_file: old_string is empty');
  const text = dec.decode(sys.readFile(path));
  const at = text.indexOf(from);
  if (at < 0) throw new ToolFailure(`edit_file: old_string not found in ${path}`);
  if (text.indexOf(from, at + 1) >= 0) throw new ToolFailure(`edit_file: old_string occurs more than once in ${path}; give more context`);
  sys.writeFile(path, text.slice(0, at) + to + text.slice(at + from.length));
  return `edited ${path}`;
}

/** Run one tool call; its result text, or a ToolFailure / SysError for the model to read. */
export function runTool(cx: ToolContext, call: ToolCall): string {
  const { sys } = cx;
  switch (call.name) {
    case 'bash': {
      const r = capture(cx, ['/bin/sh', '-c', arg(call, 'command')]);
      return r.status === 0 ? r.output! : `${r.output}${r.output && !r.output.endsWith('\n') ? '\n' : ''}[${describeStatus(r.status!)}]`;
    }
    case 'read_file': {
      const b = sys.readFile(arg(call, 'path'));
      return b.byteLength > OUTPUT_MAX * 4 ? `${dec.decode(b.subarray(0, OUTPUT_MAX * 4))}\n[… ${b.byteLength - OUTPUT_MAX * 4} more bytes]` : dec.decode(b);
    }
    case 'write_file': {
      const content = arg(call, 'content');
      sys.writeFile(arg(call, 'path'), content);
      return `wrote ${new TextEncoder().encode(content).byteLength} bytes to ${arg(call, 'path')}`;
    }
    case 'edit_file':
      return edit(sys, arg(call, 'path'), arg(call, 'old_string'), arg(call, 'new_string'));
    case 'list_dir':
      return sys.readdir(arg(call, 'path')).map((e) => `${e.name}${e.type === 4 ? '/' : ''}`).sort().join('\n');
    case 'spawn_agent': {
      const argv = [...cx.aosArgv, 'run', '--model', cx.model];
      if (cx.ask.length) argv.push('--ask', cx.ask.join(','));
      const agent = call.arguments.agent;
      const budget = call.arguments.budget;
      if (typeof budget === 'number') argv.push('--budget', String(budget));
      if (typeof agent === 'string' && agent) argv.push(agent);
      argv.push('--', arg(call, 'prompt'));
      const out = `/tmp/.aos-${sys.getpid()}-${cx.children.size + 1}.out`;
      const { pid } = capture(cx, argv, out);
      cx.children.set(pid, out);
      return `started agent ${pid}`;
    }
    case 'wait': {
      const pid = call.arguments.pid ?? cx.children.keys().next().value ?? -1;
      if (typeof pid !== 'number') throw new ToolFailure('wait: argument pid must be a number');
      const out = cx.children.get(pid);
      if (out === undefined) throw new ToolFailure(`wait: ${pid} is not a child agent of this one`);
      const [, status] = waitChild(sys, pid);
      cx.children.delete(pid);
      let text = '';
      try {
        text = dec.decode(sys.readFile(out));
        sys.unlink(out);
      } catch {
        // its output is gone: the status still tells
      }
      return `[${describeStatus(status)}]\n${text}`;
    }
    case 'ask_human': {
      // Write the question, then read: the read blocks until a person answers (status waiting_human meanwhile).
      const fd = sys.open('/aos/channels/human', O_RDWR);
      try {
        sys.write(fd, new TextEncoder().encode(arg(call, 'question')));
        return dec.decode(again(() => sys.readAll(fd)));
      } finally {
        sys.close(fd);
      }
    }
    default:
      throw new ToolFailure(`unknown tool ${call.name}`);
  }
}

/** A failed tool call as the model reads it. */
export function failureText(e: unknown): string {
  if (e instanceof SysError) return `error: ${e.message || strerror(e.errno)}`;
  if (e instanceof ToolFailure) return `error: ${e.message}`;
  throw e;
}

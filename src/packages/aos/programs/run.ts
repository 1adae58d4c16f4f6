// aos run: an agent process. It becomes an agent (the kernel's model service
// keeps its budget and trace), then loops: one model turn through the
// kernel, the tool calls it asked for, their results into the next turn,
// until a turn asks for no tool (its text is the answer, on stdout) or a
// limit ends it with the exit code of abi/agent.ts.

import { AgentExit, type AgentExitName, type ChatMessage, type ToolCall } from '../../../abi/agent.js';
import type { AgentInfo } from '../../../abi/agent-sys.js';
import { SysError } from '../../../abi/errno.js';
import { SIGALRM, SIGUSR1 } from '../../../abi/signal.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { agentConfig, type RunConfig, shebangConfig } from './config.js';
import { again, DEFAULT_TOOLS, failureText, runTool, TOOL_SPECS, type ToolContext, ToolFailure } from './tools.js';

const DEFAULT_MAX_TOKENS = 1024;
const DEFAULT_MAX_TURNS = 50;

export class UsageError extends Error {}

interface Options {
  model?: string;
  mock?: string;
  budgetUsd?: number;
  tokens?: number;
  maxTokens?: number;
  maxTurns: number;
  tools?: string[];
  ask?: string[];
  timeoutSec?: number;
  dryRun: boolean;
  checkpoint?: string;
  resume?: string;
  record?: string;
  operands: string[];
}

/** `aos replay FILE [--verify]`: the run a record starts with, and the record for the kernel. */
export interface ReplaySetup {
  text: string;
  verify: boolean;
  model: string;
  system: string;
  tools: string[];
  maxTokens: number;
  messages: ChatMessage[];
}

/** The checkpoint file: enough to go on in a new process (`aos run --resume FILE`). */
interface Checkpoint {
  version: 1;
  agent: string;
  model: string;
  system: string;
  tools: string[];
  maxTokens: number;
  /** What was left of the budget when it was written. */
  budgetUsd: number | null;
  messages: ChatMessage[];
}

const dec = new TextDecoder();

function numberOpt(name: string, v: string | undefined): number {
  const n = Number(v);
  if (v === undefined || v === '' || !Number.isFinite(n) || n < 0) throw new UsageError(`${name}: want a number >= 0, got '${v ?? ''}'`);
  return n;
}

export function parseRun(args: string[]): Options {
  const o: Options = { maxTurns: DEFAULT_MAX_TURNS, dryRun: false, operands: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      o.operands.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith('--') || a === '-') {
      o.operands.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq < 0 ? a : a.slice(0, eq);
    const value = () => (eq >= 0 ? a.slice(eq + 1) : args[++i]);
    switch (name) {
      case '--model': o.model = value(); break;
      case '--mock': o.mock = value(); break;
      case '--budget': o.budgetUsd = numberOpt(name, value()); break;
      case '--tokens': o.tokens = Math.floor(numberOpt(name, value())); break;
      case '--max-tokens': o.maxTokens = Math.floor(numberOpt(name, value())); break;
      case '--max-turns': o.maxTurns = Math.floor(numberOpt(name, value())); break;
      case '--tools': o.tools = (value() ?? '').split(',').map((s) => s.trim()).filter(Boolean); break;
      case '--ask': o.ask = (value() ?? '').split(',').map((s) => s.trim()).filter(Boolean); break;
      case '--timeout': o.timeoutSec = numberOpt(name, value()); break;
      case '--checkpoint': o.checkpoint = value(); break;
      case '--resume': o.resume = value(); break;
      case '--record': o.record = value(); break;
      case '--dry-run': o.dryRun = true; break;
      default: throw new UsageError(`unknown option ${name}`);
    }
  }
  return o;
}

function readStdin(os: AgentosApi): string {
  return dec.decode(os.sys.readAll(0));
}

/** The model string the kernel is asked for: a mock script as `mock:<absolute path>`. */
function modelString(os: AgentosApi, model: string | undefined, mock: string | undefined): string {
  const m = model ?? (mock !== undefined ? 'mock' : undefined);
  if (!m) throw new UsageError('no model: give --model, --mock FILE or AOS_MOCK, or an agent whose config names one');
  if (m !== 'mock') return m;
  if (!mock) throw new UsageError('model mock needs a script: --mock FILE or AOS_MOCK=FILE');
  return `mock:${os.sys.realpath(mock)}`;
}

/**
 * Run an agent. `shebang`: the path of a `#!/usr/bin/env aos` file, whose
 * directives and system prompt configure it, with stdin as the input.
 */
export function run(os: AgentosApi, args: string[], shebang?: string, replay?: ReplaySetup): number {
  const { sys } = os;
  const o = parseRun(args);
  let cfg: Partial<RunConfig> = {};
  let agent = '';
  let prompt: string;
  let messages: ChatMessage[] = [];
  let resumed: Checkpoint | null = null;
  if (replay) {
    cfg = { model: replay.model, system: replay.system, tools: replay.tools, maxTokens: replay.maxTokens };
    messages = replay.messages;
    prompt = '';
  } else if (o.resume) {
    resumed = JSON.parse(dec.decode(sys.readFile(o.resume))) as Checkpoint;
    if (resumed.version !== 1 || !Array.isArray(resumed.messages)) throw new UsageError(`${o.resume}: not an aos checkpoint`);
    cfg = { model: resumed.model, system: resumed.system, tools: resumed.tools, maxTokens: resumed.maxTokens, budgetUsd: resumed.budgetUsd ?? undefined };
    agent = resumed.agent;
    messages = resumed.messages;
    prompt = '';
  } else if (shebang) {
    cfg = shebangConfig(dec.decode(sys.readFile(shebang)));
    agent = shebang.replace(/^.*\//, '');
    const input = readStdin(os);
    prompt = [o.operands.join(' '), input].filter((s) => s !== '').join('\n\n');
  } else {
    const named = o.operands.length ? agentConfig(sys, o.operands[0]) : null;
    if (named) {
      agent = o.operands.shift()!;
      cfg = named;
    }
    prompt = o.operands.length ? o.operands.join(' ') : readStdin(os);
  }
  if (!resumed && !replay) {
    if (prompt.trim() === '') throw new UsageError('no prompt: give it as an argument or on stdin');
    messages = [{ role: 'user', content: prompt }];
  }
  const model = replay ? replay.model : modelString(os, o.model ?? os.env.AOS_MODEL ?? cfg.model, o.mock ?? os.env.AOS_MOCK);
  const chosen = o.tools ?? cfg.tools;
  const tools = (chosen ?? DEFAULT_TOOLS).filter((t) => t in TOOL_SPECS);
  // Asks only add up: the config's, the command line's (a parent agent passes its own down).
  const ask = [...new Set([...(cfg.ask ?? []), ...(o.ask ?? [])])];
  const maxTokens = o.maxTokens ?? cfg.maxTokens ?? DEFAULT_MAX_TOKENS;
  const budgetUsd = o.budgetUsd ?? cfg.budgetUsd;
  const timeoutSec = o.timeoutSec ?? cfg.timeoutSec;
  const system = cfg.system ?? '';
  let offered = tools;
  const request = () => ({ model, ...(system ? { system } : {}), messages, tools: offered.map((t) => TOOL_SPECS[t]), maxTokens });

  if (o.dryRun) {
    const e = sys.agent('estimate', request());
    os.print(`model: ${e.model}\ninput_tokens_max: ${e.inputTokens}\noutput_tokens_max: ${e.outputTokens}\nestimated_cost_usd_max: ${e.usd.toFixed(6)}\n`);
    if (budgetUsd !== undefined) os.print(`will_exceed_budget: ${e.usd > budgetUsd}\n`);
    return 0;
  }

  // A chosen set of tools narrows this process's capabilities first, so whatever it starts (a child agent
  // through spawn_agent or bash) gets at most these: capabilities only intersect down.
  // A replay reaches nothing: no network for it or its tools (the replayed model needs none either).
  if (chosen || replay) sys.aosctl('restrict', { ...(chosen ? { tools } : {}), ...(replay ? { network: 'none' as const } : {}) });
  const me: AgentInfo = sys.agent('begin', {
    agent, model, ...(budgetUsd !== undefined ? { budgetUsd } : {}), ...(o.tokens !== undefined ? { tokens: o.tokens } : {}), tools,
    ...(o.record ? { record: true } : {}), ...(replay ? { replay: { text: replay.text, verify: replay.verify } } : {}),
  });
  // The model is offered what the kernel granted: the operator's config and the parent agent may have narrowed it.
  offered = me.tools;
  const recorded: string[] = [];
  const finish = (name: AgentExitName, reason: string): number => {
    if (replay?.verify) {
      // The verdict is the answer of a verifying replay: MATCH (exit 0) or the first DIFF (exit 1).
      const v = sys.agent('verdict');
      os.print(`${v.text}\n`);
      sys.agent('exit', v.match ? 0 : 1, v.match ? 'SUCCESS' : 'FAILURE', v.text);
      return v.match ? 0 : 1;
    }
    const code = AgentExit[name];
    if (code !== 0) os.eprint(`aos: ${name.toLowerCase().replace(/_/g, ' ')}: ${reason}\n`);
    try {
      sys.agent('exit', code, name, reason);
    } catch {
      // the kernel still records the exit status
    }
    return code;
  };
  const cx: ToolContext = { sys, env: Object.entries(os.env).map(([k, v]) => `${k}=${v}`), aosArgv: [os.argv[0]], model, children: new Map(), ask };
  let checkpointNow = false;
  const checkpointPath = o.checkpoint ?? `/tmp/aos-${os.pid}.checkpoint.json`;
  const writeCheckpoint = () => {
    const [b] = sys.agent('list', os.pid);
    const left = b.budget.limitUsd < 0 ? null : Math.max(0, b.budget.limitUsd - b.budget.spentUsd);
    const cp: Checkpoint = { version: 1, agent, model, system, tools: me.tools, maxTokens, budgetUsd: left, messages };
    sys.writeFile(checkpointPath, `${JSON.stringify(cp)}\n`, 0o600);
  };
  // SIGUSR1 (/aos/procs/<pid>/ctl `checkpoint`): a checkpoint at the next turn.
  os.signal(SIGUSR1, () => {
    checkpointNow = true;
  });
  if (timeoutSec) {
    os.signal(SIGALRM, () => os.exit(finish('TIMEOUT', `no answer within ${timeoutSec} s`)));
    sys.alarm(Math.ceil(timeoutSec));
  }

  for (let turn = 0; turn < o.maxTurns; turn++) {
    if (checkpointNow || o.checkpoint) {
      checkpointNow = false;
      writeCheckpoint();
    }
    // A checkpoint request must not break a model call (it would be lost, though paid): SIGUSR1 waits for its end.
    sys.sigprocmask(0, 1 << SIGUSR1);
    let res;
    try {
      res = sys.agent('call', request());
    } finally {
      sys.sigprocmask(1, 1 << SIGUSR1);
    }
    if (o.record) {
      // The kernel's record of the call (what it sent and received), kept in the agent's file as it goes.
      recorded.push(...sys.agent('record'));
      sys.writeFile(o.record, `${recorded.join('\n')}\n`, 0o600);
    }
    if (!res.ok) return finish(res.exit, res.reason);
    const { reply } = res;
    messages.push(reply.toolCalls.length ? { role: 'assistant', content: reply.text, toolCalls: reply.toolCalls } : { role: 'assistant', content: reply.text });
    if (reply.toolCalls.length === 0) {
      if (o.checkpoint) writeCheckpoint();
      if (reply.text && !replay?.verify) os.print(reply.text.endsWith('\n') ? reply.text : `${reply.text}\n`);
      return finish('SUCCESS', 'completed');
    }
    for (const call of reply.toolCalls) {
      // The model asked for a tool this agent was not given: a capability violation, not a tool error.
      if (!me.tools.includes(call.name)) return finish('REFUSED', `the model called ${call.name}, which is not among this agent's tools (${me.tools.join(', ') || 'none'})`);
      // A tool the config marks `ask` runs only once a person approved this call (the intent is in the trace).
      const approved = !ask.includes(call.name) || again(() => sys.aosctl('ask', call)) === 'allow';
      messages.push(approved ? toolResult(cx, call) : { role: 'tool', toolCallId: call.id, name: call.name, content: `rejected: ${call.name} needs a person's approval, and it was not given`, isError: true });
    }
  }
  return finish('FAILURE', `no answer after ${o.maxTurns} turns (--max-turns)`);
}

function toolResult(cx: ToolContext, call: ToolCall): ChatMessage {
  try {
    return { role: 'tool', toolCallId: call.id, name: call.name, content: runTool(cx, call) };
  } catch (e) {
    if (!(e instanceof SysError) && !(e instanceof ToolFailure)) throw e;
    return { role: 'tool', toolCallId: call.id, name: call.name, content: failureText(e), isError: true };
  }
}

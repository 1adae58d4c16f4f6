// aos: agents in agentOS (docs/agents.md).
//   aos run [AGENT] [options] [PROMPT]   run an agent (prompt from the argument or stdin)
//   aos ps [--tree]                      list agent processes
//   aos kill [-SIGNAL] PID               signal an agent (STOP/CONT pause and resume it)
//   aos wait PID                         wait for an agent to end; its exit code
//   aos budget [PID]                     budgets and spend
//   aos trace PID, aos core [PID]        an agent's trace; core files of agents that failed (exit >= 96)
//   aos replay FILE [--verify]           rerun a recorded run, no network; MATCH or the first DIFF
//   aos approve|reject ID [REASON]       decide intent ID (root, outside every agent's tree)
//   aos answer ID TEXT...                answer question ID of /aos/channels/human
//   aos pending [PID]                    the intents and questions waiting, one JSON line each
//   aos FILE [ARGS]                      a shebang agent (#!/usr/bin/env aos)

import type { AgentInfo } from '../../../abi/agent-sys.js';
import { SysError, strerror } from '../../../abi/errno.js';
import { SIGTERM, signalFromName } from '../../../abi/signal.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import type { ChatMessage } from '../../../abi/agent.js';
import { type ReplaySetup, run, UsageError } from './run.js';

const USAGE = `Usage: aos COMMAND [ARGS]
  aos run [AGENT] [--model M] [--mock FILE] [--budget USD] [--tokens N]
          [--max-tokens N] [--max-turns N] [--tools a,b] [--timeout SEC]
          [--ask a,b] [--record FILE] [--checkpoint FILE] [--resume FILE] [--dry-run] [PROMPT]
  aos ps [--tree]
  aos kill [-SIGNAL] PID
  aos wait PID
  aos budget [PID]
  aos trace PID         its trace, one JSON event a line
  aos core [PID]        core files (exit >= 96), one JSON object a line
  aos replay FILE [--verify]   rerun a record (aos run --record FILE) with no network: MATCH or the first DIFF
  aos approve|reject ID [REASON]   decide an intent (the operator: root outside every agent)
  aos answer ID TEXT    answer a question of /aos/channels/human
  aos pending [PID]     intents and questions waiting, one JSON object a line
  aos FILE [ARGS]       run a shebang agent (#!/usr/bin/env aos): stdin in, answer out
`;

const usd = (n: number) => (n < 0 ? 'unlimited' : `$${n.toFixed(6)}`);
const tokens = (n: number) => (n < 0 ? 'unlimited' : String(n));

function pidArg(v: string | undefined): number {
  if (!v || !/^\d+$/.test(v)) throw new UsageError(`want a pid, got '${v ?? ''}'`);
  return Number(v);
}

function ps(os: AgentosApi, args: string[]): number {
  const all = os.sys.agent('list', 0);
  const line = (a: AgentInfo) => `${a.pid} ${a.agent || '-'} ${a.model} ${a.status}${a.exit ? ` ${a.exit.code} ${a.exit.name}` : ''} ${usd(a.budget.spentUsd)}/${usd(a.budget.limitUsd)}`;
  if (!args.includes('--tree')) {
    os.print(`PID AGENT MODEL STATUS SPENT/LIMIT\n${all.map((a) => `${line(a)}\n`).join('')}`);
    return 0;
  }
  const pids = new Set(all.map((a) => a.pid));
  const kids = (pid: number) => all.filter((a) => a.parent === pid);
  const out: string[] = [];
  const walk = (a: AgentInfo, prefix: string, last: boolean, root: boolean) => {
    out.push(`${root ? '' : `${prefix}${last ? '└── ' : '├── '}`}${line(a)}`);
    const cs = kids(a.pid);
    cs.forEach((c, i) => walk(c, root ? '' : `${prefix}${last ? '    ' : '│   '}`, i === cs.length - 1, false));
  };
  for (const a of all.filter((x) => !pids.has(x.parent))) walk(a, '', true, true);
  os.print(out.map((l) => `${l}\n`).join(''));
  return 0;
}

function budget(os: AgentosApi, args: string[]): number {
  const list = args.length ? os.sys.agent('list', pidArg(args[0])) : os.sys.agent('list', 0);
  for (const a of list) {
    const b = a.budget;
    os.print(`${a.pid}: limit ${usd(b.limitUsd)} spent ${usd(b.spentUsd)} tokens ${b.tokensUsed}/${tokens(b.tokensLimit)}\n`);
  }
  return 0;
}

function kill(os: AgentosApi, args: string[]): number {
  let sig = SIGTERM;
  if (args[0]?.startsWith('-')) {
    const s = signalFromName(args.shift()!.slice(1));
    if (s === undefined) throw new UsageError('unknown signal');
    sig = s;
  }
  os.sys.kill(pidArg(args[0]), sig);
  return 0;
}

function pending(os: AgentosApi, args: string[]): number {
  const r = os.sys.aosctl('pending', args.length ? pidArg(args[0]) : 0);
  for (const i of r.intents) os.print(`${JSON.stringify({ intent: i.id, pid: i.pid, tool: i.tool, arguments: i.arguments })}\n`);
  for (const q of r.questions) os.print(`${JSON.stringify({ question: q.id, pid: q.pid, text: q.question })}\n`);
  return 0;
}

function idArg(v: string | undefined): number {
  if (!v || !/^\d+$/.test(v)) throw new UsageError(`want an id, got '${v ?? ''}'`);
  return Number(v);
}

/** `aos replay FILE [--verify]`: rerun the recorded agent from its first request, every model call answered from the record. */
function replay(os: AgentosApi, args: string[]): number {
  const verify = args.includes('--verify');
  const files = args.filter((a) => a !== '--verify');
  if (files.length !== 1 || files[0].startsWith('-')) throw new UsageError('replay: want one record FILE');
  const text = new TextDecoder().decode(os.sys.readFile(files[0]));
  // The kernel checks the whole record at begin; here only the run it starts with is needed.
  const first = text.split('\n').map((l) => (l.trim() ? JSON.parse(l) as { type?: string; request?: { model?: string; system?: string; messages?: ChatMessage[]; tools?: { name: string }[]; maxTokens?: number } } : null)).find((v) => v?.type === 'call');
  const req = first?.request;
  if (!req || typeof req.model !== 'string' || !Array.isArray(req.messages) || typeof req.maxTokens !== 'number') throw new UsageError(`replay: ${files[0]}: no recorded call`);
  const setup: ReplaySetup = { text, verify, model: req.model, system: req.system ?? '', tools: (req.tools ?? []).map((t) => t.name), maxTokens: req.maxTokens, messages: req.messages };
  return run(os, [], undefined, setup);
}

function wait(os: AgentosApi, args: string[]): number {
  const e = os.sys.agent('wait', pidArg(args[0]));
  os.print(`${args[0]}: ${e.code} ${e.name}: ${e.reason}\n`);
  return e.code;
}

export default function main(os: AgentosApi): void {
  const [cmd, ...rest] = os.argv.slice(1);
  let code: number;
  try {
    switch (cmd) {
      case 'run': code = run(os, rest); break;
      case 'ps': code = ps(os, rest); break;
      case 'kill': code = kill(os, rest); break;
      case 'wait': code = wait(os, rest); break;
      case 'budget': code = budget(os, rest); break;
      case 'approve': case 'reject':
        code = os.sys.aosctl('decide', idArg(rest[0]), cmd === 'approve', rest.slice(1).join(' '));
        break;
      case 'answer':
        code = os.sys.aosctl('answer', idArg(rest[0]), rest.slice(1).join(' '));
        break;
      case 'pending': code = pending(os, rest); break;
      case 'replay': code = replay(os, rest); break;
      case 'trace':
        for (const l of os.sys.agent('trace', pidArg(rest[0]))) os.print(`${l}\n`);
        code = 0;
        break;
      case 'core':
        for (const c of os.sys.agent('cores', rest.length ? pidArg(rest[0]) : 0)) os.print(`${c}\n`);
        code = 0;
        break;
      case '--help': case 'help':
        os.print(USAGE);
        code = 0;
        break;
      case undefined:
        os.eprint(USAGE);
        code = 2;
        break;
      default:
        // `#!/usr/bin/env aos` runs `aos FILE ARGS...`.
        if (!cmd.includes('/') && !cmd.endsWith('.aos')) throw new UsageError(`unknown command ${cmd}`);
        code = run(os, rest, cmd);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      os.eprint(`aos: ${e.message}\n${USAGE}`);
      code = 2;
    } else if (e instanceof SysError) {
      os.eprint(`aos: ${e.detail ? `${e.detail} (${strerror(e.errno)})` : strerror(e.errno)}\n`);
      code = 1;
    } else if (e instanceof SyntaxError) {
      os.eprint(`aos: ${e.message}\n`);
      code = 2;
    } else {
      throw e;
    }
  }
  os.exit(code);
}

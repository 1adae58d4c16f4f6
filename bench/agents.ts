// Agents (issue 19): an agent process's start to its first model request
// (mock backend), a tool call's round trip (the reply's tool call to the next
// request that carries its result), and the kernel's trace writing against
// the time of a model turn. Times come from the kernel's own trace.

import { AgentVM } from '../src/host/node/index.js';
import { AgentTable } from '../src/kernel/agent/table.js';
import type { Figure } from './run.js';

const RUNS = 15;
const TOOL_CALLS = 40;

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const line = (o: object) => JSON.stringify(o);

interface Ev {
  t: number;
  type: string;
  proc_started?: number;
}

async function trace(vm: AgentVM, cmd: string): Promise<Ev[]> {
  const r = await vm.exec(`${cmd} >/dev/null & p=$!; wait $p || exit 1; aos trace $p`);
  if (r.exitCode !== 0) throw new Error(`agents bench: ${cmd}: ${r.stderr}`);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Ev);
}

/** Microseconds per trace event as the model service writes them (a tool result of a few hundred bytes). */
function traceEventUs(): number {
  const t = new AgentTable();
  const a = { pid: 7, ppid: 1, agent: '', model: 'mock', status: 'running' as const, budget: { limitUsd: 1, spentUsd: 0, tokensLimit: Infinity, tokensUsed: 0 }, trace: [] as string[], intents: new Map(), exit: null, started: 0, parent: null, tools: [], messages: [], uid: 1000 };
  const N = 20_000;
  const content = 'x'.repeat(300);
  t.add(a);
  for (let i = 0; i < 1000; i++) t.record(7, { type: 'warm', content });
  const t0 = performance.now();
  for (let i = 0; i < N; i++) t.record(7, { type: 'tool_result', id: `call_${i}`, name: 'bash', content, is_error: false });
  return ((performance.now() - t0) * 1000) / N;
}

export async function runAgentBenches(): Promise<Figure[]> {
  const vm = new AgentVM();
  await vm.start();
  try {
    await vm.writeFile('/tmp/one.jsonl', `${line({ text: 'done' })}\n`);
    await vm.writeFile('/tmp/f.txt', 'hello\n');
    const toolTurn = (name: string, args: object) => line({ text: '', tool_calls: [{ name, arguments: args }], usage: { input_tokens: 10, output_tokens: 10 } });
    await vm.writeFile('/tmp/read.jsonl', `${Array.from({ length: TOOL_CALLS }, () => toolTurn('read_file', { path: '/tmp/f.txt' })).join('\n')}\n${line({ text: 'done' })}\n`);
    await vm.writeFile('/tmp/bash.jsonl', `${Array.from({ length: TOOL_CALLS }, () => toolTurn('bash', { command: 'true' })).join('\n')}\n${line({ text: 'done' })}\n`);
    await trace(vm, 'aos run --mock /tmp/one.jsonl warm');
    const starts: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const ev = await trace(vm, 'aos run --mock /tmp/one.jsonl go');
      starts.push(ev.find((e) => e.type === 'model_call')!.t - ev[0].proc_started!);
    }
    const roundTrips = (ev: Ev[]) => {
      const out: number[] = [];
      ev.forEach((e, i) => {
        if (e.type !== 'tool_call') return;
        const next = ev.slice(i).find((x) => x.type === 'model_call');
        if (next) out.push(next.t - e.t);
      });
      return out;
    };
    const readEv = await trace(vm, 'aos run --max-turns 100 --mock /tmp/read.jsonl go');
    const bashEv = await trace(vm, 'aos run --max-turns 100 --mock /tmp/bash.jsonl go');
    const read = roundTrips(readEv);
    const bash = roundTrips(bashEv);
    // A turn's time: a model call and a read_file round trip, over the run (ms, not rounded to the clock's ms).
    const turnMs = (readEv.at(-1)!.t - readEv[1].t) / TOOL_CALLS;
    const perTurnUs = traceEventUs() * 4; // model_call, model_reply, tool_call, tool_result
    const overhead = (perTurnUs / 1000 / turnMs) * 100;
    return [
      {
        name: 'agent: process start to first model request (mock), p50', host: 'node', value: p50(starts), unit: 'ms',
        goal: '≤ 20 ms', met: p50(starts) <= 20, baseline: null,
      },
      {
        name: 'agent: tool call round trip (read_file), p50', host: 'node', value: p50(read), unit: 'ms',
        goal: '≤ 5 ms', met: p50(read) <= 5, baseline: { name: 'bash `true` as the tool (a child process), p50', value: p50(bash), unit: 'ms' },
      },
      {
        name: 'agent: trace writing per model turn (4 events) / the turn', host: 'node', value: overhead, unit: '%',
        goal: '≤ 5%', met: overhead <= 5, baseline: { name: 'one model turn with a read_file call, mean', value: turnMs, unit: 'ms' },
      },
    ];
  } finally {
    await vm.stop();
  }
}

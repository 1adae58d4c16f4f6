// vm.agents: agent processes from the host. `run` starts `aos run` as the
// VM's user (an ordinary process: the VM's policy, budgets and approvals hold
// as for one started in a shell); `list`, `trace`, `approve`, `answer` and
// `signal` read and act through the kernel's own calls, as init;
// `on('trace')` follows every agent's trace (polled: the kernel keeps each
// trace, so nothing is missed between polls). One class for every host: what
// differs is how a syscall and a run reach the kernel (AgentPort) — directly
// on AgentVM, through the sandbox page on BrowserVM and FrameVM.

import type { AgentInfo } from '../../abi/agent-sys.js';
import type { HumanQuestion, IntentInfo } from '../../abi/aos.js';
import type { Value } from '../../abi/codec.js';
import type { SpawnedProcess } from './agent-vm.js';

export interface AgentRunOptions {
  /** An operator's agent (/etc/aos/agents.d/<agent>.yaml). */
  agent?: string;
  model?: string;
  /** A mock script (a path in the VM). */
  mock?: string;
  budgetUsd?: number;
  tools?: string[];
  /** Tools that wait for an approval (onApproval, vm.agents.approve). */
  ask?: string[];
}

export interface AgentRunResult {
  /** The agent's exit code (docs/agents.md: 0 answered, 64 budget, 96 refused, ...). */
  code: number;
  /** Its answer (stdout). */
  answer: string;
  stderr: string;
}

export interface RunningAgent {
  pid: number;
  wait(): Promise<AgentRunResult>;
}

export interface TraceEvent {
  pid: number;
  event: Record<string, unknown>;
}

type TraceListener = (e: TraceEvent) => void;

/** What is waiting for a person: intents (approve/reject) and ask_human questions (answer). */
export interface AgentPending {
  intents: IntentInfo[];
  questions: HumanQuestion[];
}

/** How vm.agents reaches the kernel: a syscall as init, and `aos run` as the VM's user. */
export interface AgentPort {
  syscall(name: 'agent' | 'aosctl' | 'kill', args: Value[]): Promise<unknown>;
  run(prompt: string, opts: AgentRunOptions): Promise<RunningAgent>;
}

/** Signals that steer an agent: pause, resume, ask it to stop, end it. */
const SIGNALS = { STOP: 19, CONT: 18, TERM: 15, KILL: 9 } as const;
export type AgentSignal = keyof typeof SIGNALS;

const POLL_MS = 100;
const dec = new TextDecoder();

async function text(s: AsyncIterable<Uint8Array>): Promise<string> {
  let out = '';
  for await (const b of s) out += dec.decode(b, { stream: true });
  return out;
}

/** `aos run` with its stdio as streams (AgentVM's spawn): the answer is its stdout. */
export async function runAos(spawn: (argv: string[]) => Promise<SpawnedProcess>, prompt: string, opts: AgentRunOptions): Promise<RunningAgent> {
  const argv = ['/bin/sh', '-c', 'exec aos "$@"', 'aos', 'run'];
  if (opts.model) argv.push('--model', opts.model);
  if (opts.mock) argv.push('--mock', opts.mock);
  if (opts.budgetUsd !== undefined) argv.push('--budget', String(opts.budgetUsd));
  if (opts.tools) argv.push('--tools', opts.tools.join(','));
  if (opts.ask) argv.push('--ask', opts.ask.join(','));
  if (opts.agent) argv.push(opts.agent);
  argv.push('--', prompt);
  const p = await spawn(argv);
  await p.closeStdin();
  const out = Promise.all([text(p.stdout), text(p.stderr)]);
  const done = Promise.all([p.wait(), out]).then(([code, [answer, stderr]]) => ({ code, answer, stderr }));
  return { pid: p.pid, wait: () => done };
}

export class Agents {
  private readonly listeners = new Set<TraceListener>();
  /** Events delivered per agent, by pid and start time (a pid is reused once the kernel forgot its agent). */
  private readonly seen = new Map<string, number>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly port: AgentPort) {}

  /** Start an agent on `prompt`; `wait()` gives its exit code and answer. */
  run(prompt: string, opts: AgentRunOptions = {}): Promise<RunningAgent> {
    return this.port.run(prompt, opts);
  }

  /** Every agent process the kernel records (running and ended, until reaped). */
  list(): Promise<AgentInfo[]> {
    return this.port.syscall('agent', ['list', 0]) as Promise<AgentInfo[]>;
  }

  /** Agent `pid`'s trace, one event each, from event `from` on. */
  async trace(pid: number, from = 0): Promise<Record<string, unknown>[]> {
    const lines = (await this.port.syscall('agent', ['trace', pid, from])) as string[];
    return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  /** Intents and ask_human questions waiting for a person (of agent `pid`, or of all). */
  pending(pid = 0): Promise<AgentPending> {
    return this.port.syscall('aosctl', ['pending', pid]) as Promise<AgentPending>;
  }

  /** Decide intent `id` (an `ask` tool call waiting), as the host. */
  async approve(id: number, allow: boolean, reason = ''): Promise<void> {
    await this.port.syscall('aosctl', ['decide', id, allow, reason]);
  }

  /** Answer question `id` (an agent's ask_human), as the host. */
  async answer(id: number, text: string): Promise<void> {
    await this.port.syscall('aosctl', ['answer', id, text]);
  }

  /** Pause (STOP), resume (CONT), stop (TERM) or kill (KILL) agent `pid`. */
  async signal(pid: number, sig: AgentSignal): Promise<void> {
    if (!Object.hasOwn(SIGNALS, sig)) throw new Error(`vm.agents: unknown signal ${sig as string} (STOP, CONT, TERM or KILL)`);
    await this.port.syscall('kill', [pid, SIGNALS[sig]]);
  }

  /** Each new trace event of every agent, as it is recorded. Returns a function that unsubscribes. */
  on(event: 'trace', cb: TraceListener): () => void {
    if (event !== 'trace') throw new Error(`vm.agents: unknown event ${event as string}`);
    this.listeners.add(cb);
    if (!this.timer) this.timer = setTimeout(() => void this.poll(), 0);
    return () => {
      this.listeners.delete(cb);
      if (this.listeners.size === 0 && this.timer) {
        clearTimeout(this.timer);
        this.timer = null;
      }
    };
  }

  private async poll(): Promise<void> {
    try {
      const live = new Set<string>();
      for (const a of await this.list()) {
        const key = `${a.pid}@${a.started}`;
        live.add(key);
        const from = this.seen.get(key) ?? 0;
        // The list says how many events each trace has: only a trace with new ones is read (each
        // read is a round trip to the page on a BrowserVM), an ended agent's included — a leftover
        // descendant may still add to it (a question it asks, a refusal).
        if (a.events <= from) continue;
        const events = await this.trace(a.pid, from).catch(() => []); // reaped since the list: gone
        this.seen.set(key, from + events.length);
        for (const event of events) this.listeners.forEach((l) => l({ pid: a.pid, event }));
      }
      // Agents the kernel forgot are forgotten here too.
      for (const key of this.seen.keys()) if (!live.has(key)) this.seen.delete(key);
    } catch {
      // the VM stopped: the next poll sees
    }
    if (this.listeners.size) this.timer = setTimeout(() => void this.poll(), POLL_MS);
  }

  /** Stop following traces (the VM stops). */
  close(): void {
    this.listeners.clear();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

// The Agents panel: start an agent (prompt, an operator's agent by name,
// model, mock script, budget, its tools and those that wait for a person's
// approval), see every agent the kernel records (status, spend against
// budget, exit), pause, resume or kill one, read its trace, and decide what
// waits for a person — intents (Approve/Reject) and ask_human questions
// (Answer). All of it is vm.agents:
// `aos run` as the VM's user, the kernel's agent table and its aosctl calls as
// the host, so the policy and budgets hold as in a shell.

import type { AgentInfo } from '../../abi/agent-sys.js';
import type { AgentPending, Agents, AgentSignal } from '../../host/api/agents.js';
import { el } from '../dom.js';

const usd = (n: number) => `$${n.toFixed(n < 0.01 && n > 0 ? 6 : 4)}`;
/** Trace lines kept on screen (the kernel has them all: `aos trace PID`). */
const TRACE_LINES = 200;

export class AgentsPanel {
  readonly root: HTMLElement;
  private readonly prompt = el('textarea', { ariaLabel: 'Prompt', placeholder: 'What should the agent do?', rows: 3, required: true });
  private readonly agent = el('input', { type: 'text', ariaLabel: 'Agent name', placeholder: 'agent: NAME of /etc/aos/agents.d/NAME.yaml (none: ad hoc)', spellcheck: false });
  private readonly model = el('input', { type: 'text', ariaLabel: 'Model', placeholder: 'model: mock (with a script), or one of models.yaml', spellcheck: false });
  private readonly mock = el('input', { type: 'text', ariaLabel: 'Mock script', placeholder: '/tmp/script.jsonl (model mock)', spellcheck: false });
  private readonly budget = el('input', { type: 'number', ariaLabel: 'Budget (USD)', placeholder: 'budget USD', min: '0', step: 'any' });
  private readonly tools = el('input', { type: 'text', ariaLabel: 'Tools given', placeholder: 'tools: bash,read_file (none: all)', spellcheck: false });
  private readonly ask = el('input', { type: 'text', ariaLabel: 'Ask first (tools)', placeholder: 'ask first: write_file,bash', spellcheck: false });
  private readonly waiting = el('ul', { className: 'agents-pending', ariaLabel: 'Waiting for you' });
  private readonly list = el('ul', { className: 'agents', ariaLabel: 'Agents' });
  private readonly trace = el('pre', { className: 'agent-trace', ariaLabel: 'Trace' });
  private readonly message = el('p', { className: 'muted', role: 'status' });
  /** The agent whose trace is shown, and how many of its events are. */
  private shown: { pid: number; from: number } | null = null;
  private busy = false;

  constructor(private readonly agents: () => Agents) {
    const form = el('form', { className: 'agents-form' }, this.prompt, this.agent, this.model, this.mock, this.budget, this.tools, this.ask,
      el('button', { type: 'submit', className: 'small', textContent: 'Start agent' }));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.start();
    });
    const about = el('p', { className: 'muted' },
      'An agent is a process (aos run): its tools are this VM, its budget and trace the kernel\'s. ',
      'An agent named here runs with its operator config (/etc/aos/agents.d/NAME.yaml: model, budget, tools as a ceiling). ',
      'Model mock answers from a script in the VM (one JSON line a turn, docs/agents.md); other models come from /etc/aos/models.yaml with a key from the Keys panel.');
    this.root = el('section', { id: 'agents', className: 'panel' }, about, form, this.message,
      el('h3', { textContent: 'Waiting for you' }), this.waiting,
      el('h3', { textContent: 'Agents' }), this.list, this.trace);
  }

  private async start(): Promise<void> {
    const prompt = this.prompt.value.trim();
    if (!prompt) return;
    const budget = this.budget.value === '' ? undefined : Number(this.budget.value);
    const list = (i: HTMLInputElement) => i.value.split(',').map((t) => t.trim()).filter(Boolean);
    const tools = list(this.tools);
    const ask = list(this.ask);
    try {
      const a = await this.agents().run(prompt, {
        agent: this.agent.value.trim() || undefined,
        model: this.model.value.trim() || undefined,
        mock: this.mock.value.trim() || undefined,
        budgetUsd: budget,
        ...(tools.length ? { tools } : {}),
        ...(ask.length ? { ask } : {}),
      });
      this.message.textContent = `Agent ${a.pid} started.`;
      this.show(a.pid);
      void a.wait().then((r) => {
        const said = (r.answer || r.stderr).trim();
        this.message.textContent = `Agent ${a.pid} ended with exit ${r.code}${said ? `: ${said}` : ''}`;
        void this.refresh();
      }, (e: unknown) => (this.message.textContent = (e as Error).message));
    } catch (e) {
      this.message.textContent = (e as Error).message;
    }
    await this.refresh();
  }

  /** Redraw from the kernel's state: the agents, what waits for a person, the shown trace. */
  async refresh(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const agents = this.agents();
      const [all, pending] = await Promise.all([agents.list(), agents.pending()]);
      this.drawAgents(all);
      this.drawPending(pending);
      if (this.shown) {
        const more = await agents.trace(this.shown.pid, this.shown.from).catch(() => []);
        this.shown.from += more.length;
        if (more.length) {
          const lines = [...this.trace.textContent.split('\n').filter(Boolean), ...more.map((e) => JSON.stringify(e))];
          this.trace.textContent = `${lines.slice(-TRACE_LINES).join('\n')}\n`;
        }
      }
    } catch (e) {
      this.message.textContent = (e as Error).message;
    } finally {
      this.busy = false;
    }
  }

  private drawAgents(all: AgentInfo[]): void {
    const button = (label: string, act: () => Promise<unknown>) => {
      const b = el('button', { className: 'small', textContent: label });
      b.addEventListener('click', () => void this.act(act));
      return b;
    };
    const sig = (pid: number, s: AgentSignal) => () => this.agents().signal(pid, s);
    this.list.replaceChildren(...all.map((a) => {
      const b = a.budget;
      const spend = `${usd(b.spentUsd)} of ${b.limitUsd < 0 ? 'no limit' : usd(b.limitUsd)}`;
      const ended = a.status === 'exited';
      const kids: (Node | string)[] = [
        el('span', { className: 'name' }, `${a.pid} ${a.agent || 'ad hoc'} · ${a.model}`),
        el('span', { className: 'status' }, ended ? `exited ${a.exit?.code ?? '?'} ${a.exit?.name ?? ''}`.trim() : a.status),
        el('span', { className: 'muted spend' }, spend),
        button('Trace', async () => this.show(a.pid)),
      ];
      if (!ended) {
        kids.push(a.status === 'paused' ? button('Resume', sig(a.pid, 'CONT')) : button('Pause', sig(a.pid, 'STOP')));
        kids.push(button('Kill', sig(a.pid, 'KILL')));
      }
      return el('li', { dataset: { pid: String(a.pid), status: a.status } }, ...kids);
    }));
    if (!all.length) this.list.replaceChildren(el('li', { className: 'muted' }, 'No agents yet.'));
  }

  private drawPending(p: AgentPending): void {
    const intents = p.intents.map((i) => {
      const yes = el('button', { className: 'small', textContent: 'Approve' });
      const no = el('button', { className: 'small danger', textContent: 'Reject' });
      yes.addEventListener('click', () => void this.act(() => this.agents().approve(i.id, true)));
      no.addEventListener('click', () => void this.act(() => this.agents().approve(i.id, false, 'rejected in the playground')));
      return el('li', { dataset: { intent: String(i.id) } },
        el('span', { className: 'name' }, `agent ${i.pid} wants ${i.tool}`),
        el('code', {}, JSON.stringify(i.arguments)), yes, no);
    });
    const questions = p.questions.map((q) => {
      const text = el('input', { type: 'text', ariaLabel: `Answer to question ${q.id}`, spellcheck: false });
      const form = el('form', { className: 'row' }, text, el('button', { type: 'submit', className: 'small', textContent: 'Answer' }));
      form.addEventListener('submit', (e) => {
        e.preventDefault();
        void this.act(() => this.agents().answer(q.id, text.value));
      });
      return el('li', { dataset: { question: String(q.id) } }, el('span', { className: 'name' }, `agent ${q.pid} asks: ${q.question}`), form);
    });
    // A person may be typing an answer: redraw only when what waits changed.
    const key = JSON.stringify([p.intents.map((i) => i.id), p.questions.map((q) => q.id)]);
    if (this.waiting.dataset.key === key) return;
    this.waiting.dataset.key = key;
    this.waiting.replaceChildren(...intents, ...questions);
    if (!intents.length && !questions.length) this.waiting.replaceChildren(el('li', { className: 'muted' }, 'Nothing.'));
  }

  private show(pid: number): void {
    if (this.shown?.pid === pid) return;
    this.shown = { pid, from: 0 };
    this.trace.textContent = '';
  }

  private async act(f: () => Promise<unknown>): Promise<void> {
    try {
      await f();
    } catch (e) {
      this.message.textContent = (e as Error).message;
    }
    await this.refresh();
  }
}

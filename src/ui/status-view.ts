// The playground's Kernel panel: live process table, worker pool, mounts, and
// a box that runs a JavaScript program in the VM.

import type { KernelStatus } from '../host/worker/kernel-service.js';
import type { Machine } from '../host/api/machine.js';

const SAMPLE = `// Runs as a process in agentOS: \`agentos\` is its view of the system.
const { sys, print } = agentos;
print(\`pid \${sys.getpid()}, cwd \${sys.getcwd()}\\n\`);
sys.writeFile('/tmp/note', 'written by a process\\n');
print(new TextDecoder().decode(sys.readFile('/tmp/note')));
print(sys.readdir('/proc').map((e) => e.name).filter((n) => /^\\d+$/.test(n)).join(' ') + ' are the pids in /proc\\n');
`;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...kids: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...kids);
  return e;
}

function table(head: string[], rows: (string | number)[][]): HTMLTableElement {
  return el('table', {},
    el('thead', {}, el('tr', {}, ...head.map((h) => el('th', {}, h)))),
    el('tbody', {}, ...rows.map((r) => el('tr', {}, ...r.map((c) => el('td', {}, String(c)))))));
}

export class StatusView {
  private readonly statusBox = el('div', { id: 'status' });
  private readonly output = el('pre', { id: 'output' });
  private readonly editor = el('textarea', { id: 'program', value: SAMPLE, spellcheck: false });

  constructor(
    private readonly root: HTMLElement,
    private readonly machine: Machine,
    private readonly bootMs: number,
  ) {}

  start(): void {
    const run = el('button', { id: 'run', textContent: 'Run in agentOS' });
    run.addEventListener('click', () => void this.run());
    this.root.replaceChildren(
      el('p', { id: 'boot' }, `Kernel booted in ${this.bootMs.toFixed(0)} ms (crossOriginIsolated: ${crossOriginIsolated}).`),
      this.statusBox,
      el('section', {}, el('h2', {}, 'Run a JavaScript program'), this.editor, run, this.output),
    );
    void this.refresh();
    setInterval(() => {
      if (this.root.checkVisibility()) void this.refresh();
    }, 1000);
  }

  private async refresh(): Promise<void> {
    const s: KernelStatus = await this.machine.status();
    this.statusBox.replaceChildren(
      el('section', {}, el('h2', {}, `Processes (uptime ${(s.uptimeMs / 1000).toFixed(0)} s, host ${s.hostname})`),
        table(['PID', 'PPID', 'PGID', 'STATE', 'COMMAND'], s.processes.map((p) => [p.pid, p.ppid, p.pgid, p.state, p.argv.join(' ')]))),
      el('section', {}, el('h2', {}, 'Process workers'),
        table(['idle', 'running', 'unwinding', 'spawned'], [[s.workers.idle, s.workers.running, s.workers.unwinding, s.workers.spawned]])),
      el('section', {}, el('h2', {}, 'Mounts'), table(['TARGET', 'TYPE'], s.mounts.map((m) => [m.target, m.type]))),
    );
  }

  private async run(): Promise<void> {
    const dec = new TextDecoder();
    try {
      await this.machine.writeFile('/tmp/program.js', `#!/usr/libexec/agentos/js\n${this.editor.value}`, 0o755);
      const r = await this.machine.run(['/tmp/program.js'], { cwd: '/home/user', timeoutMs: 10_000 });
      this.output.className = r.exitCode ? 'error' : '';
      this.output.textContent = `${dec.decode(r.stdout)}${dec.decode(r.stderr)}[exit status ${r.exitCode}]`;
    } catch (e) {
      this.output.className = 'error';
      this.output.textContent = String(e);
    }
    void this.refresh();
  }
}

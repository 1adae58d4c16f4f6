// The playground page: the terminal at the centre of a persistent VM, with
// the files, snapshots, agents and kernel panels beside it, and `window.agentos`.
//
// URL parameters: `?vm=NAME` picks the persistent VM (default `playground`),
// `?vm=` (empty) an ephemeral one; `?takeover` takes the VM from another tab;
// `?policy=JSON` runs it under a policy (README, "The policy"), which the
// terminal and the file tree alike meet. API keys saved in the Keys panel
// (panels/keys.ts) are added to it as host-held secrets.

import '@xterm/xterm/css/xterm.css';
import { parsePolicy } from './component/attributes.js';
import { ensureIsolation, isolationHelp } from './coi/ensure.js';
import { el } from './dom.js';
import { AgentsPanel } from './panels/agents.js';
import { ask } from './panels/ask.js';
import { FileTree } from './panels/file-tree.js';
import { KeysPanel, withStoredSecrets } from './panels/keys.js';
import { PortsPanel } from './panels/ports.js';
import { ProgressView } from './panels/progress.js';
import { SnapshotsPanel } from './panels/snapshots.js';
import { StorageIndicator } from './panels/storage.js';
import { terminalToolbar } from './panels/terminal-toolbar.js';
import { StatusView } from './status-view.js';
import { preferredTheme } from './term/themes.js';
import { localVM, VmView, type AgentosApi, type VmViewOptions } from './term/vm-view.js';
import { XtermView } from './term/xterm-view.js';

declare global {
  interface Window {
    agentos: AgentosApi;
    /** Test hook: the playground's xterm.js Terminal. */
    __playground?: { view: XtermView };
  }
}

const params = new URLSearchParams(location.search);
const vmName = params.has('vm') ? params.get('vm') || undefined : 'playground';
const databaseName = (vm: string) => `agentos-vm:${vm}`;

const app = document.getElementById('app')!;
const progress = new ProgressView();
const storage = new StorageIndicator(vmName);
document.getElementById('status-bar')!.append(storage.root);

async function main(): Promise<void> {
  const iso = await ensureIsolation(new URL('./coi-sw.js', location.href));
  if (iso.state === 'reloading') return;
  if (iso.state === 'unavailable') {
    app.replaceChildren(el('p', { className: 'error', id: 'isolation-error', role: 'alert' }, isolationHelp(iso.reason)));
    return;
  }
  document.documentElement.dataset.isolation = iso.via;

  const screen = el('div', { className: 'screen' });
  const tabs = el('nav', { className: 'tabs', role: 'tablist', ariaLabel: 'Panels' });
  const panels = el('div', { className: 'panels' });
  const side = el('aside', { className: 'side' }, tabs, panels);
  const view = new XtermView(screen, { theme: preferredTheme(), onLeave: () => (tabs.querySelector('[aria-selected=true]') as HTMLElement | null)?.focus() });
  const termBox = el('section', { className: 'term-pane', ariaLabel: 'Terminal' }, terminalToolbar(view), screen, progress.root);
  app.replaceChildren(termBox, side);
  window.__playground = { view };

  const t0 = performance.now();
  let vmView: VmView;
  try {
    const policy = withStoredSecrets(parsePolicy(params.get('policy'), null));
    const viewOptions: VmViewOptions = { persist: vmName, takeover: params.has('takeover'), policy, onProgress: (p) => progress.update(p) };
    vmView = new VmView(view, localVM(viewOptions), viewOptions);
    window.agentos = vmView.api();
    await window.agentos.ready;
  } catch (e) {
    progress.done();
    // The host's errors already say "agentOS:"; the page says it once.
    const msg = ((e as Error).message ?? String(e)).replace(/^agentOS: /, '');
    const box = el('div', { className: 'error boot-error', role: 'alert' }, el('p', {}, `agentOS could not start: ${msg}`));
    if (/in use by another tab/.test(msg)) {
      const take = el('a', { href: `?${new URLSearchParams({ ...Object.fromEntries(params), takeover: '' })}`, textContent: 'Use it here instead' });
      box.append(take);
    }
    termBox.append(box);
    return;
  }
  progress.done();
  void window.agentos.vm.persisted?.then((p) => storage.granted(p));
  view.focus();
  const bootMs = performance.now() - t0;

  const files = new FileTree(vmView.vm);
  files.dropTarget(termBox, () => files.directory);
  const snaps = new SnapshotsPanel(vmView, () => void files.refresh());
  const kernel = el('section', { id: 'kernel', className: 'panel' });
  new StatusView(kernel, vmView.vm.vm, bootMs).start();
  const agents = new AgentsPanel(() => vmView.vm.agents);
  const ports = new PortsPanel(window.agentos.vm);
  addTabs(tabs, panels, [['Files', files.root], ['Snapshots', snaps.root], ['Agents', agents.root], ['Kernel', kernel], ['Ports', ports.root], ['Keys', new KeysPanel().root]], (i) => {
    if (i === 0) void files.refresh();
    if (i === 1) void snaps.refresh();
    if (i === 2) void agents.refresh();
  });
  void files.refresh();
  const visible = (e: HTMLElement) => document.visibilityState === 'visible' && e.checkVisibility();
  setInterval(() => {
    if (visible(files.root)) void files.refresh();
  }, 3000);
  // Agents change by the moment (status, spend, trace): polled while the panel is shown.
  setInterval(() => {
    if (visible(agents.root)) void agents.refresh();
  }, 500);
  void storage.refresh();
  setInterval(() => void storage.refresh(), 10_000);
  addReset(vmView);
}

function addTabs(tabs: HTMLElement, panels: HTMLElement, items: [string, HTMLElement][], shown: (i: number) => void): void {
  const buttons = items.map(([label, panel], i) => {
    const b = el('button', { role: 'tab', id: `tab-${label.toLowerCase()}`, textContent: label });
    panel.setAttribute('role', 'tabpanel');
    panel.setAttribute('aria-labelledby', b.id);
    b.addEventListener('click', () => select(i));
    b.addEventListener('keydown', (e) => {
      const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
      if (!step) return;
      const j = (i + step + items.length) % items.length;
      select(j);
      buttons[j].focus();
    });
    return b;
  });
  const select = (i: number) => {
    buttons.forEach((b, j) => {
      b.setAttribute('aria-selected', String(i === j));
      b.tabIndex = i === j ? 0 : -1;
      items[j][1].hidden = i !== j;
    });
    shown(i);
  };
  tabs.replaceChildren(...buttons);
  panels.replaceChildren(...items.map(([, p]) => p));
  select(0);
}

function addReset(vmView: VmView): void {
  const reset = document.getElementById('reset') as HTMLButtonElement;
  reset.hidden = false;
  reset.addEventListener('click', async () => {
    const what = vmName ? `every file of the VM '${vmName}' and its snapshots` : 'every file of this session';
    if (!(await ask(`Reset agentOS? This deletes ${what}, and cannot be undone.`, 'Reset'))) return;
    reset.disabled = true;
    await vmView.stop().catch(() => {});
    if (vmName) {
      await new Promise<void>((done) => {
        const req = indexedDB.deleteDatabase(databaseName(vmName));
        req.onsuccess = req.onerror = req.onblocked = () => done();
      });
    }
    location.reload();
  });
}

void main().catch((e: unknown) => {
  app.replaceChildren(el('p', { className: 'error', role: 'alert' }, `agentOS: ${(e as Error)?.message ?? e}`));
});

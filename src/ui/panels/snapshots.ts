// Snapshot controls: create one by name, list them, restore (asks first:
// the current files are replaced and every process stops) and delete.

import { el, humanSize } from '../dom.js';
import type { VmView } from '../term/vm-view.js';
import { ask } from './ask.js';

export class SnapshotsPanel {
  readonly root: HTMLElement;
  private readonly name = el('input', { type: 'text', placeholder: 'name', ariaLabel: 'Snapshot name', spellcheck: false, pattern: '[A-Za-z0-9][A-Za-z0-9._-]{0,63}' });
  private readonly list = el('ul', { className: 'snapshots', ariaLabel: 'Snapshots' });
  private readonly message = el('p', { className: 'muted', role: 'status' });

  constructor(private readonly vmView: VmView, private readonly changed: () => void) {
    const form = el('form', { className: 'row' }, this.name, el('button', { type: 'submit', className: 'small', textContent: 'Create snapshot' }));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.create();
    });
    this.root = el('section', { id: 'snapshots', className: 'panel' }, form, this.list, this.message);
  }

  private async create(): Promise<void> {
    const name = this.name.value.trim() || new Date().toISOString().replace(/[:.]/g, '-');
    await this.act(async () => {
      const info = await this.vmView.vm.snapshot(name);
      this.name.value = '';
      return `Saved '${info.name}' (${humanSize(info.bytes)}).`;
    });
  }

  async refresh(): Promise<void> {
    const snaps = await this.vmView.vm.snapshots.list();
    snaps.sort((a, b) => b.mtimeMs - a.mtimeMs);
    this.list.replaceChildren(...snaps.map((s) => {
      const restore = el('button', { className: 'small', textContent: 'Restore' });
      const del = el('button', { className: 'small danger', textContent: 'Delete' });
      restore.addEventListener('click', () => void this.restore(s.name));
      del.addEventListener('click', () => void this.delete(s.name));
      return el('li', { dataset: { name: s.name } },
        el('span', { className: 'name' }, s.name),
        el('span', { className: 'muted' }, `${new Date(s.mtimeMs).toLocaleString()} · ${humanSize(s.bytes)}`),
        restore, del);
    }));
    if (!snaps.length) this.message.textContent ||= 'No snapshots yet.';
  }

  private async restore(name: string): Promise<void> {
    if (!(await ask(`Restore snapshot '${name}'? Files changed since then are lost, and running programs stop.`, 'Restore'))) return;
    await this.act(async () => {
      await this.vmView.restore(name);
      this.changed();
      return `Restored '${name}'.`;
    });
  }

  private async delete(name: string): Promise<void> {
    if (!(await ask(`Delete snapshot '${name}'?`, 'Delete'))) return;
    await this.act(async () => {
      await this.vmView.vm.snapshots.delete(name);
      return `Deleted '${name}'.`;
    });
  }

  private async act(f: () => Promise<string>): Promise<void> {
    try {
      this.message.textContent = await f();
    } catch (e) {
      this.message.textContent = (e as Error).message;
    }
    await this.refresh();
  }
}

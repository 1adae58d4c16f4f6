// The persistence indicator: persistent (VM name) or ephemeral, the origin's
// storage used and quota, and a button asking the browser to keep the data
// (navigator.storage.persist) instead of evicting it under pressure.

import { el, humanSize } from '../dom.js';

export class StorageIndicator {
  readonly root: HTMLElement;
  private readonly usage = el('span', { className: 'usage' });
  private readonly keep = el('button', { className: 'small', textContent: 'Keep my data', title: 'Ask the browser not to evict this site\'s storage' });

  constructor(private readonly vmName: string | undefined) {
    const badge = vmName
      ? el('span', { className: 'badge persistent', title: `Files are kept in IndexedDB (VM '${vmName}')` }, `persistent · ${vmName}`)
      : el('span', { className: 'badge ephemeral', title: 'Files are lost when the page closes' }, 'ephemeral');
    this.root = el('div', { id: 'persistence' }, badge, this.usage, this.keep);
    this.keep.hidden = true;
    this.keep.addEventListener('click', () => void this.askPersist());
  }

  async refresh(): Promise<void> {
    const s = navigator.storage;
    if (!s?.estimate) return;
    const { usage = 0, quota = 0 } = await s.estimate();
    this.usage.textContent = `${humanSize(usage)} of ${humanSize(quota)}`;
    const persisted = await s.persisted?.().catch(() => false);
    this.keep.hidden = !this.vmName || persisted !== false;
    this.usage.title = persisted ? 'The browser will keep this data' : 'The browser may evict this data when storage runs low';
  }

  private async askPersist(): Promise<void> {
    const granted = await navigator.storage.persist().catch(() => false);
    this.keep.textContent = granted ? 'Kept' : 'Not granted';
    await this.refresh();
    this.keep.hidden = !granted ? false : true;
  }
}

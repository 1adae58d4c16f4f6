// The persistence indicator: persistent (VM name) or ephemeral, the origin's
// storage used and quota, whether the browser agreed to keep the data (the
// VM asks navigator.storage.persist when it opens) instead of evicting it under
// pressure, and a button to ask again.

import { el, humanSize } from '../dom.js';

export class StorageIndicator {
  readonly root: HTMLElement;
  private readonly usage = el('span', { className: 'usage' });
  private readonly kept = el('span', { id: 'storage-kept', hidden: true });
  private readonly keep = el('button', { className: 'small', textContent: 'Keep my data', title: 'Ask the browser not to evict this site\'s storage' });

  constructor(private readonly vmName: string | undefined) {
    const badge = vmName
      ? el('span', { className: 'badge persistent', title: `Files are kept in IndexedDB (VM '${vmName}')` }, `persistent · ${vmName}`)
      : el('span', { className: 'badge ephemeral', title: 'Files are lost when the page closes' }, 'ephemeral');
    this.root = el('div', { id: 'persistence' }, badge, this.usage, this.kept, this.keep);
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

  /** The browser's answer to the VM's request to keep its storage. */
  granted(persisted: boolean): void {
    this.kept.hidden = false;
    this.kept.textContent = persisted ? 'kept by the browser' : 'not kept: the browser may evict it';
    this.kept.className = persisted ? 'kept' : 'evictable';
  }

  private async askPersist(): Promise<void> {
    const granted = await navigator.storage.persist().catch(() => false);
    this.keep.textContent = granted ? 'Kept' : 'Not granted';
    this.granted(granted);
    await this.refresh();
    this.keep.hidden = !granted ? false : true;
  }
}

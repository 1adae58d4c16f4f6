// The boot progress indicator: image download (bytes), kernel start, shell.

import type { BootProgress } from '../../host/browser/index.js';
import { el, humanSize } from '../dom.js';

export class ProgressView {
  readonly root: HTMLElement;
  private readonly bar = el('progress', { max: 1 });
  private readonly label = el('span', { textContent: 'Loading agentOS…' });

  constructor() {
    this.root = el('div', { id: 'progress', role: 'status' }, this.label, this.bar);
  }

  update(p: BootProgress): void {
    switch (p.stage) {
      case 'manifest':
        this.show('Looking up the base image…');
        break;
      case 'image':
        this.show(p.cached ? 'Base image (cached)' : `Downloading the base image: ${humanSize(p.loaded)} of ${humanSize(p.total)}`, p.loaded / p.total);
        break;
      case 'kernel':
        this.show('Starting the kernel…');
        break;
      case 'ready':
        this.show('Starting the shell…');
        break;
    }
  }

  show(text: string, fraction?: number): void {
    this.label.textContent = text;
    if (fraction === undefined) this.bar.removeAttribute('value');
    else this.bar.value = fraction;
    this.root.hidden = false;
  }

  done(): void {
    this.root.hidden = true;
  }
}

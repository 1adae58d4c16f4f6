// The Ports panel: servers listening in the playground's VM, each with its
// preview (component/port-events.ts exposes them) to open in a new tab or to
// show in a frame here. The preview page runs sandboxed (README, "Previews
// and exposed ports").

import { el } from '../dom.js';
import type { AgentVM } from '../../host/browser/index.js';
import { watchPorts } from '../component/port-events.js';

export class PortsPanel {
  readonly root: HTMLElement;
  private readonly list = el('ul', { className: 'ports', ariaLabel: 'Listening ports' });
  private readonly empty = el('p', { className: 'muted' }, 'No server listens in the VM. Start one (', el('code', {}, 'nc -l 8000'), ', a node or python server) and it shows here.');
  private readonly frame = el('iframe', { className: 'preview', title: 'Preview', hidden: true });

  constructor(vm: AgentVM) {
    this.root = el('section', { id: 'ports', className: 'panel' }, this.empty, this.list, this.frame);
    const events = new EventTarget();
    events.addEventListener('port-open', (e) => this.add((e as CustomEvent<{ port: number; url: string | null }>).detail));
    events.addEventListener('port-close', (e) => this.remove((e as CustomEvent<{ port: number }>).detail.port));
    watchPorts(vm, events, () => true);
  }

  private add({ port, url }: { port: number; url: string | null }): void {
    const item = el('li', { dataset: { port: String(port) } }, el('code', {}, `:${port}`), ' ');
    if (url) {
      item.append(el('a', { href: url, target: '_blank', rel: 'noopener', textContent: 'Open in a new tab' }), ' ');
      const show = el('button', { className: 'small', textContent: 'Show here' });
      show.addEventListener('click', () => {
        this.frame.src = url;
        this.frame.hidden = false;
      });
      item.append(show);
    } else item.append(el('span', { className: 'muted' }, 'no preview (service workers are unavailable here)'));
    this.list.append(item);
    this.empty.hidden = true;
  }

  private remove(port: number): void {
    const item = this.list.querySelector(`li[data-port="${port}"]`);
    const link = item?.querySelector('a')?.href;
    item?.remove();
    if (link && this.frame.src === link) {
      this.frame.removeAttribute('src');
      this.frame.hidden = true;
    }
    this.empty.hidden = this.list.childElementCount > 0;
  }
}

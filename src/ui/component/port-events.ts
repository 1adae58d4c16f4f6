// <agentos-terminal>'s `port-open` and `port-close` events: when a server in
// its VM starts listening on a TCP port, the element exposes it as a preview
// of this page (vm.expose: a service-worker URL of this site, served only while
// the page is open) and says where; when the port closes, so does the preview.

import type { AgentVM, ExposedPort } from '../../host/browser/index.js';

/** Follow `vm`'s listening ports while `alive()`, dispatching the events on `target`. */
export function watchPorts(vm: AgentVM, target: EventTarget, alive: () => boolean): void {
  const open = new Map<number, ExposedPort | null>();
  const emit = (type: string, detail: object) => target.dispatchEvent(new CustomEvent(type, { detail, bubbles: true }));
  void (async () => {
    for (let seq = -1; alive(); ) {
      let now: { seq: number; ports: number[] };
      try {
        now = await vm.listeningPorts(seq);
      } catch {
        return; // the VM stopped
      }
      if (!alive()) return;
      seq = now.seq;
      for (const port of now.ports) {
        if (open.has(port)) continue;
        // No service worker here (an insecure origin): the event still tells, without a URL.
        const e = await vm.expose(port).catch(() => null);
        open.set(port, e);
        emit('port-open', { port, url: e?.url ?? null });
      }
      for (const [port, e] of open) {
        if (now.ports.includes(port)) continue;
        open.delete(port);
        await e?.close();
        emit('port-close', { port });
      }
    }
  })();
}

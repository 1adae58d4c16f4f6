// Browser previews (vm.expose in a page): the service worker of dist/web
// (coi-sw.js, ui/coi/preview.ts) serves `<its scope>preview/<vm>/<port>/…` by
// asking the windows of the origin which runs VM <vm>; the page that does
// answers here, speaking HTTP/1.1 (api/http-over-port.ts) over a host
// connection into the VM's listener, and streams the response back. Only
// ports exposed by this page's code are served; a VM id is random and names
// one machine, so a preview URL reaches nothing else.

import type { ExposedPort, Exposer } from '../api/expose.js';
import { httpExchange } from '../api/http-over-port.js';
import type { Machine } from '../api/machine.js';
import type { PreviewAsk, PreviewMessage, PreviewPath, PreviewReply } from './preview-wire.js';

const PREVIEW_MESSAGE: PreviewMessage = 'agentos-preview';
const PREVIEW_PATH: PreviewPath = 'preview/';

interface Owned {
  m: Machine;
  /** Exposed port → how many exposures hold it. */
  ports: Map<number, number>;
}

const byId = new Map<string, Owned>();
const ids = new WeakMap<Machine, string>();
let listening = false;

/** The service worker that serves previews (and isolates pages without headers), and its scope. */
async function registerWorker(swUrl: URL): Promise<string> {
  if (!('serviceWorker' in navigator)) throw new Error('agentOS: previews need service workers (not available in this page: private mode, or not HTTPS?)');
  const scope = new URL('./', swUrl).href;
  const reg = await navigator.serviceWorker.register(swUrl, { scope });
  if (!listening) {
    listening = true;
    navigator.serviceWorker.addEventListener('message', (e: MessageEvent) => {
      const ask = e.data as PreviewAsk | null;
      if (ask?.type === PREVIEW_MESSAGE && e.ports[0]) void answer(ask, e.ports[0]);
    });
    navigator.serviceWorker.startMessages();
  }
  // Serving starts once the worker is active (a first registration installs it).
  const worker = reg.installing ?? reg.waiting;
  if (worker && !reg.active) {
    await new Promise<void>((ok) => worker.addEventListener('statechange', () => worker.state === 'activated' && ok()));
  }
  return reg.scope;
}

/** The exposer of a page whose service worker is `swUrl`. */
export function previewExposer(swUrl: URL): Exposer {
  return async (m, vmPort): Promise<ExposedPort> => {
    const scope = await registerWorker(swUrl);
    let id = ids.get(m);
    if (!id) {
      id = crypto.randomUUID();
      ids.set(m, id);
      byId.set(id, { m, ports: new Map() });
    }
    const owned = byId.get(id)!;
    owned.ports.set(vmPort, (owned.ports.get(vmPort) ?? 0) + 1);
    let open = true;
    return {
      url: `${scope}${PREVIEW_PATH}${id}/${vmPort}/`,
      vmPort,
      close: async () => {
        if (!open) return;
        open = false;
        const n = (owned.ports.get(vmPort) ?? 1) - 1;
        if (n > 0) owned.ports.set(vmPort, n);
        else owned.ports.delete(vmPort);
      },
    };
  };
}

const enc = new TextEncoder();

/** Answer one preview request on `reply`. */
async function answer(ask: PreviewAsk, reply: MessagePort): Promise<void> {
  const send = (r: PreviewReply, transfer: Transferable[] = []) => reply.postMessage(r, transfer);
  const text = (status: number, body: string) => {
    send({ kind: 'head', status, statusText: '', headers: [['content-type', 'text/plain; charset=utf-8']] });
    const data = enc.encode(body + '\n');
    send({ kind: 'data', data }, [data.buffer]);
    send({ kind: 'end' });
  };
  const owned = byId.get(ask.vm);
  if (!owned) return send({ kind: 'not-mine' });
  if (!owned.ports.has(ask.port)) return text(404, `agentOS: port ${ask.port} of this VM is not exposed (vm.expose)`);
  let headSent = false;
  try {
    let conn;
    try {
      conn = await owned.m.connectPort(ask.port);
    } catch {
      return text(502, `agentOS: nothing listens on port ${ask.port} in the VM`);
    }
    const res = await httpExchange(conn, ask.port, ask);
    if (res.status < 200 || res.status > 599) {
      await res.body.return();
      return text(502, `agentOS: the VM's server answered status ${res.status}`);
    }
    send({ kind: 'head', status: res.status, statusText: res.statusText, headers: res.headers });
    headSent = true;
    for await (const b of res.body) {
      const data = b.slice(); // its own buffer, to transfer
      send({ kind: 'data', data }, [data.buffer]);
    }
    send({ kind: 'end' });
  } catch (e) {
    const message = `agentOS: preview of port ${ask.port}: ${(e as Error).message}`;
    if (headSent) send({ kind: 'error', message });
    else text(502, message);
  }
}

// The service worker's preview route: `<scope>preview/<vm>/<port>/…` is asked
// of the windows of this origin; the one running VM <vm> answers
// (host/browser/preview.ts) and its VM's server's response streams back. A
// window that is not the owner says so; one without agentOS says nothing and
// is given up on after ASK_TIMEOUT_MS.
//
// The response runs sandboxed (CSP `sandbox` without allow-same-origin): the
// page is the guest's, so it gets an opaque origin, not this site's (its
// storage, its VMs, its other pages).

import type { PreviewAsk, PreviewMessage, PreviewPath, PreviewReply } from '../../host/browser/preview-wire.js';

const PREVIEW_MESSAGE: PreviewMessage = 'agentos-preview';
const PREVIEW_PATH: PreviewPath = 'preview/';

const ASK_TIMEOUT_MS = 3000;
/** What the guest's page may do in its sandbox: run scripts, forms, popups, dialogs, downloads; never this origin. */
const SANDBOX = 'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads';
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

export interface PreviewRoute {
  vm: string;
  port: number;
  /** Path and query in the VM's server. */
  target: string;
}

/** The preview `url` names under `scope`, or null; a route without the slash after the port is `redirect`. */
export function previewRoute(url: URL, scope: string): PreviewRoute | 'redirect' | null {
  const base = new URL(PREVIEW_PATH, scope);
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return null;
  const m = /^([0-9a-f-]{36})\/(\d{1,5})(\/.*)?$/.exec(url.pathname.slice(base.pathname.length));
  if (!m) return null;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return null;
  if (m[3] === undefined) return 'redirect';
  return { vm: m[1], port, target: m[3] + url.search };
}

/** Ask every window which runs the VM, and make its answer the response. */
export async function forwardPreview(clients: Clients, route: PreviewRoute, req: Request): Promise<Response> {
  const body = req.method === 'GET' || req.method === 'HEAD' ? null : new Uint8Array(await req.arrayBuffer());
  const ask: PreviewAsk = { type: PREVIEW_MESSAGE, ...route, method: req.method, headers: [...req.headers], body };
  const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true });
  try {
    return await Promise.any(windows.map((w) => askWindow(w, ask)));
  } catch {
    return plain(404, `agentOS: no page of this site runs VM ${route.vm} now (its page was closed or reloaded?)`);
  }
}

function askWindow(w: Client, ask: PreviewAsk): Promise<Response> {
  return new Promise((ok, fail) => {
    const ch = new MessageChannel();
    const timer = setTimeout(() => {
      ch.port1.close();
      fail(new Error('no answer'));
    }, ASK_TIMEOUT_MS);
    let out: ReadableStreamDefaultController<Uint8Array> | null = null;
    ch.port1.onmessage = (e: MessageEvent<PreviewReply>) => {
      const r = e.data;
      if (r.kind === 'not-mine') {
        clearTimeout(timer);
        ch.port1.close();
        fail(new Error('not mine'));
      } else if (r.kind === 'head') {
        clearTimeout(timer);
        const stream = new ReadableStream<Uint8Array>({ start: (c) => void (out = c), cancel: () => ch.port1.close() });
        ok(new Response(NULL_BODY.has(r.status) || ask.method === 'HEAD' ? null : stream, { status: r.status, statusText: r.statusText, headers: previewHeaders(r.headers) }));
      } else if (r.kind === 'data') out?.enqueue(r.data);
      else {
        if (r.kind === 'end') out?.close();
        else out?.error(new Error(r.message));
        ch.port1.close();
      }
    };
    w.postMessage({ ...ask, body: ask.body?.slice() ?? null }, [ch.port2]);
  });
}

/** The server's headers, sandboxed and isolated like the rest of the site (coi/sw.ts). */
function previewHeaders(fields: [string, string][]): Headers {
  const h = new Headers();
  for (const [k, v] of fields) {
    try {
      h.append(k, v);
    } catch {
      // a header the Fetch API refuses: dropped
    }
  }
  h.set('Content-Security-Policy', h.has('Content-Security-Policy') ? `${h.get('Content-Security-Policy')}, ${SANDBOX}` : SANDBOX);
  h.set('Cross-Origin-Opener-Policy', 'same-origin');
  h.set('Cross-Origin-Embedder-Policy', 'require-corp');
  h.set('Cross-Origin-Resource-Policy', 'cross-origin');
  return h;
}

export function plain(status: number, text: string): Response {
  return new Response(text + '\n', { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Security-Policy': SANDBOX } });
}

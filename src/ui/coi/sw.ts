// Cross-origin isolation for static hosting that cannot set headers
// (docs/decisions/0018-playground.md). Built as dist/web/coi-sw.js, registered
// by coi/ensure.ts; its scope is the directory it is served from.
//
// Every same-origin response in scope is re-served with COOP same-origin,
// COEP require-corp and CORP same-origin, which makes the page (after one
// reload, once the worker controls it) and its workers cross-origin isolated.
// Cross-origin requests pass through untouched: the worker cannot add headers
// to opaque responses, so such resources must send CORP/CORS themselves.
//
// It also serves the previews of VMs' servers, `<scope>preview/<vm>/<port>/…`
// (preview.ts): registered for that by a page's vm.expose even when the page
// is isolated by headers.

import { forwardPreview, previewRoute } from './preview.js';

const sw = self as unknown as ServiceWorkerGlobalScope;

sw.addEventListener('install', () => void sw.skipWaiting());
sw.addEventListener('activate', (e) => e.waitUntil(sw.clients.claim()));

sw.addEventListener('fetch', (e) => {
  const req = e.request;
  const url = new URL(req.url);
  if (url.origin !== sw.location.origin) return;
  const preview = previewRoute(url, sw.registration.scope);
  if (preview === 'redirect') return e.respondWith(Response.redirect(`${url.origin}${url.pathname}/${url.search}`, 301));
  if (preview) return e.respondWith(forwardPreview(sw.clients, preview, req));
  // Chromium rejects refetching these from a worker.
  if (req.cache === 'only-if-cached' && req.mode !== 'same-origin') return;
  e.respondWith(withIsolationHeaders(req));
});

async function withIsolationHeaders(req: Request): Promise<Response> {
  const res = await fetch(req);
  if (res.status === 0 || res.type === 'opaqueredirect') return res;
  const headers = new Headers(res.headers);
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
  headers.set('Cross-Origin-Resource-Policy', 'same-origin');
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

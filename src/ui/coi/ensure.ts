// Make the page cross-origin isolated when the server did not: register the
// header-adding service worker (coi/sw.ts) and reload once it controls the
// page. One attempt per tab session, so a browser that still cannot isolate
// (no service workers, private mode, an insecure origin) gets a clear message
// instead of a reload loop.

export type Isolation =
  | { state: 'isolated'; via: 'headers' | 'service-worker' | 'sandbox-origin' }
  | { state: 'reloading' }
  | { state: 'unavailable'; reason: string };

const TRIED = 'agentos-coi-reloaded';
/** A worker that is not in control by then is not coming (blocked by policy or an extension). */
const SW_TIMEOUT_MS = 8000;

export async function ensureIsolation(swUrl: URL): Promise<Isolation> {
  if (crossOriginIsolated) {
    const tried = sessionStorage.getItem(TRIED) !== null;
    sessionStorage.removeItem(TRIED);
    return { state: 'isolated', via: tried || navigator.serviceWorker?.controller ? 'service-worker' : 'headers' };
  }
  // A frame is isolated only if the page above it is (or it sends Document-Isolation-Policy):
  // a worker adding headers to this frame's responses cannot change that, so no reload.
  if (window !== window.top) return { state: 'unavailable', reason: 'it is in a frame of a page that is not cross-origin isolated' };
  if (!isSecureContext) return { state: 'unavailable', reason: 'the page is not served over HTTPS (or from localhost)' };
  if (!('serviceWorker' in navigator)) return { state: 'unavailable', reason: 'this browser has no service workers here (private mode?)' };
  if (sessionStorage.getItem(TRIED) !== null) {
    sessionStorage.removeItem(TRIED);
    return { state: 'unavailable', reason: 'the service-worker fallback did not make the page isolated in this browser' };
  }
  try {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, fail) => (timer = setTimeout(() => fail(new Error('it did not start')), SW_TIMEOUT_MS)));
    await Promise.race([timeout, controlled(swUrl)]).finally(() => clearTimeout(timer));
  } catch (e) {
    return { state: 'unavailable', reason: `the service worker could not be registered (${(e as Error).message})` };
  }
  sessionStorage.setItem(TRIED, '1');
  location.reload();
  return { state: 'reloading' };
}

/** Register the worker and wait until it controls this page (its clients.claim() does that). */
async function controlled(swUrl: URL): Promise<void> {
  await navigator.serviceWorker.register(swUrl, { scope: './' });
  await navigator.serviceWorker.ready;
  if (navigator.serviceWorker.controller) return;
  await new Promise<void>((ok) => navigator.serviceWorker.addEventListener('controllerchange', () => ok(), { once: true }));
}

/** The text shown when isolation is impossible. */
export function isolationHelp(reason: string): string {
  return (
    `agentOS needs a cross-origin isolated page (SharedArrayBuffer), and ${reason}. ` +
    'Serve the page with the headers "Cross-Origin-Opener-Policy: same-origin" and ' +
    '"Cross-Origin-Embedder-Policy: require-corp" (in a frame, the page above it too, and the frame with ' +
    'allow="cross-origin-isolated"), or open it in a current Chromium, Firefox or Safari over HTTPS.'
  );
}

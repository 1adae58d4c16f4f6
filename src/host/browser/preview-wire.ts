// What the service worker (ui/coi/preview.ts) and the page that owns a VM
// (host/browser/preview.ts) say to each other about one preview request.
// Types only: the service worker is one script with no imports (a classic
// worker), so it shares no code with the page; the literal types below make
// both sides spell the constants alike.

export type PreviewMessage = 'agentos-preview';
/** The path under the service worker's scope: preview/<vm>/<port>/… */
export type PreviewPath = 'preview/';

/** Service worker → every window of the origin: whoever runs VM `vm` answers on the port sent with it. */
export interface PreviewAsk {
  type: PreviewMessage;
  vm: string;
  port: number;
  method: string;
  target: string;
  headers: [string, string][];
  body: Uint8Array | null;
}

/** Page → service worker: not this page's VM, or the response: its head, its bytes, its end (or an error after the head). */
export type PreviewReply =
  | { kind: 'not-mine' }
  | { kind: 'head'; status: number; statusText: string; headers: [string, string][] }
  | { kind: 'data'; data: Uint8Array }
  | { kind: 'end' }
  | { kind: 'error'; message: string };

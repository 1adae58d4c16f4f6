// Browser host: a worker of Wasmer's SDK for a WASIX program (decision 0021),
// started only through src/host/browser/worker/wasmer-workers.ts. It confines itself
// as a process worker does (keeping its channel to its parent, the process
// worker), then loads the SDK's own worker script. The script imports the
// module its `init` message names: only the SDK's own module gets through.

import { confineWasmerWorker } from '../src/host/browser/worker/confine.js';
import { sdkModuleUrl, sdkWorkerUrl, wasmerWorkerShim } from '../src/host/browser/worker/wasmer-workers.js';
import { installGuestConsole } from '../src/runtimes/guest-console.js';
import { hideHostFrames } from '../src/runtimes/host-frames.js';

const RealWorker = (globalThis as { Worker?: typeof Worker }).Worker;
// Its console prints nothing (no process runs here; the program's output has
// its own pipes) and its stacks name no URL of the app, as in a process worker.
installGuestConsole();
hideHostFrames();
confineWasmerWorker(RealWorker ? wasmerWorkerShim(RealWorker) : undefined);

// The SDK's script sets `onmessage` once it has loaded; until then messages
// wait here, and every message passes the init check first.
const queued: MessageEvent[] = [];
let handler: ((e: MessageEvent) => unknown) | null = null;
const sdkModule = sdkModuleUrl();

/** The SDK's init message, bare or inside its dispatch envelope. */
function initOf(data: unknown): { sdkUrl?: unknown } | null {
  const d = data as { type?: unknown; payload?: { type?: unknown } } | null;
  if (d?.type === 'init') return d as { sdkUrl?: unknown };
  if (d?.payload?.type === 'init') return d.payload as { sdkUrl?: unknown };
  return null;
}

function deliver(e: MessageEvent): void {
  const init = initOf(e.data);
  if (init && init.sdkUrl !== sdkModule) {
    // Thrown, so the SDK's side sees the worker fail rather than wait. The
    // page's console reports it: no guest-chosen text (the URL) in it.
    throw new Error('Wasmer worker: refusing to load a module other than the SDK\'s own');
  }
  handler?.call(globalThis, e);
}

let draining = false;
/** The backlog from before the SDK's script loaded, in order, in tasks of their own (not inside its `onmessage =`). */
function drain(): void {
  if (draining || !handler || !queued.length) return;
  draining = true;
  setTimeout(() => {
    draining = false;
    const e = queued.shift();
    try {
      if (e) deliver(e);
    } finally {
      drain();
    }
  });
}

addEventListener('message', (e) => {
  if (handler && !queued.length) return deliver(e);
  queued.push(e);
  drain();
});
Object.defineProperty(globalThis, 'onmessage', {
  configurable: false,
  get: () => handler,
  set(fn: unknown) {
    handler = typeof fn === 'function' ? (fn as (e: MessageEvent) => unknown) : null;
    drain();
  },
});

await import(/* @vite-ignore */ sdkWorkerUrl());

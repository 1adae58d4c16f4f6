// Workers for Wasmer's SDK while a WASIX program runs (decision 0021). A
// confined browser process worker has no `Worker`; its entry
// (workers/process.browser.ts) provides one here that starts only the SDK's
// own worker script, confined (src/host/browser/worker/wasmer-workers.ts). The Node
// host needs none: the SDK uses worker_threads there.

/** Where the build puts @wasmer/sdk on the page's server (scripts/build.mjs). */
export const WASMER_SDK_PATH = '/vendor/wasmer-sdk/';

let provider: (() => typeof Worker) | null = null;

/** Called once by the browser process worker's entry, before any program runs. */
export function provideWasmerWorkers(make: () => typeof Worker): void {
  provider ??= make;
}

/**
 * Install the SDK's `Worker` for the rest of this worker's life, or say why
 * there is none. The caller retires the worker (ctx.retire): it is never
 * pooled again with the stand-in installed.
 */
export function installWasmerWorkers(): string | null {
  if (!provider) return 'WASIX program: Wasmer needs workers of its own, and this host gives a confined browser process worker none (decision 0021)';
  Object.defineProperty(globalThis, 'Worker', { value: provider(), configurable: true, writable: false });
  return null;
}

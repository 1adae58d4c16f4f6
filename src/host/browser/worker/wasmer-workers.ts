// The only way Wasmer's SDK gets workers in the browser (decision 0021): a
// `Worker` stand-in that starts nothing but the SDK's own worker script, and
// starts it from our bootstrap (workers/wasmer.browser.ts), which confines the
// new worker like a process worker before the SDK's script loads. Any other
// URL — another origin, blob:, data:, another file of ours — is refused.
//
// Workers started here are children of the worker that starts them, so
// ending that worker (exit, SIGKILL) ends them too.

import { WASMER_SDK_PATH } from '../../../runtimes/wasm/wasix-workers.js';

/** The SDK's worker script, which it asks for by URL (`dist/browser-worker.js`). */
export function sdkWorkerUrl(): string {
  return new URL(`${WASMER_SDK_PATH}dist/browser-worker.js`, location.origin).href;
}

/** The SDK's wasm-bindgen module, the only script its worker may be told to import. */
export function sdkModuleUrl(): string {
  return new URL(`${WASMER_SDK_PATH}pkg/wasmer_sdk_js.js`, location.origin).href;
}

/** A `Worker` constructor for the SDK built on `Real`, which program code never sees. */
export function wasmerWorkerShim(Real: typeof Worker): typeof Worker {
  const allowed = sdkWorkerUrl();
  // `Worker` as a parameter name: Vite bundles the bootstrap from the
  // `new Worker(new URL(...), ...)` pattern.
  const start = (Worker: typeof globalThis.Worker, name: string | undefined): Worker =>
    new Worker(new URL('../../../../workers/wasmer.browser.ts', import.meta.url), { type: 'module', name });
  function WasmerWorker(this: unknown, url: string | URL, options?: WorkerOptions): Worker {
    if (!new.target) throw new TypeError("Failed to construct 'Worker': Please use the 'new' operator");
    let href: string;
    try {
      href = new URL(String(url), location.href).href;
    } catch {
      href = String(url);
    }
    if (href !== allowed) {
      throw new DOMException(`Worker is not available to agentOS programs (only Wasmer's own worker may start, not ${href.slice(0, 80)})`, 'SecurityError');
    }
    return start(Real, options?.name);
  }
  Object.defineProperty(WasmerWorker, 'name', { value: 'Worker' });
  WasmerWorker.prototype = Real.prototype;
  // Else `Object.getPrototypeOf(worker).constructor` hands out the real one.
  Object.defineProperty(Real.prototype, 'constructor', { value: WasmerWorker, configurable: false, writable: false });
  return WasmerWorker as unknown as typeof Worker;
}

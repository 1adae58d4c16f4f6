// Runtimes every process worker provides (src/runtimes/process-main.ts). Shared
// here so the kernel's default list and the workers' table cannot drift apart
// without the kernel bundle importing the runtimes themselves.

export const RUNTIME_NAMES = ['js', 'node', 'sh', 'wasm', 'python', 'linux'] as const;

export type RuntimeName = (typeof RUNTIME_NAMES)[number];

/** What a process runs: a runtime and its arguments, decided by binfmt (kernel/exec.ts). */
export interface Image {
  /** Runtime that executes it: 'js', 'wasm', ... */
  runtime: string;
  /**
   * The file that runs, by its canonical absolute path (Linux's /proc/self/exe):
   * the binary or runtime image; for a #! script, its interpreter.
   */
  file: string;
  /** argv as the runtime sees it (interpreter prepended for #! scripts). */
  argv: string[];
}

/** kernel → process worker: run this image as pid `pid` on this channel. */
export interface RunMessage {
  type: 'run';
  pid: number;
  channel: SharedArrayBuffer;
  doorbell: SharedArrayBuffer;
  image: Image;
  /** KEY=VALUE environment. */
  env: string[];
  /** A wasm image compiled by the kernel (shared between workers, not copied), or why it cannot run. */
  module?: WebAssembly.Module | string;
  /** The VM's memory limit per process (policy.processes.maxMemoryBytes), for runtimes that make their own WebAssembly memory. */
  memoryBytes?: number;
  /**
   * The js runtime's script as the kernel opened it for this process
   * (kernel/script-key.ts), by programKey: a worker that compiled that file
   * already runs it without looking it up again.
   */
  script?: string;
}

/**
 * A program file's identity for the runtimes' compiled-program caches: same key, same bytes.
 * ctime, not mtime alone: utimes can put an old mtime back on new bytes of the same size, and
 * nothing can set ctime.
 */
export function programKey(st: { dev: number; ino: number; mtimeMs: number; ctimeMs: number; size: number }): string {
  return `${st.dev}:${st.ino}:${st.mtimeMs}:${st.ctimeMs}:${st.size}`;
}

/**
 * process worker → kernel ('ready': booted, once, before any run; 'retire':
 * done, but do not pool this worker again)
 */
export type WorkerMessage = { type: 'ready' } | { type: 'idle' } | { type: 'retire' } | { type: 'fault'; message: string };

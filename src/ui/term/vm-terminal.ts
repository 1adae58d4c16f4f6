// The VM's terminal as the UI sees it: the host API of the kernel TTY
// (src/host/terminal.ts on the `tty` branch). The UI depends only on this
// interface; `openTerminal` finds the host's implementation on the AgentVM.

import type { AgentVM } from '../../host/browser/index.js';

export interface TerminalOptions {
  cols?: number;
  rows?: number;
  cwd?: string;
  env?: Record<string, string>;
  argv?: string[];
}

export interface Terminal {
  /** Keystrokes. */
  write(data: Uint8Array | string): void;
  /** Output; returns unsubscribe. */
  onData(cb: (bytes: Uint8Array) => void): () => void;
  resize(cols: number, rows: number): void;
  readonly exited: Promise<number>;
  close(): Promise<void>;
}

interface TerminalHost {
  openTerminal?(opts?: TerminalOptions): Promise<Terminal>;
}

export function openTerminal(vm: AgentVM, opts: TerminalOptions): Promise<Terminal> {
  const host = vm as unknown as TerminalHost;
  if (typeof host.openTerminal !== 'function') return Promise.reject(new Error('this build of agentOS has no kernel TTY yet'));
  return host.openTerminal(opts);
}

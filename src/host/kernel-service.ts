// The kernel worker's face to its host, exposed over Comlink.
// Every call runs as a syscall of init (pid 1), the host's process.

import type { Value } from '../abi/codec.js';
import { SysError } from '../abi/errno.js';
import type { Kernel } from '../kernel/kernel.js';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  state: string;
  argv: string[];
  uptimeMs: number;
}

export interface KernelStatus {
  uptimeMs: number;
  hostname: string;
  processes: ProcessInfo[];
  workers: { idle: number; running: number; unwinding: number; spawned: number };
  mounts: { target: string; type: string }[];
}

/** Errors cross postMessage as plain data; the client rebuilds SysError from it. */
export type CallResult = { ok: true; value: Value } | { ok: false; errno: number; detail: string | undefined };

export class KernelService {
  constructor(private readonly kernel: Kernel) {}

  async syscall(name: string, args: Value[]): Promise<CallResult> {
    try {
      return { ok: true, value: await this.kernel.hostCall(name, args) };
    } catch (e) {
      if (e instanceof SysError) return { ok: false, errno: e.errno, detail: e.detail };
      throw e;
    }
  }

  status(): KernelStatus {
    const k = this.kernel;
    const now = Date.now();
    return {
      uptimeMs: now - k.bootMs,
      hostname: k.hostname,
      processes: k.procs.all().map((p) => ({
        pid: p.pid, ppid: p.ppid, pgid: p.pgid, sid: p.sid, state: p.state, argv: p.argv, uptimeMs: now - p.startMs,
      })),
      workers: k.runner.stats,
      mounts: k.vfs.mounts().map((m: { target: string; type: string }) => ({ target: m.target, type: m.type })),
    };
  }

  shutdown(): void {
    this.kernel.shutdown();
  }
}

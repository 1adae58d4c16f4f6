// What procfs reads the kernel through. The kernel wires this up at boot, so
// procfs depends only on Process and this interface, never on Kernel.

import type { Process } from '../../process.js';
import type { Cred, Inode } from '../../vfs/types.js';

export interface MountEntry {
  source: string;
  target: string;
  type: string;
  options: string;
}

export interface ProcSource {
  /** Every process in the table, zombies included, in creation order. */
  procs(): readonly Process[];
  get(pid: number): Process | undefined;
  /** Date.now() at boot, for uptime and start times. */
  readonly bootMs: number;
  readonly hostname: string;
  /** Logical CPUs: the host's, since processes run in parallel workers. */
  readonly cpus: number;
  /** Absolute path of a directory inode (Vfs.pathOf), for /proc/<pid>/cwd. */
  pathOf(inode: Inode): string;
  memory(): { totalKiB: number; freeKiB: number };
  /** The mount table, parents first, for /proc/mounts. */
  mounts(): readonly MountEntry[];
  /** /proc/net/<file>: the kernel's sockets in Linux's text (kernel/socket/proc-net.ts). */
  net?(file: 'tcp' | 'tcp6' | 'udp' | 'udp6' | 'unix'): string;
  /** /proc/agentos/audit: the VM's audit trail as JSON lines. */
  audit?(): string;
  /** Processes whose fds, cwd, exe and environ no other guest process may inspect. */
  undumpable?(p: Process): boolean;
  /** A process's environment as `reader` may see it (the VM's secrets masked for others). */
  environ?(reader: Cred, p: Process): string[];
}

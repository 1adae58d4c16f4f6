// A directory's entries through a host-side syscall function: the host's own
// (Machine, pid 1) or the VM user's (UserFiles), the same loop over getdents.

import type { Value } from '../../abi/codec.js';
import { O_DIRECTORY, O_RDONLY } from '../../abi/fcntl.js';
import type { DirEntry } from '../../abi/stat.js';
import type { SyscallName } from '../../abi/syscalls.js';

export type HostSyscall = (name: SyscallName, ...args: Value[]) => Promise<Value>;

export async function readDirectory(syscall: HostSyscall, path: string): Promise<DirEntry[]> {
  const fd = (await syscall('open', path, O_RDONLY | O_DIRECTORY)) as number;
  const out: DirEntry[] = [];
  try {
    for (;;) {
      const batch = (await syscall('getdents', fd)) as [string, number, number][];
      if (!batch.length) return out;
      for (const [name, ino, type] of batch) out.push({ name, ino, type });
    }
  } finally {
    await syscall('close', fd);
  }
}

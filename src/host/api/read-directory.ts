// A directory's entries through a host-side syscall function: the host's own
// (Machine, pid 1) or the VM user's (UserFiles), the same loop over getdents.

import { O_DIRECTORY, O_RDONLY } from '../../abi/fcntl.js';
import type { DirEntry } from '../../abi/stat.js';
import type { AsyncSyscall } from '../../abi/syscall-types.js';

export async function readDirectory(syscall: AsyncSyscall, path: string): Promise<DirEntry[]> {
  const fd = await syscall('open', path, O_RDONLY | O_DIRECTORY);
  const out: DirEntry[] = [];
  try {
    for (;;) {
      const batch = await syscall('getdents', fd);
      if (!batch.length) return out;
      for (const [name, ino, type] of batch) out.push({ name, ino, type });
    }
  } finally {
    await syscall('close', fd);
  }
}

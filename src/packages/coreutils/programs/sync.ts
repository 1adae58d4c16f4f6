// sync [-d|-f] [FILE]...: commit cached writes to persistent storage (sync(2), or fsync(2) per FILE).

import { Errno } from '../../../abi/errno.js';
import { O_NONBLOCK, O_RDONLY, O_WRONLY } from '../../../abi/fcntl.js';
import { command, errnoOf, quoteaf, type Cmd } from '../../../userland/lib/index.js';

const USAGE = `Usage: sync [OPTION] [FILE]...
Synchronize cached writes to persistent storage

If one or more files are specified, sync only them,
or their containing file systems.

  -d, --data             sync only file data, no unneeded metadata
  -f, --file-system      sync the file systems that contain the files
      --help        display this help and exit
      --version     output version information and exit
`;

export const sync = command(
  {
    name: 'sync',
    usage: USAGE,
    short: 'df',
    long: { data: ['d', 'none'], 'file-system': ['f', 'none'] },
  },
  (c) => {
    const data = c.has('d');
    const fileSystem = c.has('f');
    if (data && fileSystem) c.fail('cannot specify both --data and --file-system');
    if (data && c.operands.length === 0) c.fail('--data needs at least one argument');
    if (c.operands.length === 0) {
      c.sys.raw.call('sync');
      return;
    }
    // The kernel has no syncfs: a file system is synced with sync(2).
    const call = data ? 'fdatasync' : fileSystem ? null : 'fsync';
    for (const file of c.operands) syncFile(c, file, call);
  },
);

function syncFile(c: Cmd, file: string, call: 'fsync' | 'fdatasync' | null): void {
  let fd: number;
  try {
    // Non-blocking so a FIFO does not wait for a writer; write-only when read is refused (GNU does the same).
    fd = openEither(c, file, call !== null);
  } catch (e) {
    c.sysError(`error opening ${quoteaf(file)}`, e);
    return;
  }
  try {
    if (call) c.sys.raw.call(call, fd);
    else c.sys.raw.call('sync');
  } catch (e) {
    c.sysError(`error syncing ${quoteaf(file)}`, e);
  } finally {
    c.sys.close(fd);
  }
}

function openEither(c: Cmd, file: string, tryWrite: boolean): number {
  try {
    return c.sys.open(file, O_RDONLY | O_NONBLOCK);
  } catch (e) {
    if (!tryWrite || errnoOf(e) !== Errno.EACCES) throw e;
    try {
      return c.sys.open(file, O_WRONLY | O_NONBLOCK);
    } catch {
      throw e; // the read error is the one reported
    }
  }
}

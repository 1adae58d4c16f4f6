// Shared shape of the memory devices (major 1): stateless, always ready, and
// seeking "succeeds" at offset 0 as Linux's null/zero/random do.

import { POLLIN, POLLOUT } from '../pipe.js';
import type { FileOps } from '../vfs/types.js';
import type { CharDevice } from './device.js';

export interface SimpleIo {
  read(len: number): Uint8Array;
  /** Bytes accepted (or throws). */
  write(data: Uint8Array): number;
}

export function simpleDevice(io: SimpleIo): CharDevice {
  const ops: FileOps = {
    read: (_f, len) => io.read(len),
    write: (_f, data) => io.write(data),
    seek: (f) => (f.pos = 0),
    poll: () => POLLIN | POLLOUT,
  };
  return { open: () => ops };
}

// /dev/full (1,7): reads like /dev/zero, but every write finds the disk full.

import { Errno, SysError } from '../../abi/errno.js';
import { simpleDevice } from './simple.js';

export const fullDevice = simpleDevice({
  read: (len) => new Uint8Array(len),
  write: () => {
    throw new SysError(Errno.ENOSPC);
  },
});

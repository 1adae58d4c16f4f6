// /dev/tty (5,0): the caller's controlling terminal. Until terminals land no
// process has one, and Linux fails open("/dev/tty") with ENXIO without a ctty.

import { Errno, SysError } from '../../abi/errno.js';
import type { CharDevice } from './device.js';

export const ttyDevice: CharDevice = {
  open() {
    throw new SysError(Errno.ENXIO, 'no controlling terminal');
  },
};

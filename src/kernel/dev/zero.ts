// /dev/zero (1,5): an endless source of zero bytes; writes vanish.

import { simpleDevice } from './simple.js';

export const zeroDevice = simpleDevice({
  read: (len) => new Uint8Array(len),
  write: (data) => data.length,
});

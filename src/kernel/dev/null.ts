// /dev/null (1,3): reads hit EOF at once, writes vanish.

import { simpleDevice } from './simple.js';

export const nullDevice = simpleDevice({
  read: () => new Uint8Array(0),
  write: (data) => data.length,
});

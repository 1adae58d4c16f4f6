// /dev/random (1,8) and /dev/urandom (1,9): both draw from the host CSPRNG,
// which never blocks once seeded (as Linux's have behaved since 5.6).
// Writes are accepted and ignored: there is no entropy pool to stir.

import { simpleDevice } from './simple.js';

/** getRandomValues fills at most 65536 bytes per call. */
const MAX_FILL = 65536;

function randomBytes(len: number): Uint8Array {
  const out = new Uint8Array(len);
  for (let off = 0; off < len; off += MAX_FILL) {
    globalThis.crypto.getRandomValues(out.subarray(off, Math.min(len, off + MAX_FILL)));
  }
  return out;
}

export const randomDevice = simpleDevice({
  read: randomBytes,
  write: (data) => data.length,
});

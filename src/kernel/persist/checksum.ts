// The frames' CRC-32 (format.ts, scan.ts): the pure one every host has
// (common/crc32.ts), or the same function in a host's native code, given by
// the host's layer store (Node: zlib.crc32, 5-20x faster on a large frame,
// which a 100 MB write or a snapshot restore checksums whole).

import { crc32 as pure } from '../../common/crc32.js';

type Crc32 = (b: Uint8Array, prev?: number) => number;

/** Below this a call into native code costs more than the table loop. */
const NATIVE_MIN = 512;

let impl: Crc32 = pure;

/** Use `native` (same polynomial and running value as common/crc32.ts) for large inputs. */
export function useNativeCrc32(native: (b: Uint8Array, prev: number) => number): void {
  impl = (b, prev = 0) => (b.byteLength >= NATIVE_MIN ? native(b, prev) : pure(b, prev));
}

export function frameCrc32(b: Uint8Array, prev = 0): number {
  return impl(b, prev);
}

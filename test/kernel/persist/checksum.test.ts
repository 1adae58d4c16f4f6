// The frames' CRC-32: the pure one's word-load path and the native one a host
// gives must agree with zlib's on every alignment, length and running value.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { crc32 } from '../../../src/common/crc32.js';
import { frameCrc32, useNativeCrc32 } from '../../../src/kernel/persist/checksum.js';

const bytes = new Uint8Array(4096 + 11);
for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;

test('pure CRC-32 matches zlib at every offset, length and running value', () => {
  for (const off of [0, 1, 2, 3, 5]) {
    for (const len of [0, 1, 7, 8, 63, 64, 65, 100, 1000, 4096]) {
      const b = bytes.subarray(off, off + len);
      assert.equal(crc32(b), zlibCrc32(b), `offset ${off} length ${len}`);
      assert.equal(crc32(b, 0x12345678), zlibCrc32(b, 0x12345678), `offset ${off} length ${len}, running`);
    }
  }
  // Continued over two pieces as a frame's parts are.
  assert.equal(crc32(bytes.subarray(777), crc32(bytes.subarray(0, 777))), zlibCrc32(bytes));
});

test('frame checksums with a native CRC-32 equal the pure ones', () => {
  const pure = [bytes.subarray(0, 20), bytes.subarray(3), bytes].map((b) => frameCrc32(b));
  let calls = 0;
  useNativeCrc32((b, prev) => {
    calls++;
    return zlibCrc32(b, prev);
  });
  assert.deepEqual([bytes.subarray(0, 20), bytes.subarray(3), bytes].map((b) => frameCrc32(b)), pure);
  assert.equal(calls, 2, 'the native one is used for large inputs only');
});

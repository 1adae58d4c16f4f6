// The word-at-a-time byte helpers against plain per-byte loops, at every
// alignment and short length (the aligned middle may be empty), over buffers
// holding every byte value (0x80–0x9f is where windows-1252 differs from latin1).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countByte, isAscii, latin1, latin1Bytes } from '../../../src/userland/lib/bytes.js';

const data = new Uint8Array(600);
for (let i = 0; i < data.length; i++) data[i] = (i * 37 + (i >> 3)) & 0xff;
data.fill(10, 100, 120);
const ascii = data.map((b) => b & 0x7f);

function* slices(b: Uint8Array): Generator<Uint8Array> {
  for (let off = 0; off < 9; off++) for (const len of [0, 1, 2, 3, 4, 5, 7, 8, 9, 31, 64, 200, b.length - off]) yield b.subarray(off, off + len);
}

test('countByte counts each byte value at every alignment', () => {
  for (const s of slices(data)) {
    for (const v of [0, 10, 0x80, 0x9f, 0xff, 0x7f, 13]) assert.equal(countByte(s, v), s.filter((b) => b === v).length);
  }
});

test('isAscii sees any high bit at every alignment', () => {
  for (const s of slices(ascii)) assert.equal(isAscii(s), true);
  for (const s of slices(data)) assert.equal(isAscii(s), s.every((b) => b < 0x80));
  for (let at = 0; at < 12; at++) {
    const b = new Uint8Array(12).fill(65);
    b[at] = 0x80;
    assert.equal(isAscii(b.subarray(1)), at === 0);
  }
});

test('latin1 is one char per byte and latin1Bytes reverses it', () => {
  for (const s of [...slices(data), ...slices(ascii)]) {
    const str = latin1(s);
    assert.equal(str, Array.from(s, (b) => String.fromCharCode(b)).join(''));
    assert.deepEqual(latin1Bytes(str), Uint8Array.from(s));
  }
  // A non-ASCII char late in a long string: the native encoder's partial output must not survive.
  const long = 'a'.repeat(1000) + '\xe9' + 'b'.repeat(10);
  assert.deepEqual(latin1Bytes(long), Uint8Array.from(long, (ch) => ch.charCodeAt(0)));
});

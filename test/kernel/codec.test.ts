// The syscall codec: values round-trip, byte payloads land 8-aligned (fast
// copies in and out of the SharedArrayBuffer), and the largest read or write
// the user library sends still fits the channel.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DATA_BYTES, HEADER_BYTES, IO_CHUNK } from '../../src/abi/channel.js';
import { decodeAll, Decoder, encodeInto, type Value } from '../../src/abi/codec.js';

const channel = () => new Uint8Array(new SharedArrayBuffer(HEADER_BYTES + DATA_BYTES), HEADER_BYTES, DATA_BYTES);

test('values round-trip, byte payloads after any prefix', () => {
  const buf = channel();
  for (let prefix = 0; prefix < 10; prefix++) {
    const bytes = Uint8Array.from({ length: 33 }, (_, i) => (i * 31 + prefix) & 0xff);
    const values: Value[] = ['x'.repeat(prefix), bytes, 7, -1.5, null, true, [new Uint8Array(0), 'é'], { k: bytes }];
    const len = encodeInto(buf, values);
    assert.deepEqual(decodeAll(buf, len), values);
    const views = decodeAll(buf, len, false);
    assert.deepEqual(Array.from(views[1] as Uint8Array), Array.from(bytes));
    assert.equal(((views[1] as Uint8Array).byteOffset - HEADER_BYTES) % 8, 0, `payload aligned after a ${prefix}-char string`);
  }
});

test('a whole IO_CHUNK write (fd, data, position) fits the channel', () => {
  const buf = channel();
  const data = new Uint8Array(IO_CHUNK).fill(0xab);
  const len = encodeInto(buf, [1_000_000, data, 2 ** 40]);
  assert.ok(len <= DATA_BYTES);
  const [fd, got, pos] = decodeAll(buf, len);
  assert.equal(fd, 1_000_000);
  assert.equal((got as Uint8Array).byteLength, IO_CHUNK);
  assert.equal(pos, 2 ** 40);
  // A reply carrying IO_CHUNK bytes decodes as a fresh, unshared copy.
  const reply = encodeInto(buf, [data]);
  const copy = new Decoder(buf.subarray(0, reply)).value() as Uint8Array;
  assert.ok(copy.buffer instanceof ArrayBuffer);
  assert.equal(copy.byteLength, IO_CHUNK);
});

test('strings keep lone surrogates (bytes the shell could not decode) and real U+FFFD', () => {
  const buf = channel();
  // The shell carries byte 0xff as U+DCFF; a real replacement character must stay one.
  const values: Value[] = ['a\udcffb', '\udcc3\udca9', 'x\ud83d', '\ud83d\ude00 é \ufffd', { ['k\udc80']: 'v\udcfe\ufffd' }];
  assert.deepEqual(decodeAll(buf, encodeInto(buf, values)), values);
});

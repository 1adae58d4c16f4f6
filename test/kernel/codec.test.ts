// The syscall codec: values round-trip, byte payloads land 8-aligned (fast
// copies in and out of the SharedArrayBuffer), and the largest read or write
// the user library sends still fits the channel.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DATA_BYTES, HEADER_BYTES, IO_CHUNK } from '../../src/abi/channel.js';
import { CodecError, decodeAll, Decoder, encodeInto, MAX_DEPTH, type Value } from '../../src/abi/codec.js';

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

test('strings keep escaped bytes (U+DC80..U+DCFF, bytes the shell could not decode) and a real U+FFFD', () => {
  const buf = channel();
  // The shell carries byte 0xff as U+DCFF; a real replacement character must stay one.
  const values: Value[] = ['a\udcffb', '\ud83d\ude00 é \ufffd', { ['k\udc80']: 'v\udcfe\ufffd' }];
  assert.deepEqual(decodeAll(buf, encodeInto(buf, values)), values);
});

test('malformed bytes are a CodecError, never an out-of-range read or a runaway loop', () => {
  const buf = channel();
  const u32 = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255];
  const deep: number[] = [];
  for (let i = 0; i <= MAX_DEPTH; i++) deep.push(7, ...u32(1));
  deep.push(0);
  const cases: [string, number[], number?][] = [
    ['bad tag', [42]],
    ['truncated int', [3, 1, 2]],
    ['string past the end', [5, ...u32(0xffffffff), 65]],
    ['bytes past the end', [6, ...u32(100), 1, 2, 3]],
    ['count past the end', [7, ...u32(0xffffffff)]],
    ['keys past the end', [8, ...u32(3), ...u32(0), 0]],
    ['too deep', deep],
    ['negative length', [0], -1],
    ['length past the buffer', [0], DATA_BYTES + 1],
  ];
  for (const [name, bytes, len] of cases) {
    buf.fill(0);
    buf.set(bytes);
    assert.throws(() => decodeAll(buf, len ?? bytes.length), CodecError, name);
  }
  // One level less than the limit decodes.
  buf.set(deep.slice(5));
  assert.equal(decodeAll(buf, deep.length - 5).length, 1);
  // An own "__proto__" key is data, not the object's prototype.
  const len = encodeInto(buf, [JSON.parse('{"__proto__": {"path": "/x"}}') as Value]);
  const [o] = decodeAll(buf, len) as [Record<string, Value>];
  assert.equal(Object.getPrototypeOf(o), Object.prototype);
  assert.deepEqual(Object.keys(o), ['__proto__']);
  assert.equal((o as { path?: string }).path, undefined);
});

// gzip and zip's RawInflater (src/packages/gzip/programs/inflate.ts) finds
// where a raw DEFLATE stream ends by reading state fflate keeps private: no
// public API of fflate (or pako) reports how many input bytes a stream used.
// So fflate is pinned to one exact version, and this file fails on an
// upgrade: first on the version, then on the contract itself (the bytes
// after the stream come back exactly, whatever the chunking).

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { deflateSync } from 'fflate';
import { RawInflater } from '../../../src/packages/gzip/programs/inflate.js';

/** The fflate release whose private Inflate state RawInflater was written against. */
const VERIFIED = '0.8.3';

/** The repository's root: the nearest directory up from this file whose package.json is agentOS's (this file runs from dist/test/). */
function repoRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    const f = join(dir, 'package.json');
    if (existsSync(f) && (JSON.parse(readFileSync(f, 'utf8')) as { name?: string }).name === 'agentos-web') return dir;
  }
  throw new Error('no agentos-web package.json above this file');
}

test('fflate is pinned to the exact version RawInflater reads the private state of', () => {
  const root = repoRoot();
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  assert.equal(pkg.dependencies.fflate, VERIFIED, 'package.json must pin fflate exactly (no caret): RawInflater reads its private fields');
  const installed = JSON.parse(readFileSync(join(root, 'node_modules/fflate/package.json'), 'utf8')) as { version: string };
  assert.equal(installed.version, VERIFIED, `installed fflate ${installed.version}: re-check RawInflater against its Inflate state, then update VERIFIED`);
});

/** Deterministic bytes: text-like runs and noise, so blocks of every kind (stored, fixed, dynamic) appear. */
function sample(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = (i >> 9) % 2 ? 97 + ((x >>> 0) % 4) : x & 0xff;
  }
  return out;
}

/** Inflate `stream` fed in `size`-byte chunks; the output and the bytes returned after the stream's end. */
function inflate(stream: Uint8Array, size: number): { out: Uint8Array; rest: Uint8Array | null } {
  const parts: Uint8Array[] = [];
  const inf = new RawInflater((d) => parts.push(d.slice()));
  let rest: Uint8Array | null = null;
  for (let off = 0; off < stream.byteLength && rest === null; off += size) {
    rest = inf.push(stream.subarray(off, off + size));
    if (rest !== null) {
      const tail = stream.subarray(off + size);
      const all = new Uint8Array(rest.byteLength + tail.byteLength);
      all.set(rest);
      all.set(tail, rest.byteLength);
      rest = all;
    }
  }
  return { out: Buffer.concat(parts), rest };
}

test('RawInflater returns exactly the bytes after a raw DEFLATE stream, for any chunking', () => {
  const trailer = Uint8Array.from([0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 0x1f, 0x8b]);
  for (const n of [0, 1, 100, 5000, 70_000]) {
    for (const level of [0, 1, 6, 9] as const) {
      const data = sample(n, n + level + 1);
      const deflated = deflateSync(data, { level });
      const stream = new Uint8Array(deflated.byteLength + trailer.byteLength);
      stream.set(deflated);
      stream.set(trailer, deflated.byteLength);
      // Byte-at-a-time only where it is cheap: fflate re-scans its buffer on each push.
      for (const size of stream.byteLength < 6000 ? [1, 7, 4096] : [997, 4096, 40_000, stream.byteLength]) {
        const { out, rest } = inflate(stream, size);
        const what = `${n} bytes, level ${level}, chunks of ${size}`;
        assert.ok(rest, `${what}: the end of the stream was not seen`);
        assert.deepEqual(Buffer.from(rest), Buffer.from(trailer), `${what}: the bytes after the stream`);
        assert.ok(Buffer.from(out).equals(Buffer.from(data)), `${what}: the inflated data`);
      }
    }
  }
});

test('RawInflater says the stream goes on while its final block is incomplete', () => {
  const deflated = deflateSync(sample(20_000, 7), { level: 6 });
  const inf = new RawInflater(() => {});
  assert.equal(inf.push(deflated.subarray(0, deflated.byteLength - 1)), null);
  assert.deepEqual(inf.push(deflated.subarray(deflated.byteLength - 1)), new Uint8Array(0));
});

// Streaming input over an fd: chunks and lines without ever holding the whole
// input (inputs may be endless pipes or huge files).

import { IO_CHUNK } from '../../abi/channel.js';
import type { Sys } from '../../libc/sys.js';


/**
 * Yield the fd's bytes chunk by chunk until EOF, by default as much as one
 * read syscall carries: each is a round trip to the kernel worker, so fewer,
 * larger reads win (pipes and terminals still return what they have).
 */
export function* chunks(sys: Sys, fd: number, size = IO_CHUNK): Generator<Uint8Array> {
  for (;;) {
    const b = sys.read(fd, size);
    if (b.byteLength === 0) return;
    yield b;
  }
}

/** Yield lines including their terminator (the last one may lack it). */
export function* lines(sys: Sys, fd: number, delim = 10): Generator<Uint8Array> {
  let carry: Uint8Array | null = null;
  for (const chunk of chunks(sys, fd)) {
    let start = 0;
    for (let i = chunk.indexOf(delim); i >= 0; i = chunk.indexOf(delim, start)) {
      const piece = chunk.subarray(start, i + 1);
      if (carry) {
        yield join(carry, piece);
        carry = null;
      } else yield piece;
      start = i + 1;
    }
    if (start < chunk.byteLength) carry = carry ? join(carry, chunk.subarray(start)) : chunk.slice(start);
  }
  if (carry) yield carry;
}

export function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}

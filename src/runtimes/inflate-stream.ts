// gzip or zlib-wrapped deflate decoded as a stream in the calling thread (fflate's
// Decompress tells the two apart by their headers). A runtime's worker uses it where the
// engine's DecompressionStream would run on the host's loop, which the worker's own loop
// does not wait for.

import { Decompress } from 'fflate';

export function inflateStream(): TransformStream<Uint8Array, Uint8Array> {
  let d: Decompress;
  return new TransformStream({
    start(c) {
      d = new Decompress((chunk) => { if (chunk.byteLength) c.enqueue(chunk); });
    },
    transform(chunk) {
      d.push(chunk);
    },
    flush() {
      d.push(new Uint8Array(0), true);
    },
  });
}

// A raw DEFLATE stream decoder over fflate's streaming Inflate that also says
// where the stream ends, so gzip can read the trailer and the next member
// and zip can check a member's compressed size. fflate has no public way to
// tell: we read the state its Inflate keeps (fflate 0.8: `s.f` set once the
// final block has started, `s.l` the block's code map, cleared at its end;
// `s.p` the bit position within `p`, the unconsumed input). So package.json
// pins fflate exactly, and test/packages/gzip/inflate-contract.test.ts
// fails on another version; the package's tests cover the rest (multi-member
// files, trailers, garbage after a member).

import { Inflate } from 'fflate';

/** Input is fed in slices so one push never expands into more than ~32 MB (deflate's ratio tops out near 1032:1). */
const SLICE = 32 * 1024;

interface InflateState {
  s: { f?: number; l?: unknown; p?: number };
  p: Uint8Array;
}

export class RawInflater {
  private readonly inf: Inflate;
  private ended = false;

  constructor(onData: (b: Uint8Array) => void) {
    this.inf = new Inflate((d) => {
      if (d.byteLength) onData(d);
    });
  }

  /**
   * Feed compressed bytes. Returns null while the stream goes on; once its
   * final block is complete, the input bytes that follow it (maybe empty).
   * Corrupt data throws fflate's error.
   */
  push(chunk: Uint8Array): Uint8Array | null {
    if (this.ended) return chunk;
    for (let off = 0; off < chunk.byteLength; off += SLICE) {
      this.inf.push(chunk.subarray(off, off + SLICE));
      const st = this.inf as unknown as InflateState;
      if (!st.s.f || st.s.l) continue;
      this.ended = true;
      // After a push fflate keeps whole bytes from the one holding bit `s.p` (0..7); then comes the rest of the chunk.
      const left = st.p.subarray((st.s.p ?? 0) > 0 ? 1 : 0);
      const rest = chunk.subarray(off + SLICE);
      if (!rest.byteLength) return left;
      const out = new Uint8Array(left.byteLength + rest.byteLength);
      out.set(left);
      out.set(rest, left.byteLength);
      return out;
    }
    return null;
  }
}

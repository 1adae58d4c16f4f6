// A request body streamed from a guest fd: the kernel reads the open file
// description (a file, a pipe) as the host consumes it, so an upload never
// has to sit in memory whole.

import type { OpenFile } from '../file.js';
import { WaitQueue } from '../waitqueue.js';

const CHUNK = 64 * 1024;

/** Reads `f` to EOF; holds a reference until done (or abandoned by the host). */
export async function* fdBody(f: OpenFile): AsyncGenerator<Uint8Array> {
  f.ref();
  try {
    for (;;) {
      const r = f.ops.read(f, CHUNK);
      if (r instanceof WaitQueue) {
        await new Promise<void>((wake) => r.add(wake));
        continue;
      }
      if (r.byteLength === 0) return;
      // Reads may be views of kernel storage: the host gets its own copy.
      yield r.slice();
    }
  } finally {
    f.unref();
  }
}

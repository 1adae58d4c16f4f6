// A request body streamed from a guest fd: the kernel reads the open file
// description (a file, a pipe) as the host consumes it, so an upload never
// has to sit in memory whole.

import type { OpenFile } from '../file.js';
import { WaitQueue } from '../waitqueue.js';

const CHUNK = 64 * 1024;

/**
 * Reads `f` to EOF, holding a reference meanwhile. `stop` ends it early (the
 * request failed or finished): the reference must go, or a writer feeding
 * the pipe would wait forever for a reader that is gone.
 */
export async function* fdBody(f: OpenFile, stop: AbortSignal): AsyncGenerator<Uint8Array> {
  f.ref();
  try {
    while (!stop.aborted) {
      const r = f.ops.read(f, CHUNK);
      if (r instanceof WaitQueue) {
        await new Promise<void>((wake) => {
          const off = r.add(wake);
          stop.addEventListener('abort', () => (off(), wake()), { once: true });
        });
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

// Browser host: the proxy worker of one directory mount (src/host/browser/worker/dirfs-proxy.ts).
// Its first message names the directory (an OPFS name or a picked handle) and
// the reply buffer; it answers 'ready' once it serves.

import { serveDirectory } from '../src/host/browser/worker/dirfs-proxy.js';

self.addEventListener('message', (e: MessageEvent<{ opfs?: string; directory?: FileSystemDirectoryHandle; reply: SharedArrayBuffer }>) => {
  const { opfs, directory, reply } = e.data;
  const root = directory
    ? Promise.resolve(directory)
    : navigator.storage.getDirectory().then((d) => d.getDirectoryHandle(opfs!, { create: true }));
  root.then(
    (dir) => {
      serveDirectory(dir, reply, self as unknown as { onmessage: ((e: MessageEvent) => void) | null });
      self.postMessage({ ready: true });
    },
    (err: unknown) => self.postMessage({ error: err instanceof Error ? err.message : String(err) }),
  );
}, { once: true });

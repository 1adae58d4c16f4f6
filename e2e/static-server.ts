// A tiny static file server for specs that need what `vite preview` cannot
// give: no isolation headers at all (the service-worker fallback), or the
// build mounted under a sub-directory (module-relative URLs).

import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import type { AddressInfo } from 'node:net';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.wasm': 'application/wasm', '.map': 'application/json', '.img': 'application/octet-stream',
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

export interface StaticOptions {
  /** Directory served under `prefix` (default `/`). */
  root: string;
  prefix?: string;
  /** Send COOP/COEP (default false). */
  isolate?: boolean;
  /** Extra pages: path → HTML. */
  pages?: Record<string, string>;
}

export async function serveStatic(o: StaticOptions): Promise<StaticServer> {
  const prefix = o.prefix ?? '/';
  const server: Server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const headers: Record<string, string> = o.isolate
      ? { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' }
      : {};
    const page = o.pages?.[path];
    if (page !== undefined) {
      res.writeHead(200, { ...headers, 'Content-Type': TYPES['.html'] }).end(page);
      return;
    }
    if (!path.startsWith(prefix)) {
      res.writeHead(404).end();
      return;
    }
    let rel = normalize(path.slice(prefix.length));
    if (rel.startsWith('..')) {
      res.writeHead(403).end();
      return;
    }
    if (rel === '.' || rel.endsWith('/')) rel = join(rel, 'index.html');
    try {
      const body = await readFile(join(o.root, rel));
      res.writeHead(200, { ...headers, 'Content-Type': TYPES[extname(rel)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}

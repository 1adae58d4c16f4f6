// A tiny static file server on an ephemeral localhost port: BrowserVM serves
// the built app (dist/web) with it, with the isolation headers SharedArrayBuffer
// needs; e2e specs use it for what `vite preview` cannot give (no isolation
// headers at all, or the build mounted under a sub-directory).

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import type { AddressInfo } from 'node:net';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.wasm': 'application/wasm', '.map': 'application/json',
  '.img': 'application/octet-stream', '.zip': 'application/zip', '.md': 'text/markdown; charset=utf-8',
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
  /** More headers on every response (e.g. CORP for a sandbox origin framed by another). */
  headers?: Record<string, string>;
  /** Extra pages: path → HTML. */
  pages?: Record<string, string>;
  /** Listen on this port (default 0: any free one). */
  port?: number;
}

export async function serveStatic(o: StaticOptions): Promise<StaticServer> {
  const prefix = o.prefix ?? '/';
  const server: Server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const headers: Record<string, string> = {
      ...(o.isolate ? { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } : {}),
      ...o.headers,
    };
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
    const file = join(o.root, rel);
    // Streamed: the app holds files of 100+ MB (the installable packages).
    const st = await stat(file).catch(() => null);
    if (!st?.isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Type': TYPES[extname(rel)] ?? 'application/octet-stream', 'Content-Length': st.size });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).on('error', () => res.destroy()).pipe(res);
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(o.port ?? 0, '127.0.0.1', ok);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((ok) => {
      server.close(() => ok());
      server.closeAllConnections(); // keep-alive connections of a closed browser must not hold it open
    }),
  };
}

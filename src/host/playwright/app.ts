// The built app (dist/web, `npm run build`) served to the browser: one
// localhost server per app directory and port, shared by the BrowserVMs using it.

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SANDBOX_PAGE } from './protocol.js';
import { SharedPool, type Lease } from './shared.js';
import { serveStatic, type StaticServer } from './static-server.js';

/** dist/web, beside the Node bundles in dist/node. */
export const DEFAULT_APP_DIR = fileURLToPath(new URL('../web/', import.meta.url));

const servers = new SharedPool<StaticServer>((s) => s.close());

/** The app's base URL (ends in '/'), served from `dir` on `port` (0: any free port). */
export async function serveApp(dir = DEFAULT_APP_DIR, port = 0): Promise<Lease<string>> {
  const root = resolve(dir);
  if (!existsSync(join(root, SANDBOX_PAGE))) {
    throw new Error(`BrowserVM: no built app at ${root} (${SANDBOX_PAGE} is missing); run \`npm run build\` first`);
  }
  // Port 0 means "any": such servers are shared too, whatever port they got.
  const lease = await servers.acquire(`${root}\0${port}`, () => serveStatic({ root, isolate: true, port }));
  return { value: `${lease.value.url}/`, release: lease.release };
}

#!/usr/bin/env node
// `npm start`: full build, then serve dist/web with `vite preview` (COOP/COEP
// headers come from vite.config.ts) on $PORT (default 5173).
//   HOST=0.0.0.0 npm start   to listen on all interfaces.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.PORT ?? 5173);
const host = process.env.HOST ?? 'localhost';

const build = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('start: build failed, not serving');
  process.exit(build.status ?? 1);
}

process.chdir(ROOT);
const { preview } = await import('vite');
const server = await preview({
  root: ROOT,
  configFile: join(ROOT, 'vite.config.ts'),
  preview: { port, strictPort: true, host, open: false },
});
const urls = [...(server.resolvedUrls?.local ?? []), ...(server.resolvedUrls?.network ?? [])];
const main = urls[0] ?? `http://${host}:${port}/`;
console.log('');
console.log('  agentOS is running (cross-origin isolated: COOP same-origin, COEP require-corp)');
console.log(`  playground:  ${main}`);
console.log(`  component:   ${new URL('agentos-terminal.js', main)}  (README "Embedding")`);
console.log(`  e2e harness: ${new URL('e2e/harness/', main)}`);
for (const u of urls.slice(1)) console.log(`  also:        ${u}`);
console.log('  Ctrl-C to stop.');
console.log('');

const stop = () => server.close().finally(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

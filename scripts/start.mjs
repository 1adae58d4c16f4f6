#!/usr/bin/env node
// `npm start`: build what the playground needs (build.mjs --playground: no
// Node, test or WASI test bundles), then serve dist/web with `vite preview`
// (COOP/COEP headers come from vite.config.ts) on $PORT (default 5173).
//   HOST=0.0.0.0 npm start   to listen on all interfaces.
//   npm start -- --no-build  to serve what is built.
// Ctrl-C (SIGINT) or SIGTERM stops the build and everything it started (its
// own process group), or the server.
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.PORT ?? 5173);
const host = process.env.HOST ?? 'localhost';
const args = process.argv.slice(2);
for (const a of args) {
  if (a !== '--no-build') {
    console.error(`start: unknown argument ${a} (supported: --no-build)`);
    process.exit(2);
  }
}

let stop = (signal) => process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

if (!args.includes('--no-build')) {
  // Its own process group, so a signal reaches vite build and esbuild's service under it too.
  const build = spawn(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--playground'], { cwd: ROOT, stdio: 'inherit', detached: true });
  stop = (signal) => {
    try {
      process.kill(-build.pid, signal);
    } catch {
      // Already gone.
    }
  };
  const [code, signal] = await new Promise((done) => build.on('exit', (c, s) => done([c, s])));
  if (signal) {
    // Stopped: make sure nothing of the group outlives it.
    try {
      process.kill(-build.pid, 'SIGKILL');
    } catch {
      // Nothing left.
    }
    process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
  }
  if (code !== 0) {
    console.error('start: build failed, not serving');
    process.exit(code ?? 1);
  }
}

process.chdir(ROOT);
const { preview } = await import('vite');
const server = await preview({
  root: ROOT,
  configFile: join(ROOT, 'vite.config.ts'),
  preview: { port, strictPort: true, host, open: false },
});
stop = () => server.close().finally(() => process.exit(0));
const urls = [...(server.resolvedUrls?.local ?? []), ...(server.resolvedUrls?.network ?? [])];
const main = urls[0] ?? `http://${host}:${port}/`;
console.log('');
console.log('  agentOS is running (cross-origin isolated: COOP same-origin, COEP require-corp)');
console.log(`  playground:  ${main}`);
console.log(`  component:   ${new URL('agentos-terminal.js', main)}  (README "Embedding")`);
for (const u of urls.slice(1)) console.log(`  also:        ${u}`);
console.log('  Ctrl-C to stop.');
console.log('');

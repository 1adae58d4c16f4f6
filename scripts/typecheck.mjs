#!/usr/bin/env node
// Typecheck every environment: the root tsconfig.json (everything, with DOM and
// Node types) and each layer's own tsconfig.json under src/ (src/kernel: no DOM,
// no Node; src/ui: no Node), found by name so a new layer's is checked too.
// The programs run at once (tsc is single-threaded); exit 1 if any fails.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

const layers = readdirSync(join(ROOT, 'src'), { recursive: true, withFileTypes: true })
  .filter((d) => d.isFile() && d.name === 'tsconfig.json')
  .map((d) => relative(ROOT, join(d.parentPath ?? d.path, d.name)))
  .sort();
const projects = ['tsconfig.json', ...layers];

function tsc(project) {
  return new Promise((done) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [TSC, '--noEmit', '-p', project], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => done({ project, code, out, seconds: (performance.now() - t0) / 1000 }));
  });
}

const results = await Promise.all(projects.map(tsc));
for (const r of results) {
  process.stdout.write(r.out);
  console.log(`typecheck: ${r.project} ${r.code === 0 ? 'ok' : 'FAILED'} (${r.seconds.toFixed(1)}s)`);
}
process.exit(results.every((r) => r.code === 0) ? 0 : 1);

// Build the Python runtime's host assets (decision 0015): Pyodide's files,
// copied from node_modules/pyodide into dist/pyodide/ (the Node host's
// workers load them from there; the browser build gets a copy under
// dist/web/pyodide/), and a memory snapshot of an initialised interpreter
// that every python3 process starts from. None of this goes into the base
// image. The snapshot (about 3 s to make) is remade only when Pyodide or the
// loader changes. `node scripts/build-python.mjs` runs it alone.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const ASSETS = ['pyodide.mjs', 'pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json'];

/** Copy the assets and make the snapshot if needed; returns whether the snapshot was remade. */
export async function buildPython(root) {
  const from = join(root, 'node_modules/pyodide');
  const out = join(root, 'dist/pyodide');
  mkdirSync(out, { recursive: true });
  for (const f of ASSETS) copyFileSync(join(from, f), join(out, f));

  // The snapshot holds the runtime's Python modules: any change under src/runtimes/python/ remakes it.
  const dir = join(root, 'src/runtimes/python');
  const h = createHash('sha256').update(JSON.parse(readFileSync(join(from, 'package.json'), 'utf8')).version);
  for (const f of readdirSync(dir).sort()) h.update(f).update(readFileSync(join(dir, f)));
  const key = h.digest('hex').slice(0, 16);
  const stamp = join(out, 'snapshot.key');
  if (existsSync(join(out, 'snapshot.bin')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === key) return false;

  // The loader is bundled beside the assets' parent, so its '../pyodide/' finds them as a worker's does.
  const tool = join(root, 'dist/tools/python-snapshot.js');
  await esbuild.build({
    entryPoints: [join(dir, 'snapshot.ts')], outfile: tool, bundle: true, platform: 'node', format: 'esm', target: 'node20',
    external: ['pyodide'], logLevel: 'warning', absWorkingDir: root,
  });
  const { makeSnapshot } = await import(pathToFileURL(tool).href);
  writeFileSync(join(out, 'snapshot.bin'), await makeSnapshot());
  writeFileSync(stamp, key);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const made = await buildPython(root);
  console.log(`build-python: assets -> dist/pyodide${made ? ' (snapshot made)' : ''}`);
}

// Installing the WASI packages built into dist/ (clang, ruby) into a VM, the
// way a user would: copy the package directory in, `agentos-software install`
// it. On the Node host the files come from dist/; in the browser harness from
// the page's server (dist/web/pkg/, linked to dist/ by the build).

import type { Machine } from '../../../src/host/machine.js';

type Files = [path: string, mode: number][];

/** Reads a file of dist/ by its path there (`ruby.files.json`, `ruby/libexec/ruby`). */
type Source = (path: string) => Promise<Uint8Array>;

async function source(): Promise<Source> {
  if (typeof document !== 'undefined') {
    return async (path) => {
      const r = await fetch(`/pkg/${path}`);
      if (!r.ok) throw new Error(`fetch /pkg/${path}: ${r.status}`);
      return new Uint8Array(await r.arrayBuffer());
    };
  }
  // Not a static import: the browser bundle must not see node:fs.
  const fs = 'node:fs/promises';
  const { readFile } = (await import(/* @vite-ignore */ fs)) as typeof import('node:fs/promises');
  // This file runs from dist/test/runtimes/wasm/.
  return async (path) => new Uint8Array(await readFile(new URL(`../../../${path}`, import.meta.url)));
}

/** Install dist/<name> into `m`; returns agentos-software's output. */
export async function installPackage(m: Machine, name: string): Promise<string> {
  const read = await source();
  const files = JSON.parse(new TextDecoder().decode(await read(`${name}.files.json`))) as Files;
  const dir = `/tmp/pkg-${name}`;
  for (const [path, mode] of files) {
    await m.mkdirp(`${dir}/${path}`.replace(/\/[^/]+$/, ''));
    await m.writeFile(`${dir}/${path}`, await read(`${name}/${path}`), mode);
  }
  const r = await m.run(['/opt/agentos/bin/agentos-software', 'install', dir]);
  const out = new TextDecoder().decode(r.stdout) + new TextDecoder().decode(r.stderr);
  if (r.exitCode !== 0) throw new Error(`agentos-software install ${name}: ${out}`);
  await m.run(['/bin/sh', '-c', `rm -rf ${dir}`]);
  return out;
}

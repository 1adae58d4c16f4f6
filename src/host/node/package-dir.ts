// Where an npm package a bundle loads at run time is installed.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The package the VM loads from node_modules at run time: WASIX programs' SDK (runtimes/wasm/wasix.ts). */
export const WASMER_SDK = '@wasmer/sdk/node';

/** The package directory of `spec` as resolved from the file `from`, or null when it is not installed. */
export function packageDir(spec: string, from: string): string | null {
  let file: string;
  try {
    file = createRequire(from).resolve(spec);
  } catch {
    return null;
  }
  const name = spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      if ((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name === name) return dir;
    } catch {
      // no package.json here
    }
  }
  return null;
}

// Made at build time (scripts/build-python.mjs): the memory of an initialised
// interpreter with the driver imported, which every python3 process starts from.

import { loadForSnapshot } from './engine.js';
import { installModules, PRELOAD } from './files.js';

export async function makeSnapshot(): Promise<Uint8Array> {
  const py = await loadForSnapshot();
  installModules(py);
  py.runPython(PRELOAD);
  return (py as unknown as { makeMemorySnapshot(): Uint8Array }).makeMemorySnapshot();
}

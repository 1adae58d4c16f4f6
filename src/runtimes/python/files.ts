// The runtime's own Python modules, written into an interpreter's in-memory
// site-packages (Emscripten's MEMFS is not part of the memory snapshot, so
// every interpreter gets them again; it costs a few writes).

import { DRIVER } from './driver.js';
import type { Pyodide } from './engine.js';
import { HTTP } from './http.js';
import { PIP } from './pip.js';
import { SOCKET_MODULE } from './socket-module.js';
import { THREADS } from './threads.js';

export function installModules(py: Pyodide): void {
  const site = (py as unknown as { _api: { sitePackages: string } })._api.sitePackages;
  const FS = py.FS;
  FS.writeFile(`${site}/_agentos_driver.py`, DRIVER);
  FS.writeFile(`${site}/_agentos_http.py`, HTTP);
  FS.writeFile(`${site}/_agentos_threads.py`, THREADS);
  FS.writeFile(`${site}/_agentos_socket.py`, SOCKET_MODULE);
  FS.mkdirTree(`${site}/pip`);
  FS.writeFile(`${site}/pip/__init__.py`, PIP);
  FS.writeFile(`${site}/pip/__main__.py`, 'import sys, pip\nsys.exit(pip.main(sys.argv[1:]))\n');
  FS.writeFile(`${site}/micropip.py`, 'from pip import micropip_install as install\n');
}

/** Run before the snapshot: the driver and what it imports are then in every process's interpreter from the start. */
export const PRELOAD = 'import importlib\nimportlib.import_module("_agentos_driver")\ndel importlib\n';

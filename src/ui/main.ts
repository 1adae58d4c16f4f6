// The playground page: boots a real kernel in a Web Worker and shows its live state.

import { boot } from '../host/browser/index.js';
import { StatusView } from './status-view.js';

const app = document.getElementById('app')!;
const t0 = performance.now();
boot().then(
  (machine) => new StatusView(app, machine, performance.now() - t0).start(),
  (e: unknown) => {
    app.className = 'error';
    app.textContent = `agentOS could not boot: ${(e as Error)?.message ?? e}`;
  },
);

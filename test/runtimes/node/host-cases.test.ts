// The cases the browser runs (cases.ts), on the Node host, each on a fresh machine.

import { test } from 'node:test';
import { boot } from '../../../src/host/node/index.js';
import { nodeCases } from './cases.js';

for (const c of nodeCases) {
  test(c.name, async () => {
    const m = await boot();
    try {
      await c.run(m);
    } finally {
      await m.stop();
    }
  });
}

// The kernel suite on the Node host: one fresh machine per case.

import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { boot } from '../../src/host/node/index.js';
import { cases, installPrograms, PROGRAMS } from './suite.js';

// This file runs from dist/test/kernel/; the guest programs are built into dist/programs/.
const programs = Object.fromEntries(
  PROGRAMS.map((name) => [name, readFileSync(new URL(`../../programs/${name}.js`, import.meta.url), 'utf8')]),
);

for (const c of cases) {
  test(`kernel (node): ${c.name}`, async () => {
    const m = await boot();
    try {
      await installPrograms(m, programs);
      await c.run(m);
    } finally {
      await m.stop();
    }
  });
}

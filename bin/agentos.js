#!/usr/bin/env node
// Entry for the `agentos` command: the CLI is built into dist/node by `npm run build`.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/node/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('agentos: not built yet; run `npm run build` first\n');
  process.exit(1);
}
await import(cli.href);

// Prints the VFS case table as JSON, for linux-oracle.py (and any other host).
// Run: npx esbuild --bundle --platform=node --format=esm test/kernel/oracle/dump-cases.ts | node --input-type=module

import { cases } from '../vfs-cases.js';

process.stdout.write(JSON.stringify(cases));

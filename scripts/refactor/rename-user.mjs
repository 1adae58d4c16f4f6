#!/usr/bin/env node
// src/user (the syscall library processes link against: libc) becomes
// src/libc, so it cannot be confused with src/userland (the command library).
// Re-runnable; see lib.mjs. `--dry-run` lists the moves only.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyMoves } from './lib.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
applyMoves(ROOT, [['src/user', 'src/libc']], {
  dryRun: process.argv.includes('--dry-run'),
  keep: ['docs/decisions/0050-tests-tree-and-names.md'],
});

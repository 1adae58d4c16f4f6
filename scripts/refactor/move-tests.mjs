#!/usr/bin/env node
// The test tree mirrors src/: the tests of src/<layer>/<path> live in
// test/<layer>/<path>; a package's tests (src/packages/<pkg>/programs/) in
// test/packages/<pkg>/. Suites that span layers keep named folders: security,
// tasks, programs (guest test programs), infra (the build), and
// packages/differential (every command against the GNU tools). Re-runnable;
// see lib.mjs. `--dry-run` lists the moves only.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyMoves } from './lib.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MOVES = [
  // The kernel's parts.
  ['test/vfs', 'test/kernel/vfs'],
  ['test/persist', 'test/kernel/persist'],
  ['test/policy/cli.test.ts', 'test/cli/policy-flags.test.ts'],
  ['test/policy', 'test/kernel/policy'],
  ['test/net/curl-diff.test.ts', 'test/packages/curl/curl-diff.test.ts'],
  ['test/net', 'test/kernel/net'],
  // Commands: one folder per package.
  ['test/userland/diff', 'test/packages/differential'],
  ['test/userland/tools/tools.test.ts', 'test/packages/differential/tools.test.ts'],
  ['test/userland/tools/watch.test.ts', 'test/packages/procps/watch.test.ts'],
  ['test/userland/tz/tz.test.ts', 'test/userland/lib/tz.test.ts'],
  ['test/userland/archives/archives.test.ts', 'test/packages/tar/archives.test.ts'],
  ['test/userland/compress/bzip2.test.ts', 'test/packages/bzip2/bzip2.test.ts'],
  ['test/userland/compress/xz.test.ts', 'test/packages/xz/xz.test.ts'],
  ['test/userland/compress/inflate-contract.test.ts', 'test/packages/gzip/inflate-contract.test.ts'],
  ['test/userland/extras', 'test/packages/coreutils'],
  ['test/userland/oracle.ts', 'test/packages/oracle.ts'],
  ...['awk', 'bc', 'findutils', 'git', 'grep', 'jq', 'less', 'make', 'man', 'openssl', 'procps', 'sed', 'sqlite3', 'vi', 'yq'].map(
    (pkg) => [`test/userland/${pkg}`, `test/packages/${pkg}`],
  ),
];
applyMoves(ROOT, MOVES, {
  dryRun: process.argv.includes('--dry-run'),
  keep: ['docs/decisions/0050-tests-tree-and-names.md'],
});

// Keeps the VFS errno table honest: re-run every case on the real Linux kernel
// of this machine (test/kernel/oracle/linux-oracle.py) and require agreement.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const script = fileURLToPath(new URL('../../../test/kernel/oracle/linux-oracle.py', import.meta.url));
const hasPython = spawnSync('python3', ['--version']).status === 0;

test('the VFS errno table agrees with Linux', { skip: process.platform !== 'linux' || !hasPython ? 'needs Linux and python3' : false }, () => {
  const r = spawnSync('python3', [script], { encoding: 'utf8', timeout: 120_000 });
  const summary = r.stdout.trim().split('\n').pop() ?? '';
  assert.equal(r.status, 0, `oracle reported mismatches:\n${r.stdout}\n${r.stderr}`);
  assert.match(summary, /^\d+ cases run on Linux .*, 0 mismatches/);
});

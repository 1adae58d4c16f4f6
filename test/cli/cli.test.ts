// The `agentos` CLI exactly as the README documents it, from the package root.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

// This file runs from dist/test/cli/.
const cli = fileURLToPath(new URL('../../../bin/agentos.js', import.meta.url));
const agentos = (args: string[], input?: string) =>
  spawnSync(process.execPath, [cli, ...args], { input: input ?? '', encoding: 'utf8', timeout: 60_000 });

test('agentos exec passes stdout, stderr and the exit status through unchanged', () => {
  const r = agentos(['exec', '--', 'echo out; printf err >&2; exit 3']);
  assert.deepEqual([r.stdout, r.stderr, r.status], ['out\n', 'err', 3]);
});

test('agentos exec --json prints one object', () => {
  const r = agentos(['exec', '--json', '--', 'echo hi; echo oops >&2; false']);
  assert.equal(r.status, 1);
  assert.deepEqual(JSON.parse(r.stdout), { stdout: 'hi\n', stderr: 'oops\n', exitCode: 1, timedOut: false, truncated: false });
});

test('agentos exec: stdin is /dev/null unless -i forwards it', () => {
  assert.equal(agentos(['exec', '--', 'read x; echo "[$x]"'], 'data\n').stdout, '[]\n');
  assert.equal(agentos(['exec', '-i', '--', 'read x; echo "[$x]"'], 'data\n').stdout, '[data]\n');
});

test('agentos exec --cwd, --env and --timeout', () => {
  const r = agentos(['exec', '--cwd', '/tmp', '--env', 'A=1', '--', 'pwd; echo $A']);
  assert.equal(r.stdout, '/tmp\n1\n');
  const t = agentos(['exec', '--timeout', '0.5', '--', 'while :; do :; done']);
  assert.equal(t.status, 124);
});

test('agentos exec --state and agentos snapshot: a persistent VM across processes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentos-cli-'));
  const state = join(dir, 'vm');
  try {
    assert.equal(agentos(['exec', '--state', state, '--', 'echo kept > note']).status, 0);
    assert.equal(agentos(['exec', '--state', state, '--', 'cat note']).stdout, 'kept\n');
    assert.equal(agentos(['snapshot', '--state', state, 'create', 's1']).status, 0);
    assert.equal(agentos(['exec', '--state', state, '--', 'rm note']).status, 0);
    assert.match(agentos(['snapshot', '--state', state, 'list']).stdout, /^s1\t\d+\t/);
    assert.equal(agentos(['snapshot', '--state', state, 'restore', 's1']).status, 0);
    assert.equal(agentos(['exec', '--state', state, '--', 'cat note']).stdout, 'kept\n');
    const bad = agentos(['snapshot', '--state', state, 'restore', 'nope']);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /no snapshot 'nope'/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('agentos exec refuses bad usage clearly', () => {
  const u = agentos(['exec']);
  assert.equal(u.status, 2);
  assert.match(u.stderr, /missing SCRIPT/);
});

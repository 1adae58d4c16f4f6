// The Python runtime on the Node host: the shared cases (also run in Chromium
// by e2e/python.spec.ts), the command-line parser, and the interpreter start
// reuse (a fresh interpreter per process, prepared while the worker idles).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boot } from '../../../src/host/node/index.js';
import { parseArgs, UsageError } from '../../../src/runtimes/python/args.js';
import { pythonCases } from './cases.js';

/** A case that makes no progress for a minute is a hang, reported as one rather than left to the runner's timeout. */
const HANG_MS = 60_000;

for (const c of pythonCases) {
  test(`${c.name} (node)`, async () => {
    const m = await boot();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const hung = new Promise<never>((_, fail) => (timer = setTimeout(() => fail(new Error(`no progress for ${HANG_MS} ms`)), HANG_MS)));
      await Promise.race([c.run(m), hung]);
    } finally {
      clearTimeout(timer);
      await m.stop();
    }
  });
}

test('command line: options end at -c, -m, a script or -, as CPython parses them', () => {
  assert.deepEqual(parseArgs(['-c', 'pass', 'a', '-u'], false), {
    mode: 'c', target: 'pass', argv: ['-c', 'a', '-u'], inspect: false, quiet: false, unbuffered: false, noBytecode: false,
  });
  assert.equal(parseArgs(['-uc', 'pass'], false).unbuffered, true);
  assert.equal(parseArgs(['-Bc', 'pass'], false).noBytecode, true);
  assert.deepEqual(parseArgs(['-m', 'json.tool', 'f'], false).argv, ['-m', 'f']);
  assert.deepEqual(parseArgs(['-W', 'ignore', 's.py', '-c'], false).argv, ['s.py', '-c']);
  assert.equal(parseArgs([], true).mode, 'repl');
  assert.equal(parseArgs([], false).mode, 'stdin');
  assert.equal(parseArgs(['-i'], false).mode, 'repl');
  assert.deepEqual(parseArgs(['-', 'x'], false).argv, ['-', 'x']);
  assert.equal(parseArgs(['-V'], false).info, 'version');
  assert.equal(parseArgs(['--help'], false).info, 'help');
  assert.throws(() => parseArgs(['-c'], false), UsageError);
  assert.throws(() => parseArgs(['-Z'], false), UsageError);
});

test('warm start: a python3 after an idle pause starts from the interpreter prepared meanwhile', async () => {
  const m = await boot();
  try {
    const once = async () => {
      const t0 = performance.now();
      const r = await m.run(['/opt/agentos/bin/python3', '-c', 'import sys; print(len(sys.argv))']);
      assert.equal(new TextDecoder().decode(r.stdout), '1\n');
      return performance.now() - t0;
    };
    const first = await once();
    await new Promise((r) => setTimeout(r, 1500));
    const warm = await once();
    assert.ok(warm < first / 3, `warm ${warm.toFixed(0)} ms vs first ${first.toFixed(0)} ms`);
  } finally {
    await m.stop();
  }
});

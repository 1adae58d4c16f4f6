// Guest output goes to the process's own fds, never to the host's (issue 14,
// item 2): the real CLI runs a guest program per route (test/security/
// console-routes.ts: console methods, Node's console internals, warnings,
// uncaught errors and rejections, timers that outlive the program, Python
// through Pyodide's proxies) and the host process's stdout and stderr are
// checked byte for byte.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseReport, routes, routesScript, type RouteResult } from './console-routes.js';

// This file runs from dist/test/security/.
const cli = fileURLToPath(new URL('../../../bin/agentos.js', import.meta.url));

let host: { stdout: string; stderr: string; status: number | null };
let report: Record<string, RouteResult> = {};

before(() => {
  const r = spawnSync(process.execPath, [cli, 'exec', '--', routesScript()], { encoding: 'utf8', timeout: 120_000 });
  host = { stdout: r.stdout, stderr: r.stderr, status: r.status };
  // Leaked lines may come before or after it: the report is the line that parses as one.
  for (const line of r.stdout.split('\n')) {
    try {
      const parsed = parseReport(line);
      if ('js-log' in parsed) report = parsed;
    } catch {
      // not the report; the first test says what the host printed
    }
  }
});

test('agentos exec: the host prints the script\'s output and nothing else', () => {
  assert.equal(host.status, 0, host.stderr);
  assert.equal(host.stderr, '', 'nothing on the host\'s stderr');
  assert.equal(host.stdout.split('\n').length, 2, `one line on the host's stdout (the report), got:\n${host.stdout.slice(0, 2000)}`);
  assert.deepEqual(Object.keys(report).sort(), routes.map((r) => r.name).sort());
});

test('js-deprecation, node-deprecation: the warnings Node prints itself stay off the host', () => {
  assert.doesNotMatch(host.stderr, /DEP0005|DeprecationWarning/);
  for (const name of ['js-deprecation', 'node-deprecation']) assert.equal(report[name]?.status, 0, name);
});

for (const route of routes) {
  const where = route.to === 'none' ? 'nowhere' : `the process's ${route.to}`;
  test(`${route.name}: ${where}, never the host's stdout or stderr`, () => {
    const marker = `LEAK-${route.name}`;
    assert.ok(!host.stdout.includes(marker), `${marker} on the host's stdout`);
    assert.ok(!host.stderr.includes(marker), `${marker} on the host's stderr`);
    const got = report[route.name];
    assert.ok(got, `${route.name} ran`);
    assert.equal(got.status, route.status ?? 0, `exit status; stderr: ${got.stderr}`);
    assert.equal(got.stdout.includes(marker), route.to === 'stdout', `stdout: ${got.stdout}`);
    assert.equal(got.stderr.includes(marker), route.to === 'stderr', `stderr: ${got.stderr}`);
  });
}

// The layer rule's checker (scripts/check-layers.mjs) against the real table in
// docs/architecture.md: the crossings it exists to catch are reported, and what
// the table allows is not. (The "layers" stage of npm test runs it on the tree.)
import assert from 'node:assert/strict';
import { test } from 'node:test';

interface Checker {
  repository(): { rows: unknown[]; files: string[] };
  readSource(file: string): string;
  check(rows: unknown[], files: string[], read: (file: string) => string): { problems: string[]; imports: number };
}

// This file runs as dist/test/infra/layers.test.js; a runtime URL keeps the script out of the bundle.
const script = new URL('../../../scripts/check-layers.mjs', import.meta.url).href;
const { repository, readSource, check } = (await import(script)) as Checker;

/** The problems the real tree has with `extra` (path → source) added. */
function problemsWith(extra: Record<string, string>): string[] {
  const { rows, files } = repository();
  return check(rows, [...files, ...Object.keys(extra)], (f) => extra[f] ?? readSource(f)).problems;
}

test('a kernel file importing node:fs is a crossing', () => {
  const problems = problemsWith({ 'src/kernel/leak.ts': "import { readFileSync } from 'node:fs';\n" });
  assert.equal(problems.length, 1, problems.join('\n'));
  assert.match(problems[0], /^src\/kernel\/leak\.ts: imports 'node:fs' = node:fs; layer 'kernel' may import src\/abi\/, src\/api\//);
});

test('a UI file importing the kernel is a crossing, type-only imports too', () => {
  const problems = problemsWith({
    'src/ui/leak.ts': "import type { Kernel } from '../kernel/kernel.js';\nimport { Errno } from '../abi/errno.js';\n",
  });
  assert.equal(problems.length, 1, problems.join('\n'));
  assert.match(problems[0], /^src\/ui\/leak\.ts: imports '\.\.\/kernel\/kernel\.js' = src\/kernel\/kernel\.ts \(layer 'kernel'\); layer 'UI'/);
});

test('a Node built-in in the UI and a package the table does not list are crossings', () => {
  const problems = problemsWith({ 'src/ui/leak.ts': "const fs = await import('node:fs');\nimport 'comlink';\n" });
  assert.equal(problems.length, 2, problems.join('\n'));
});

test('a file no row of the table covers is reported', () => {
  const problems = problemsWith({ 'src/elsewhere/x.ts': 'export {};\n' });
  assert.deepEqual(problems.length, 1, problems.join('\n'));
  assert.match(problems[0], /^src\/elsewhere\/x\.ts: in no layer/);
});

test('what the table allows passes: the UI on the host and the public API, a listed exception', () => {
  const problems = problemsWith({
    'src/ui/fine.ts': "import type { Policy } from '../api/policy.js';\nimport { boot } from '../host/browser/index.js';\nimport '@xterm/xterm';\n",
    'workers/fine.ts': "import type { WorkerPort } from '../src/kernel/runner.js';\n",
  });
  assert.deepEqual(problems, []);
});

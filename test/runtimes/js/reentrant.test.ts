// A reentrant program (api.ts `reuse`): the js runtime runs the next process
// of the same file in a worker from the main it kept, without evaluating the
// program's top level again (decision 0088). Its modules must keep nothing
// from one process for the next: the source check below fails when a module
// of the coreutils bundle gains module-level state not reviewed here.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AgentVM } from '../../../src/host/node/index.js';

const SRC = fileURLToPath(new URL('../../../../src/', import.meta.url));

/** Module-level state in the bundle's modules, each with why it cannot carry anything from one process to the next. */
const REVIEWED: Record<string, string> = {
  'common/digest.ts: let SHA256': 'a constant table, computed on first use',
  'common/digest.ts: let K512': 'a constant table, computed on first use',
  'packages/coreutils/programs/sort-prep.ts: let parsed': "parseNum's result, set before every read",
  'userland/lib/quote.ts: let utf8': "set by every Cmd from its process's environment before any quoting",
  'userland/lib/tz.ts: const zones': 'by TZ string, of which a zone is a pure function',
  'userland/lib/users.ts: const caches': "a WeakMap by the process's Sys",
  'userland/lib/utf8.ts: const upperCache': 'case mappings by code point: pure',
  'userland/lib/utf8.ts: const lowerCache': 'case mappings by code point: pure',
};

/** The modules the bundle's entry reaches by relative imports, static and dynamic (type-only ones are not in the bundle). */
function bundleModules(entry: string): string[] {
  const seen = new Set<string>();
  const IMPORT = /^(?:import|export)\s+(type\s+)?[^;]*?from\s+'(\.[^']+)\.js'|import\('(\.[^']+)\.js'\)/gm;
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      if (!m[1]) walk(resolve(dirname(file), `${m[2] ?? m[3]}.ts`));
    }
  };
  walk(join(SRC, entry));
  return [...seen].sort();
}

/** Top-level `let`/`var`, empty containers (caches) and mutable static fields: what can hold a process's leftovers. */
const STATE = [
  /^(?:export )?(let|var) (\w+)/,
  /^(?:export )?(const) (\w+)(?::[^=]+)? = (?:new (?:Map|Set|WeakMap|WeakSet|Array)\b[^(]*\(\)|\[\]|\{\})/,
  /^\s+(static) (?!readonly)(\w+)\s*[=:]/,
];

test('the coreutils bundle keeps no module-level state that was not reviewed for reuse across processes', () => {
  const modules = bundleModules('packages/coreutils/programs/coreutils.ts');
  assert.ok(modules.length > 50, `followed the imports (${modules.length} modules)`);
  const found: string[] = [];
  for (const file of modules) {
    const rel = file.slice(SRC.length);
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      for (const re of STATE) {
        const m = re.exec(line);
        if (m) found.push(`${rel}: ${m[1]} ${m[2]}`);
      }
    }
  }
  assert.deepEqual(found.filter((f) => !(f in REVIEWED)), [], 'new module state: make it per process, or review it and add it here');
});

let vm: AgentVM;
before(async () => {
  vm = new AgentVM();
  await vm.start();
});
after(() => vm.stop());

/** More sequential runs than the pool has workers: some worker runs the program twice. */
const RUNS = 16;

test('a program that keeps its main runs it again without its top level; another file is another program', async () => {
  const body = 'let runs = 0; const main = (a) => a.print(`${++runs}\\n`); agentos.reuse(main); return main(agentos);';
  await vm.writeFile('/tmp/counter', `#!/usr/libexec/agentos/js\n${body}\n`);
  const r = await vm.exec(`chmod 755 /tmp/counter; cp /tmp/counter /tmp/counter2; for i in $(seq ${RUNS}); do /tmp/counter; done; /tmp/counter2`);
  assert.equal(r.exitCode, 0, r.stderr);
  const counts = r.stdout.trim().split('\n').map(Number);
  assert.equal(counts.length, RUNS + 1);
  assert.ok(Math.max(...counts.slice(0, RUNS)) >= 2, `a worker ran the kept main: ${counts}`);
  assert.equal(counts[RUNS], 1, 'a copy (another inode) is evaluated afresh');
});

test('coreutils programs give the same output run after run in the same workers', async () => {
  const r = await vm.exec(`for i in $(seq ${RUNS}); do echo hi | wc -c; printf 'b\\na\\n' | sort | tr -d '\\n'; echo; done`);
  assert.equal(r.stdout, '3\nab\n'.repeat(RUNS), r.stderr);
});

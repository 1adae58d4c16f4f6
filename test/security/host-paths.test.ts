// No host path in anything a guest can see (issue 14, item 16): failing
// programs in every runtime — uncaught errors, stack traces read by the
// program, V8's call-site API, errors from runtime code, Python tracebacks
// through Pyodide's JavaScript, WASI and WASIX failures — and all their output
// is searched for the host's build directory and for file: URLs. Where a
// stack shows the runtime's own frames, they must still be there, renamed.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AgentVM } from '../../src/host/node/index.js';

// This file runs from dist/test/security/: three levels below the checkout.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');
const wasix = readFileSync(new URL('../../wasm/wasix.wasm', import.meta.url));

/** A command whose _start traps (unreachable); a WASIX one when it imports wasix_32v1.thread_id. */
function trapModule(wasix: boolean): Uint8Array {
  const section = (id: number, bytes: number[]) => [id, bytes.length, ...bytes];
  const name = (t: string) => [t.length, ...new TextEncoder().encode(t)];
  const start = wasix ? 1 : 0; // functions are numbered after the imports
  return new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, [2, 0x60, 0, 0, 0x60, 1, 0x7f, 1, 0x7f]),
    ...(wasix ? section(2, [1, ...name('wasix_32v1'), ...name('thread_id'), 0, 1]) : []),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, 1]),
    ...section(7, [2, ...name('_start'), 0, start, ...name('memory'), 2, 0]),
    ...section(10, [1, 3, 0, 0, 0x0b]),
  ]);
}

let vm: AgentVM;

before(async () => {
  vm = new AgentVM();
  await vm.start();
  await vm.writeFile('/tmp/wasix', new Uint8Array(wasix), 0o755);
  await vm.writeFile('/tmp/bad.wasm', new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 0xff, 0xff]), 0o755);
  await vm.writeFile('/tmp/trap.wasm', trapModule(false), 0o755);
  await vm.writeFile('/tmp/trap-wasix.wasm', trapModule(true), 0o755);
});

after(async () => {
  await vm.stop();
});

const js = (body: string) => `#!/usr/libexec/agentos/js\n${body}\n`;
const node = (body: string) => `#!/usr/bin/node\n${body}\n`;
// Python reaches the worker's realm only by the route that stays open by design (decision 0026).
const py = (body: string) =>
  `#!/usr/bin/env python3\nimport _imp, importlib.machinery as im\nJS = _imp.create_builtin(im.ModuleSpec('_pyodide_core', im.BuiltinImporter)).to_js({}).constructor.constructor\n${body}\n`;
/** A guest's own prepareStackTrace: everything V8's call-site API tells about each frame. */
const CALL_SITES = `Error.prepareStackTrace = (e, sites) => sites.map((s) => [s.getFileName(), s.getScriptNameOrSourceURL(), s.getEvalOrigin(),
  String(s), typeof s.getFunction(), typeof s.getThis()].join(' | ')).join('\\n');`;
/** Workers are pooled: a program that installs a hook takes it away again, so the next program is not formatted by it. */
const UNHOOK = 'Error.prepareStackTrace = undefined;';

/** name → [program, whether its output must still show a runtime frame (so the test sees stacks at all)]. */
const PROGRAMS: Record<string, [string, boolean?]> = {
  'js: uncaught error': [js("throw new Error('boom');"), true],
  'js: new Error().stack': [js('agentos.print(new Error().stack);'), true],
  'js: stack of an error from runtime code': [js("try { agentos.sys.open('/nope'); } catch (e) { agentos.print(e.stack); }"), true],
  'js: the call-site API': [js(`${CALL_SITES}\nagentos.print(new Error().stack);\n${UNHOOK}`), true],
  'js: the call-site API through a replaced Error': [js(`const E = Error;
try { globalThis.Error = { prepareStackTrace: (e, s) => s.map((c) => c.getFileName()).join('\\n') }; } catch {}
agentos.print(new E('x').stack);
try { globalThis.Error = E; } catch {}`), true],
  'js: the call-site API, hook saved and restored': [js(`const saved = Error.prepareStackTrace;
Error.prepareStackTrace = (e, s) => s;
const sites = new Error().stack;
Error.prepareStackTrace = saved;
agentos.print(sites.map((s) => s.getFileName()).join('\\n') + '\\n' + new Error('after').stack);`), true],
  'js: Error.captureStackTrace': [js('const o = {}; Error.captureStackTrace(o); agentos.print(o.stack);'), true],
  'js: a stack from a timer and after await': [js("await null; agentos.print(new Error('a').stack);\nawait new Promise((ok) => setTimeout(() => { agentos.print(new Error('t').stack); ok(); }));")],
  'js: eval and Function': [js("agentos.print((0, eval)('new Error().stack') + Function('return new Error().stack')());")],
  'js: import() refused': [js("try { await import('node:fs'); } catch (e) { agentos.print(e.stack); }")],
  'js: console.trace': [js("console.trace('here');"), true],
  'js: a syntax error': [js('let = ;')],
  'js: an unhandled rejection': [js("Promise.reject(new Error('r')); await new Promise((ok) => setTimeout(ok, 20));"), true],
  'node: uncaught error': [node("throw new Error('boom');")],
  'node: new Error().stack': [node('console.log(new Error().stack);')],
  'node: the call-site API': [node(`${CALL_SITES}\nconsole.log(new Error().stack);\n${UNHOOK}`), true],
  'node: require of a missing module': [node("require('nonexistent');")],
  'node: fs error': [node("require('fs').readFileSync('/nope');")],
  'node: an error of a real Node API': [node('Buffer.from({});')],
  'node: an invalid URL': [node("new URL('nope');")],
  'node: unhandled error event': [node("new (require('events'))().emit('error', new Error('e'));")],
  'node: unhandled rejection': [node("Promise.reject(new Error('r'));")],
  'node: util.inspect of an error': [node("console.log(require('util').inspect(new Error('i')));")],
  'node: __filename, module paths, process.argv': [node('console.log(__filename, module.paths, process.argv, process.execPath, require.resolve.paths("x"));')],
  'python: uncaught exception': ['#!/usr/bin/env python3\nraise Exception("boom")\n'],
  'python: a missing module': ['#!/usr/bin/env python3\nimport nosuchmodule\n'],
  'python: a JavaScript stack read from Python': [py('print(JS("return new Error(\'x\').stack")())'), true],
  'python: a JavaScript error raised into Python': [py('JS("null.x")()')],
  'python: a traceback through JavaScript frames': [py('import traceback\ntry:\n    JS("throw new Error(\'deep\')")()\nexcept Exception as e:\n    traceback.print_exc()\n    print(repr(e), e.args)')],
  'wasm: an invalid module': ['/tmp/bad.wasm'],
  'wasm: a trap': ['/tmp/trap.wasm'],
  'wasix: a trap': ['/tmp/trap-wasix.wasm'],
  'wasix: a run': ['cd /tmp && echo hi > in.txt && /tmp/wasix a b < /dev/null'],
  'wasix: a failing run': ['mkdir -p /tmp/empty && cd /tmp/empty && /tmp/wasix < /dev/null'],
};

let n = 0;
for (const [name, [program, frames]] of Object.entries(PROGRAMS)) {
  test(`${name}: no host path in what the guest sees`, async () => {
    let command = program;
    if (program.startsWith('#!')) {
      const file = `/tmp/prog${n++}`;
      await vm.writeFile(file, program, 0o755);
      command = file;
    }
    const r = await vm.exec(`${command} 2>&1`);
    const seen = r.stdout + r.stderr;
    assert.ok(!seen.includes(ROOT), `the build directory ${ROOT} in:\n${seen}`);
    assert.ok(!seen.includes('file://'), `a file: URL in:\n${seen}`);
    if (frames) assert.match(seen, /agentos:[\w.-]+\.m?js:\d+:\d+/, `runtime frames still shown, renamed:\n${seen}`);
  });
}

test('guest frames keep their VM paths, node_modules of the VM included', async () => {
  await vm.exec('mkdir -p /tmp/nm/node_modules/dep');
  await vm.writeFile('/tmp/nm/node_modules/dep/index.js', 'module.exports = () => new Error("dep").stack;\n');
  await vm.writeFile('/tmp/nm/main.js', 'console.log(require("dep")());\n');
  const r = await vm.exec('node /tmp/nm/main.js');
  assert.match(r.stdout, /at .*\/tmp\/nm\/node_modules\/dep\/index\.js:1:\d+/, r.stdout + r.stderr);
  assert.match(r.stdout, /at .*\/tmp\/nm\/main\.js:1:\d+/);
});

// The Node process worker's code is one classic script run through node:vm
// from V8's code cache (decision 0087): a strict function handed the real
// `require`, the script's URL and the entry's own import(). A hostile guest
// that knows this tries to reach them — by name, through callers of its own
// sloppy functions, through call sites, through import() from code it makes
// — and a corrupt cache must cost a compile, never the host's process.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AgentVM } from '../../src/host/node/index.js';

// This file runs from dist/test/security/: the process worker's files are in dist/node/.
const NODE_DIR = fileURLToPath(new URL('../../node/', import.meta.url));

let vm: AgentVM;

before(async () => {
  vm = new AgentVM();
  await vm.start();
});

after(async () => {
  await vm.stop();
});

/** What the guest finds, one line per probe (the same probes in the js runtime and in a `node` script). */
const PROBES = `
const out = [];
const seen = (name, f) => { try { out.push('@ ' + name + ': ' + f()); } catch (e) { out.push('@ ' + name + ': threw'); } };
// The wrapper's parameters and the loader's names.
for (const n of ['require', 'module', 'exports', '__agentos_import', '__agentos_import_meta_url', '__filename', '__dirname']) {
  seen(n, () => eval('typeof ' + n));
}
seen('globals', () => Object.getOwnPropertyNames(globalThis).filter((n) => /agentos|import|require|script|cache/i.test(n)).join(',') || 'none');
// A sloppy function of the guest's, called back by runtime code: its caller would be the runtime's function.
const callers = [];
const probe = Function('rec', 'return function probe() { rec.push(probe.caller, arguments.callee.caller); return "/x"; }')(callers);
try { String({ toString: probe }); } catch {}
try { CALL({ toString: probe }); } catch {}
try { console.log({ get x() { return probe(); } }); } catch {}
await new Promise((ok) => { setTimeout(() => { probe(); ok(); }, 0); });
seen('callers', () => callers.filter(Boolean).length);
// Call sites of runtime frames, through the guest's own prepareStackTrace.
const sites = [];
const hook = (e, s) => { for (const c of s) if (!/\\/tmp\\/|anonymous/.test(String(c.getFileName()))) sites.push(c.getFunction(), c.getThis()); return ''; };
const saved = Error.prepareStackTrace;
Error.prepareStackTrace = hook;
const grab = Function('return function grab() { return new Error().stack; }')();
try { CALL({ toString() { grab(); return '/x'; } }); } catch {}
try { console.log({ get x() { grab(); return 1; } }); } catch {}
await new Promise((ok) => { setTimeout(() => { grab(); ok(); }, 0); });
Error.prepareStackTrace = saved;
seen('runtime functions', () => sites.filter((v) => v !== undefined && v !== globalThis).length);
// import() of a host module from code the guest makes every way it can.
const tries = {
  eval: () => eval('import("node:child_process")'),
  'indirect eval': () => (0, eval)('import("node:child_process")'),
  'eval called by a builtin': () => ['import("node:child_process")'].map(eval)[0],
  Function: () => Function('return import("node:child_process")')(),
  AsyncFunction: () => (async () => {}).constructor('return import("node:child_process")')(),
};
for (const [k, f] of Object.entries(tries)) {
  let got;
  try { got = typeof (await f()).spawnSync === 'function' ? 'host module' : 'no host module'; } catch { got = 'refused'; }
  out.push('@ import() through ' + k + ': ' + (got === 'host module' ? got : 'no host module'));
}
`;

/** `own`: what a CommonJS module of the node runtime has of its own (require, module, exports, __filename, __dirname). */
const expected = (own: boolean) => [
  `require: ${own ? 'function' : 'undefined'}`, `module: ${own ? 'object' : 'undefined'}`, `exports: ${own ? 'object' : 'undefined'}`,
  '__agentos_import: undefined', '__agentos_import_meta_url: undefined',
  `__filename: ${own ? 'string' : 'undefined'}`, `__dirname: ${own ? 'string' : 'undefined'}`, 'globals: none', 'callers: 0', 'runtime functions: 0',
  'import() through eval: no host module', 'import() through indirect eval: no host module',
  'import() through eval called by a builtin: no host module', 'import() through Function: no host module',
  'import() through AsyncFunction: no host module',
];

/** A VM of its own, for a test that leaves its pooled workers poisoned (the next test's poison would stack on it). */
async function ownVm<T>(f: (v: AgentVM) => Promise<T>): Promise<T> {
  const v = new AgentVM();
  await v.start();
  try {
    return await f(v);
  } finally {
    await v.stop();
  }
}

const probed = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('@ ')).map((l) => l.slice(2));

test('a js program reaches none of what the worker script is given: require, import(), its URL, its functions', async () => {
  const body = PROBES.replace(/CALL\(/g, 'agentos.sys.open(').replace(/console\.log/g, 'agentos.print');
  await vm.writeFile('/tmp/ps.js', `#!/usr/libexec/agentos/js\n${body}\nagentos.print(out.join('\\n') + '\\n');\n`, 0o755);
  const r = await vm.exec('/tmp/ps.js 2>/dev/null');
  assert.deepEqual(probed(r.stdout), expected(false));
});

test('a node script reaches none of what the worker script is given (its require, module and file names are its own)', async () => {
  const body = PROBES.replace(/CALL\(/g, "require('fs').openSync(");
  // Strict, so that only the probe is sloppy (its caller is then the runtime's function or null, not the guest's own).
  await vm.writeFile('/tmp/ps.cjs', `'use strict';\n(async () => {\n${body}\nprocess.stdout.write(out.join('\\n') + '\\n');\n})();\n`);
  // A sloppy module's own function: its caller is the runtime's module loader.
  await vm.writeFile('/tmp/sloppy.cjs', 'module.exports = [arguments.callee.caller];\n');
  const r = await vm.exec("node /tmp/ps.cjs 2>/dev/null; node -e 'console.log(\"@ loader: \" + require(\"/tmp/sloppy.cjs\").filter(Boolean).length)'");
  assert.deepEqual(probed(r.stdout), [...expected(true), 'loader: 0']);
});

test("a program that poisons its pooled worker's URL cannot make a later runtime import a module of its choosing", async () => {
  // Pyodide's browser loader imports `base + 'pyodide.mjs'`; a replaced URL turns the Node base into a data:
  // module that writes a host file. The next python3 claims the idle worker the program left (the most recent).
  const dir = mkdtempSync(join(tmpdir(), 'agentos-import-'));
  const mark = join(dir, 'reached');
  try {
    const payload = `import('node:fs').then((fs) => fs.writeFileSync(${JSON.stringify(mark)}, 'host'))`;
    await ownVm(async (vm) => {
      await vm.writeFile('/tmp/poison.js', `#!/usr/libexec/agentos/js
const Real = URL;
globalThis.URL = class extends Real {
  get href() { const h = super.href; return /pyodide\\/$/.test(h) ? 'data:text/javascript,' + encodeURIComponent(${JSON.stringify(payload)}) + '//' : h; }
};\n`, 0o755);
      const r = await vm.exec("for i in 1 2 3; do /tmp/poison.js; python3 -c 'print(1)' >/dev/null 2>&1; done; echo done");
      assert.equal(r.stdout, 'done\n');
      assert.equal(existsSync(mark), false, 'the data: module ran in the host');
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a program that poisons its pooled worker's URL cannot make a later python3 read a host file as Pyodide's", async () => {
  // On Node the runtime reads Pyodide's files from the host; a replaced URL once pointed it at any directory,
  // and the error for a lock file that is not JSON quoted the file.
  const dir = mkdtempSync(join(tmpdir(), 'agentos-assets-'));
  writeFileSync(join(dir, 'pyodide-lock.json'), 'host secret 7f3a');
  try {
    await ownVm(async (vm) => {
      await vm.writeFile('/tmp/poison-assets.js', `#!/usr/libexec/agentos/js
const Real = URL;
globalThis.URL = class extends Real {
  get href() { const h = super.href; return /pyodide\\/$/.test(h) ? ${JSON.stringify(`file://${dir}/`)} : h; }
};\n`, 0o755);
      const r = await vm.exec("for i in 1 2 3; do /tmp/poison-assets.js; python3 -c 'print(1)' 2>&1; done");
      assert.doesNotMatch(r.stdout, /host secret/);
      assert.equal(r.stdout, '1\n1\n1\n');
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a program that replaces URL or the checks of agentos.repository reads no host file through it', async () => {
  // The repository is read on the host (dist/ on Node) by runtime code in the program's realm: a replaced URL
  // once turned a listed file into any file: URL, a replaced Array.prototype.some let `../` paths through.
  const dir = mkdtempSync(join(tmpdir(), 'agentos-repo-'));
  const secret = join(dir, 'secret');
  writeFileSync(secret, 'host secret 7f3a');
  try {
    await vm.writeFile('/tmp/steal.js', `#!/usr/libexec/agentos/js
const [pkg] = await agentos.repository.index();
const [[file]] = await agentos.repository.files(pkg.name);
const got = [];
const attempt = async (how, f) => { try { got.push(how + ': ' + new TextDecoder().decode(await f())); } catch (e) { got.push(how + ': refused'); } };
const Real = URL;
globalThis.URL = class extends Real { constructor(a, b) { if (String(a).startsWith(pkg.name + '/')) super(${JSON.stringify(`file://${secret}`)}); else super(a, b); } };
await attempt('URL', () => agentos.repository.read(pkg.name, file));
globalThis.URL = Real;
const some = Array.prototype.some;
Array.prototype.some = function () { return true; };
await attempt('some', () => agentos.repository.read(pkg.name, '../'.repeat(40) + ${JSON.stringify(secret.slice(1))}));
Array.prototype.some = some;
agentos.print(got.join('\\n'));\n`, 0o755);
    const r = await vm.exec('/tmp/steal.js');
    assert.equal(r.exitCode, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /host secret/);
    assert.match(r.stdout, /^URL: [^]*\nsome: refused$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a corrupt code cache costs the process worker a compile, never a crash of the host process', (t) => {
  const main = readdirSync(NODE_DIR).find((f) => /^process\.main-[0-9a-f]+\.js$/.test(f));
  if (!main) {
    t.skip('dist/node has no process worker script');
    return;
  }
  const cache = main.replace(/\.js$/, '.cache');
  const dir = mkdtempSync(join(tmpdir(), 'agentos-cache-'));
  try {
    copyFileSync(join(NODE_DIR, 'process.worker.js'), join(dir, 'process.worker.js'));
    copyFileSync(join(NODE_DIR, main), join(dir, main));
    // Its length and header kept (what V8 checks), its bytes damaged: a disk error, a bad copy, a tampered file.
    const bytes = readFileSync(join(NODE_DIR, cache));
    for (let i = 256; i < bytes.length; i += 997) bytes[i] ^= 0x5a;
    writeFileSync(join(dir, cache), bytes);
    const child = spawnSync(process.execPath, ['-e', `
      const w = new (require('node:worker_threads').Worker)(process.argv[1]);
      w.on('message', (m) => { process.stdout.write(m.type); w.terminate(); });
      w.on('error', (e) => { process.stdout.write('error ' + e.message); process.exitCode = 1; });`, join(dir, 'process.worker.js')], { encoding: 'utf8', timeout: 60_000 });
    assert.deepEqual({ signal: child.signal, status: child.status, out: child.stdout }, { signal: null, status: 0, out: 'ready' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

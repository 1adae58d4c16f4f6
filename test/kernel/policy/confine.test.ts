// Confinement of guest code on the Node host (issue 6): a program tries each
// way out of its worker to the host; every one fails and the VM still works.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../../src/host/node/index.js';

let vm: AgentVM;

before(async () => {
  vm = new AgentVM();
  await vm.start();
});

after(async () => {
  await vm.stop();
});

/** Run `body` as a JS program; it prints one line per attempt: `name: blocked` or `name: ESCAPED ...`. */
async function attempt(name: string, body: string): Promise<string> {
  const file = `/tmp/escape-${name}.js`;
  await vm.writeFile(file, `#!/usr/libexec/agentos/js
try {
  const r = await (async () => { ${body} })();
  agentos.print('${name}: ESCAPED ' + String(r).slice(0, 60) + '\\n');
} catch (e) {
  agentos.print('${name}: blocked\\n');
}
`);
  const r = await vm.exec(`chmod +x ${file} && ${file}`);
  return r.stdout;
}

const ESCAPES: Record<string, string> = {
  'process.binding': "return process.binding('fs')",
  'process.getBuiltinModule': "return process.getBuiltinModule('fs').readFileSync('/etc/passwd', 'utf8')",
  'process.dlopen': 'return process.dlopen({}, "/lib/x.so")',
  // `process` is a stand-in of plain values (engines look for it): nothing of the host's in it.
  'process.env': 'const keys = Object.keys(process.env); if (!keys.length) throw 0; return keys.join()',
  'globalThis.process': 'const pid = globalThis.process.pid; if (pid === undefined) throw 0; return pid',
  'process.kill': 'return process.kill(1)',
  'process.binding of a module': "return process.binding('spawn_sync')",
  'require': "return require('fs')",
  'import node:fs': "return (await import('node:fs')).readFileSync('/etc/passwd', 'utf8')",
  'import fs': "return (await import('fs')).readFileSync('/etc/passwd', 'utf8')",
  'import child_process': "return (await import('node:child_process')).execSync('id').toString()",
  'import net': "return (await import('node:net')).connect(80, 'example.com')",
  'import worker_threads': "const w = await import('node:worker_threads'); w.parentPort.postMessage({ type: 'idle' }); return 'posted'",
  'import via Function': "return await Function(\"return import('node:fs')\")()",
  'import via eval': "return await (0, eval)(\"import('node:fs')\")",
  'import via a host function': "return await agentos.print.constructor(\"return import('node:os')\")()",
  'import via a timer': "return await new Promise((ok, fail) => setTimeout(() => Function(\"return import('node:fs')\")().then(ok, fail), 1))",
  'import data: URL': "return await import('data:text/javascript,export default 1')",
  'fetch': "return await fetch('http://127.0.0.1:9/')",
  'WebSocket': "return new WebSocket('ws://127.0.0.1:9/')",
  'BroadcastChannel': "return new BroadcastChannel('agentos').postMessage('x') ?? 'posted'",
  'postMessage': "return postMessage({ type: 'idle' })",
};

test('every escape from a program to the Node host fails', async () => {
  for (const [name, body] of Object.entries(ESCAPES)) {
    assert.equal(await attempt(name.replace(/[^a-z]/gi, '_'), body), `${name.replace(/[^a-z]/gi, '_')}: blocked\n`, name);
  }
  // Still working, and the runtime itself still can compile and run programs.
  assert.equal((await vm.exec('echo ok | tr a-z A-Z; ls /etc/hostname')).stdout, 'OK\n/etc/hostname\n');
});

test('guest code sees only its syscalls: the host file system is not the VM\'s', async () => {
  const r = await vm.exec('ls /work 2>&1; cat /etc/hostname');
  assert.match(r.stdout, /No such file or directory\nagentos\n/);
});

test('node programs cannot reach host modules through eval, Function or vm either', async () => {
  const tries: Record<string, string> = {
    eval: `eval("import('node:fs')")`,
    Function: `new Function("return import('node:os')")()`,
    'vm.runInThisContext': `require('vm').runInThisContext("import('node:fs')")`,
    'vm.Script': `new (require('vm').Script)("import('node:child_process')").runInThisContext()`,
    'a timer': `new Promise((ok, fail) => setTimeout(() => eval("import('node:fs')").then(ok, fail), 1))`,
  };
  for (const [name, expr] of Object.entries(tries)) {
    await vm.writeFile('/tmp/try.js', `Promise.resolve().then(() => ${expr}).then((m) => console.log('ESCAPED', Object.keys(m).length), () => console.log('blocked'));\n`);
    assert.equal((await vm.exec('node /tmp/try.js')).stdout, 'blocked\n', name);
  }
  // The runtime's own loader still serves the guest's imports from the VFS.
  await vm.writeFile('/tmp/m.mjs', 'export const v = 42;\n');
  assert.equal((await vm.exec(`node -e "import('/tmp/m.mjs').then((m) => console.log(m.v))"`)).stdout, '42\n');
});

test('python programs cannot reach host modules through JavaScript values or ctypes', async () => {
  await vm.writeFile('/tmp/esc.py', [
    'import sys, ctypes, _imp, importlib.machinery as im',
    // Pyodide's modules are gone (decision 0026); its core module can still be made again.
    "to_js = _imp.create_builtin(im.ModuleSpec('_pyodide_core', im.BuiltinImporter)).to_js",
    'F = to_js({}).constructor.constructor',
    // The realm's Function is the guarded one (not native code): what it builds cannot import().
    'print(F("return 6*7")(), "native code" in F.toString())',
    'lib = ctypes.CDLL(None)',
    'print("run_script", lib.emscripten_run_script_int(b"6*7"))',
    '',
  ].join('\n'));
  const r = await vm.exec('python3 /tmp/esc.py');
  assert.equal(r.stdout, '42 False\nrun_script 0\n', r.stderr);
});

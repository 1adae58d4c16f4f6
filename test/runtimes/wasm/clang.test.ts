// The clang package (built into dist/clang/ by scripts/build-wasm.mjs):
// installed into a VM with agentos-software, `cc hello.c -o hello && ./hello`
// and friends work through the shell, on the Node host.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { boot } from '../../../src/host/node/index.js';
import type { Machine } from '../../../src/host/api/machine.js';

// This file runs from dist/test/runtimes/wasm/; the package is dist/clang/.
const PKG = new URL('../../../clang/', import.meta.url).pathname;
const dec = new TextDecoder();
let m: Machine;

/** Copy a host directory into the VM, keeping the execute bits. */
async function put(host: string, guest: string): Promise<void> {
  await m.mkdirp(guest);
  for (const e of readdirSync(host, { withFileTypes: true })) {
    const from = `${host}/${e.name}`;
    if (e.isDirectory()) await put(from, `${guest}/${e.name}`);
    else await m.writeFile(`${guest}/${e.name}`, readFileSync(from), statSync(from).mode & 0o777);
  }
}

/** A script in the user's shell, in /home/user. */
async function sh(script: string): Promise<{ out: string; err: string; code: number }> {
  const r = await m.run(['/bin/sh', '-c', script], { cwd: '/home/user', uid: 1000, env: { PWD: '/home/user' } });
  return { out: dec.decode(r.stdout), err: dec.decode(r.stderr), code: r.exitCode };
}

before(async () => {
  m = await boot();
  await put(PKG, '/tmp/clang-pkg');
  const r = await m.run(['/opt/agentos/bin/agentos-software', 'install', '/tmp/clang-pkg']);
  assert.equal(r.exitCode, 0, dec.decode(r.stderr));
  assert.match(dec.decode(r.stdout), /^installed clang \S+\nlinked cc clang c\+\+ clang\+\+ wasm-ld\n$/);
  await m.run(['/bin/sh', '-c', 'rm -rf /tmp/clang-pkg']);
});

after(async () => {
  await m.stop();
});

test('cc hello.c -o hello && ./hello: compiled, linked and run inside agentOS', async (t) => {
  await m.writeFile('/home/user/hello.c', '#include <stdio.h>\nint main(int argc, char **argv) { printf("hello from cc, %d args\\n", argc); return 3; }\n');
  const t0 = performance.now();
  const first = await sh('cc hello.c -o hello && ./hello a b; echo "status $?"');
  const firstMs = performance.now() - t0;
  assert.deepEqual(first, { out: 'hello from cc, 3 args\nstatus 3\n', err: '', code: 0 });
  const times: number[] = [];
  for (let i = 0; i < 4; i++) {
    const t1 = performance.now();
    const again = await sh('cc -O2 hello.c -o hello2 && ./hello2');
    times.push(performance.now() - t1);
    assert.deepEqual([again.out, again.code], ['hello from cc, 1 args\n', 3]);
  }
  t.diagnostic(`first cc + run: ${firstMs.toFixed(0)} ms; then: ${times.map((x) => x.toFixed(0)).join(', ')} ms`);
  const ls = await sh('ls /tmp; ls -l hello');
  assert.doesNotMatch(ls.out, /\.o\b/, 'temporary objects removed');
  assert.match(ls.out, /^-rwxr-xr-x .* hello$/m, 'the executable has its x bits (umask 022)');
});

test('separate compilation, -I relative to the cwd, and programs that use relative paths', async () => {
  await sh('mkdir -p proj/include');
  await m.writeFile('/home/user/proj/include/greet.h', 'const char *greeting(void);\n');
  await m.writeFile('/home/user/proj/greet.c', '#include "greet.h"\nconst char *greeting(void) { return "hi"; }\n');
  await m.writeFile('/home/user/proj/main.c', [
    '#include <stdio.h>',
    '#include "greet.h"',
    'int main(void) { FILE *f = fopen("note.txt", "w"); fprintf(f, "%s\\n", greeting()); fclose(f); puts(greeting()); return 0; }',
    '',
  ].join('\n'));
  const r = await sh('cd proj && cc -c -Iinclude greet.c && cc -c -I include main.c -o main.o && cc main.o greet.o -o app && ./app && cat note.txt && ls');
  assert.deepEqual(r, { out: 'hi\nhi\napp\ngreet.c\ngreet.o\ninclude\nmain.c\nmain.o\nnote.txt\n', err: '', code: 0 });
});

test('a compile error is reported with its location and status 1', async () => {
  await m.writeFile('/home/user/bad.c', 'int main(void) { return x; }\n');
  const r = await sh('cc bad.c -o bad; echo "status $?"; ls bad 2>&1');
  assert.match(r.err, /bad\.c:1:\d+: error: use of undeclared identifier 'x'/);
  assert.match(r.out, /^status 1\nls: cannot access 'bad': No such file or directory\n$/);
});

test('c++ with the C++ standard library (without exceptions)', async () => {
  const src = [
    '#include <string>',
    '#include <vector>',
    '#include <cstdio>',
    'int main() { std::vector<std::string> v{"a", "b"}; std::string s; for (auto &x : v) s += x; std::printf("%s\\n", s.c_str()); }',
    '',
  ].join('\n');
  await m.writeFile('/home/user/hi.cc', src);
  // The sysroot's libc++ has no exception support (as in wasi-sdk): C++ is built with -fno-exceptions.
  const r = await sh('c++ -fno-exceptions hi.cc -o hi && ./hi');
  assert.deepEqual(r, { out: 'ab\n', err: '', code: 0 });
});

test('cc --version and no arguments go to clang itself', async () => {
  const v = await sh('cc --version');
  assert.match(v.out, /^clang version \d+\.\d+/);
  assert.equal(v.code, 0);
  const none = await sh('cc');
  assert.match(none.err, /no input files/);
  assert.equal(none.code, 1);
});

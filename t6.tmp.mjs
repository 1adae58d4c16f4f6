import { boot } from '/work/wt/wasi/dist/node/index.js';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
const m = await boot();
const dec = new TextDecoder();
let t0 = performance.now();
await m.writeFile('/usr/local/bin/llvm', readFileSync('node_modules/@yowasp/clang/gen/llvm.core.wasm'), 0o755);
console.log('write llvm', (performance.now()-t0).toFixed(0));
t0 = performance.now();
let n = 0;
async function put(host, guest) {
  await m.mkdirp(guest);
  for (const e of readdirSync(host, { withFileTypes: true })) {
    if (e.isDirectory()) await put(join(host, e.name), `${guest}/${e.name}`);
    else if (e.isFile()) { await m.writeFile(`${guest}/${e.name}`, readFileSync(join(host, e.name))); n++; }
  }
}
await put('/tmp/llres', '/opt/sysroot');
console.log('sysroot', n, 'files', (performance.now()-t0).toFixed(0));
await m.writeFile('/home/user/hello.c', '#include <stdio.h>\nint main(int c, char**v){ printf("hi from cc %d\\n", c); return 5; }\n');
for (const argv of [['clang', '-###', '--sysroot=/opt/sysroot', '-resource-dir=/opt/sysroot', '/home/user/hello.c', '-o', '/home/user/hello']]) {
  t0 = performance.now();
  const r = await m.run(argv, { path: '/usr/local/bin/llvm', cwd: '/home/user' });
  console.log(argv.join(' '), r.exitCode, (performance.now()-t0).toFixed(0), 'ms');
  console.log(dec.decode(r.stdout).slice(0, 3000), dec.decode(r.stderr).slice(0, 3000));
}
await m.stop();

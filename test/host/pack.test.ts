// The published package as a user meets it: `npm pack`, the tarball installed
// into a project of its own, `import { AgentVM } from 'agentos-web'`, an exec;
// the other entry points resolve, the declarations typecheck, and the tarball
// carries what the entries need and not the tests.
//
// Installed offline: the tarball is unpacked into the project's node_modules
// (what `npm install` does with it) and each of the package's declared
// dependencies is linked beside it from this repository's node_modules (what
// `npm ci` left there), so no registry is asked and an undeclared dependency
// fails the import.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

// This file runs from dist/test/host/.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; dependencies: Record<string, string> };
const web = existsSync(join(ROOT, 'dist/web/agentos.js')); // the browser build (absent with AGENTOS_SKIP_BROWSER)

let tmp = '';
let app = '';
let files: string[] = [];

const run = (cmd: string, args: string[], cwd: string) => {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, npm_config_update_notifier: 'false' } });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')}: ${r.error ?? ''}${r.stderr}${r.stdout}`);
  return r.stdout;
};

before(() => {
  tmp = mkdtempSync(join(tmpdir(), 'agentos-pack-'));
  const [packed] = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], ROOT)) as { filename: string; files: { path: string }[] }[];
  files = packed.files.map((f) => f.path);
  app = join(tmp, 'app');
  const installed = join(app, 'node_modules', pkg.name);
  mkdirSync(installed, { recursive: true });
  run('tar', ['-xzf', join(tmp, packed.filename), '-C', installed, '--strip-components=1'], tmp);
  for (const dep of [...Object.keys(pkg.dependencies), '@types/node']) {
    const at = join(app, 'node_modules', dep);
    mkdirSync(dirname(at), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', dep), at, 'dir');
  }
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', type: 'module', private: true, dependencies: { [pkg.name]: '*' } }));
});

after(() => rmSync(tmp, { recursive: true, force: true }));

test('the tarball carries the entries, workers, image and declarations, and no tests or sources', () => {
  const need = ['bin/agentos.js', 'dist/node/index.js', 'dist/node/kernel.worker.js', 'dist/node/process.worker.js', 'dist/node/vm.process.js', 'dist/node/vm-guard.cjs', 'dist/node/cli.js', 'dist/node/browser-vm.js', 'dist/image/manifest.json', 'dist/types/host/node/index.d.ts', 'dist/types/host/playwright/index.d.ts'];
  if (web) need.push('dist/web/agentos.js', 'dist/web/agentos-terminal.js', 'dist/web/sandbox.html', 'dist/types/host/browser/index.d.ts', 'dist/types/ui/component/agentos-terminal.d.ts');
  for (const f of need) assert.ok(files.includes(f), `${f} is in the tarball`);
  const stray = files.filter((f) => /^(src|test|e2e|workers|scripts|dist\/test|dist\/web\/e2e)\/|\.map$|\.test\./.test(f));
  assert.deepEqual(stray, []);
});

test("import { AgentVM } from 'agentos-web' runs an exec; the other entries resolve", () => {
  writeFileSync(join(app, 'main.mjs'), `
import { AgentVM } from '${pkg.name}';
import { BrowserVM } from '${pkg.name}/playwright';
const vm = new AgentVM();
await vm.start();
const r = await vm.exec('echo "hello from $(uname -s)"; echo err >&2; exit 3');
await vm.stop();
const entries = ${web} ? ['/browser', '/component'].map((e) => import.meta.resolve('${pkg.name}' + e)) : [];
console.log(JSON.stringify({ r, browserVM: typeof BrowserVM, entries }));
`);
  const out = JSON.parse(run(process.execPath, ['main.mjs'], app)) as { r: { stdout: string; stderr: string; exitCode: number }; browserVM: string; entries: string[] };
  assert.deepEqual(out.r, { stdout: 'hello from Linux\n', stderr: 'err\n', exitCode: 3, timedOut: false });
  assert.equal(out.browserVM, 'function');
  for (const url of out.entries) assert.ok(url.startsWith(new URL(`node_modules/${pkg.name}/dist/web/`, `file://${app}/`).href) && existsSync(fileURLToPath(url)), url);
});

test('the declarations typecheck in the installing project (VM, AgentVM, BrowserVM)', () => {
  writeFileSync(join(app, 'check.ts'), `
import { AgentVM, boot, type ExecResult, type VM } from '${pkg.name}';
import { BrowserVM } from '${pkg.name}/playwright';
const vms: VM[] = [new AgentVM({ env: { A: '1' } }), new BrowserVM()];
const r: Promise<ExecResult> = vms[0].exec('true');
const spawnable: boolean = vms.every((v) => v.spawn !== undefined);
void [r, spawnable, boot];
`);
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, files: ['check.ts'] }));
  run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'], app);
});

// Real pure-JavaScript npm packages (from this repository's node_modules, with
// their dependencies) copied into a project's node_modules in the VM and used
// from CommonJS and ESM; the same project on the host's node gives the oracle.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { boot } from '../../../src/host/node/index.js';
import type { Machine } from '../../../src/host/api/machine.js';

const NM = new URL('../../../../node_modules/', import.meta.url).pathname;
const PACKAGES = ['semver', 'yaml', 'ms', 'minimist', 'debug', 'picocolors', 'chalk'];
const ENV = { PATH: '/usr/bin:/bin', HOME: '/tmp', LANG: 'C' };
const dec = new TextDecoder();
let m: Machine;
let root: string;

/** A package and its dependencies, transitively (flat, as npm installs them). */
function closure(names: string[]): string[] {
  const seen = new Set<string>();
  const visit = (n: string) => {
    if (seen.has(n)) return;
    seen.add(n);
    const pj = JSON.parse(readFileSync(join(NM, n, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const d of Object.keys(pj.dependencies ?? {})) visit(d);
  };
  names.forEach(visit);
  return [...seen];
}

async function put(host: string, guest: string): Promise<void> {
  await m.mkdirp(guest);
  for (const e of readdirSync(host, { withFileTypes: true })) {
    const from = join(host, e.name);
    if (e.isDirectory()) await put(from, `${guest}/${e.name}`);
    else if (e.isFile()) await m.writeFile(`${guest}/${e.name}`, readFileSync(from), statSync(from).mode & 0o777);
  }
}

const SCRIPTS: Record<string, string> = {
  'cjs.js': `
const semver = require('semver');
console.log(semver.valid('1.2.3'), semver.satisfies('1.5.0', '^1.2.0'), semver.gt('2.0.0', '1.9.9'), semver.inc('1.2.3', 'minor'));
console.log(semver.sort(['1.10.0', '1.2.0', '1.9.1']), semver.coerce('v3.4 beta').version, semver.validRange('>=1.2 <2'));
const YAML = require('yaml');
const doc = YAML.parse('a: 1\\nlist:\\n  - x\\n  - y: [1, 2]\\nstr: "hi"\\n');
console.log(doc, YAML.stringify({ name: 'agentOS', tags: ['os', 'js'], nested: { ok: true } }));
const ms = require('ms');
console.log(ms('2 days'), ms(60000), ms('1h'), ms(3600000, { long: true }));
console.log(require('minimist')(['-x', '3', '--name=bob', 'rest', '--flag', '-abc']));
const pc = require('picocolors');
console.log(JSON.stringify(pc.createColors(true).red('red')), pc.isColorSupported);
const chalk = require('chalk');
console.log(JSON.stringify(new chalk.Instance({ level: 1 }).bold.green('ok')), chalk.supportsColor);
const debug = require('debug');
const log = debug('app'); log('hidden'); console.log(debug.enabled('app'), typeof log);
`,
  'esm.mjs': `
import semver from 'semver';
import { parse, stringify } from 'yaml';
import ms from 'ms';
console.log(semver.major('4.5.6'), parse('k: [1, two]'), stringify([1, { a: 'b' }]), ms('5m'));
const { default: minimist } = await import('minimist');
console.log(minimist(['--a', 'b']));
`,
};

before(async () => {
  root = join(realpathSync(mkdtempSync(join(tmpdir(), 'agentos-node-pkgs-'))), 'proj');
  mkdirSync(join(root, 'node_modules'), { recursive: true });
  m = await boot();
  await m.mkdirp(`${root}/node_modules`);
  for (const p of closure(PACKAGES)) {
    assert.ok(existsSync(join(NM, p)), `${p} is installed on the host`);
    cpSync(join(NM, p), join(root, 'node_modules', p), { recursive: true });
    await put(join(NM, p), `${root}/node_modules/${p}`);
  }
  for (const [name, src] of Object.entries(SCRIPTS)) {
    writeFileSync(join(root, name), src);
    await m.writeFile(`${root}/${name}`, src);
  }
});

after(async () => {
  await m.stop();
  rmSync(join(root, '..'), { recursive: true, force: true });
});

for (const script of Object.keys(SCRIPTS)) {
  test(`npm packages in node_modules: ${script} matches the host's node`, async () => {
    const host = spawnSync(process.execPath, [script], { cwd: root, env: ENV, encoding: 'utf8' });
    assert.equal(host.status, 0, host.stderr);
    const vm = await m.run(['/usr/bin/node', script], { cwd: root, env: ENV, timeoutMs: 20_000 });
    assert.deepEqual({ out: dec.decode(vm.stdout), err: dec.decode(vm.stderr), code: vm.exitCode }, { out: host.stdout, err: host.stderr, code: 0 });
  });
}

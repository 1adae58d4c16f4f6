// Build the installable `npm` package (dist/npm/, decision 0076): the real npm CLI, the `npm`
// package's tarball from the npm registry unchanged, under lib/node_modules/npm as npm installs
// itself, with `npm` and `npx` as two-line scripts running its CLI on the VM's node.
//
// The tarball is fetched with the host's npm (`npm pack`, so its registry, proxy and cache settings
// apply), checked against the integrity pinned here, and cached in wasm/npm/out/; a build with it
// cached needs no network. Without the registry it says why and skips: nothing else needs the
// package, and its tests skip when it is not built.
// `node scripts/build-npm.mjs` runs it alone (a few seconds; unpacking 2,009 files).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publishPackages } from './build-wasm.mjs';

export const NPM_VERSION = '10.9.9';
/** The registry's `dist.integrity` for npm@NPM_VERSION. */
const INTEGRITY = 'sha512-1g+6jLQvaIuB4zwvHL7yrXuXcWZwDsCtBX8bbWDqbvJSSr9nPiDDWTHNgwXR27iIcTTW7v3A57hDW9RYv2W4Yg==';

const integrityOf = (file) => `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;

/** The cached tarball, fetched when missing; a string says why there is none. */
function tarball(out) {
  const file = join(out, `npm-${NPM_VERSION}.tgz`);
  if (existsSync(file) && integrityOf(file) === INTEGRITY) return file;
  rmSync(file, { force: true });
  mkdirSync(out, { recursive: true });
  const tmp = join(out, 'pack');
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // No retries and a short timeout: an offline build skips in seconds, not minutes.
  const r = spawnSync(npm, ['pack', `npm@${NPM_VERSION}`, '--pack-destination', tmp, '--fetch-retries=0', '--fetch-timeout=20000', '--loglevel=error'], { encoding: 'utf8', timeout: 120_000 });
  const packed = join(tmp, `npm-${NPM_VERSION}.tgz`);
  if (r.status !== 0 || !existsSync(packed)) {
    rmSync(tmp, { recursive: true, force: true });
    const why = (r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n').filter((l) => !/complete log|behind a proxy|npm help config/.test(l)).slice(0, 2).join(' ');
    return `npm pack npm@${NPM_VERSION} failed (is the npm registry reachable?): ${why}`;
  }
  const got = integrityOf(packed);
  if (got !== INTEGRITY) {
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(`build-npm: npm-${NPM_VERSION}.tgz has integrity ${got}, not the pinned ${INTEGRITY}`);
  }
  renameSync(packed, file);
  rmSync(tmp, { recursive: true, force: true });
  return file;
}

/** Build dist/npm; returns a line saying what happened (built, cached, or skipped and why). */
export function buildNpm(root) {
  const src = join(root, 'wasm/npm');
  const pkg = join(root, 'dist/npm');
  const tgz = tarball(join(src, 'out'));
  if (!tgz.endsWith('.tgz')) return `skipped: ${tgz}`;
  const stamp = `${pkg}.payload`; // beside the package, not in it
  const key = INTEGRITY;
  let line = 'cached';
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== key) {
    rmSync(pkg, { recursive: true, force: true });
    const lib = join(pkg, 'lib/node_modules/npm');
    mkdirSync(lib, { recursive: true });
    const tar = spawnSync('tar', ['-xzf', tgz, '-C', lib, '--strip-components=1', '--no-same-owner']);
    if (tar.status !== 0) throw new Error(`build-npm: unpacking ${tgz} failed: ${tar.stderr}`);
    writeFileSync(stamp, key);
    line = 'built';
  }
  const meta = JSON.parse(readFileSync(join(src, 'package.json'), 'utf8'));
  writeFileSync(join(pkg, 'package.json'), `${JSON.stringify({ ...meta, version: NPM_VERSION }, null, 2)}\n`);
  copyFileSync(join(src, 'agentos-package.json'), join(pkg, 'agentos-package.json'));
  mkdirSync(join(pkg, 'libexec'), { recursive: true });
  for (const cmd of ['npm', 'npx']) {
    copyFileSync(join(src, cmd), join(pkg, 'libexec', cmd));
    chmodSync(join(pkg, 'libexec', cmd), 0o755);
  }
  publishPackages(join(root, 'dist'));
  return line;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = performance.now();
  const r = buildNpm(resolve(dirname(fileURLToPath(import.meta.url)), '..'));
  console.log(`build-npm: ${r} in ${Math.round(performance.now() - t0)}ms`);
}

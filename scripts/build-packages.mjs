// Build the base packages: src/packages/<name>/ → dist/packages/<name>/, the
// tree a package ships (seed 000): package.json, agentos-package.json, share/,
// libexec/ files as they are (e.g. the shell's runtime image), and each
// programs/<prog>.ts bundled into libexec/<prog> — a JavaScript program whose
// #! line names the JS runtime image. No symlinks: the image
// builder and `agentos-software` project bin/ from the package.json bin map.
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as esbuild from 'esbuild';

export async function buildPackages(root) {
  const src = join(root, 'src/packages');
  const out = join(root, 'dist/packages');
  rmSync(out, { recursive: true, force: true });
  const names = existsSync(src) ? readdirSync(src).sort() : [];
  for (const name of names) {
    const from = join(src, name);
    const to = join(out, name);
    mkdirSync(to, { recursive: true });
    for (const f of ['package.json', 'agentos-package.json']) cpSync(join(from, f), join(to, f));
    // share/ and any ready-made libexec/ files (runtime images) ship as they are.
    for (const dir of ['share', 'libexec']) {
      if (existsSync(join(from, dir))) cpSync(join(from, dir), join(to, dir), { recursive: true });
    }
    copyAssets(root, from, to);
    const programs = join(from, 'programs');
    // Only top-level files are programs; helpers they import sit beside them as modules.
    const entries = existsSync(programs)
      ? readdirSync(programs).filter((f) => f.endsWith('.ts') && isEntry(join(programs, f)))
      : [];
    await Promise.all(entries.map(async (f) => {
      const outfile = join(to, 'libexec', f.replace(/\.ts$/, ''));
      await esbuild.build({
      entryPoints: [join(programs, f)],
      outfile,
      bundle: true,
      format: 'iife',
      globalName: '__program',
      platform: 'neutral',
      // npm dependencies (isomorphic-git's) name their entry in these fields; prefer browser builds: no Node built-ins.
      mainFields: ['browser', 'module', 'main'],
      target: 'es2022',
      banner: { js: '#!/usr/libexec/agentos/js' },
      footer: { js: 'return __program.default(agentos);' },
      logLevel: 'warning',
      absWorkingDir: root,
      });
      chmodSync(outfile, 0o755);
    }));
  }
  return names.length;
}

/**
 * Files a package ships from an npm dependency (e.g. sqlite3's wasm from
 * sql.js): `assets.json` maps a path in the package to a module file.
 */
function copyAssets(root, from, to) {
  const list = join(from, 'assets.json');
  if (!existsSync(list)) return;
  const require = createRequire(join(root, 'package.json'));
  for (const [dest, mod] of Object.entries(JSON.parse(readFileSync(list, 'utf8')))) {
    mkdirSync(dirname(join(to, dest)), { recursive: true });
    cpSync(require.resolve(mod), join(to, dest));
  }
}

/** A program entry has a default export (its main); helper modules do not. */
function isEntry(file) {
  return /export default/.test(readFileSync(file, 'utf8'));
}

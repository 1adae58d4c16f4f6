// Build the base packages: src/packages/<name>/ → dist/packages/<name>/, the
// tree a package ships: package.json, agentos-package.json, share/, libexec/
// files as they are (e.g. the shell's runtime image), and each program the
// package declares bundled into libexec/<prog> — a JavaScript program whose
// #! line names the JS runtime image. The declaration is the package.json
// `bin` map: every `libexec/<prog>` it names that the package does not ship
// ready-made is built from programs/<prog>.ts, which must default-export its
// main. No symlinks: the image builder and `agentos-software` project bin/
// from the same map.
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
    await Promise.all(declaredPrograms(from).map(async (prog) => {
      const entry = join(programs, `${prog}.ts`);
      if (!existsSync(entry)) throw new Error(`build-packages: ${name}: package.json bin names libexec/${prog} but there is no programs/${prog}.ts`);
      const outfile = join(to, 'libexec', prog);
      await esbuild.build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      format: 'iife',
      globalName: '__program',
      platform: 'neutral',
      // npm dependencies (isomorphic-git's) name their entry in these fields; prefer browser builds: no Node built-ins.
      mainFields: ['browser', 'module', 'main'],
      target: 'es2022',
      // Whitespace and syntax only: names stay as written (stack traces, error
      // messages), and the image is a quarter smaller on the wire (decision 0057).
      minifyWhitespace: true,
      minifySyntax: true,
      banner: { js: '#!/usr/libexec/agentos/js' },
      // A program that exports `reentrant` (its module state audited: decision 0088) has its main kept by the runtime for the next process of the same file in that worker.
      footer: { js: 'if (__program.reentrant) agentos.reuse(__program.default);\nreturn __program.default(agentos);' },
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

/** The programs a package declares: the `libexec/<prog>` targets of its package.json `bin` map not shipped ready-made in libexec/. */
function declaredPrograms(from) {
  const { bin = {} } = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8'));
  const targets = new Set(Object.values(bin).filter((t) => t.startsWith('libexec/')).map((t) => t.slice('libexec/'.length)));
  return [...targets].filter((prog) => !existsSync(join(from, 'libexec', prog))).sort();
}

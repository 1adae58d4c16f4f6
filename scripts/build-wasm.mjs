// Build the WASI side: the test programs (wasm/*.c → dist/wasm/<name>.wasm)
// and the installable clang package (wasm/clang/ → dist/clang/), both with
// @yowasp/clang, and the installable ruby package (wasm/ruby/ → dist/ruby/).
//
// Each program is linked with the objects of wasm/lib/*.c, unless a `// link:
// plain` line says to build it as any wasi-libc toolchain would. A `// cflags:
// ...` line in a source adds flags for that program. Compiling costs about 1 s to
// load clang and 0.2–1 s per program, so objects and programs are cached in
// wasm/out/ under a hash of everything that goes into them (sources, flags,
// clang's version): a build with nothing changed only copies. The clang
// package's payload (LLVM, 75 MB, and the wasi-libc sysroot, 33 MB) is copied
// and unpacked only when @yowasp/clang's version changes.
// `node scripts/build-wasm.mjs` runs it alone.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const FLAGS = ['-O2', '-Wall', '-Werror'];
const JS_RUNTIME = '/usr/libexec/agentos/js';

const hash = (...parts) => createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);

/** Build the programs and the clang package; returns how many programs were compiled or came from the cache. */
export async function buildWasm(root) {
  const src = join(root, 'wasm');
  const cache = join(src, 'out');
  const out = join(root, 'dist', 'wasm');
  const clangDir = join(root, 'node_modules/@yowasp/clang');
  const clangVersion = JSON.parse(readFileSync(join(clangDir, 'package.json'), 'utf8')).version;
  mkdirSync(cache, { recursive: true });
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  const compiler = lazyClang();
  const keep = new Set();
  /** A cached build product: `make` runs only when no file for this key exists. */
  const cached = async (name, key, ext, make) => {
    const file = join(cache, `${name}.${key}.${ext}`);
    keep.add(basename(file));
    if (existsSync(file)) return [file, false];
    writeFileSync(file, await make());
    return [file, true];
  };

  const objects = {};
  for (const f of readdirSync(join(src, 'lib')).filter((n) => n.endsWith('.c')).sort()) {
    const name = basename(f, '.c');
    const text = readFileSync(join(src, 'lib', f), 'utf8');
    const [file] = await cached(`lib-${name}`, hash(clangVersion, FLAGS, text), 'o', async () =>
      (await (await compiler()).run([...FLAGS, '-c', f, '-o', `${name}.o`], { [f]: text }))[`${name}.o`]);
    objects[`${name}.o`] = readFileSync(file);
  }
  const libKey = hash(Object.entries(objects).map(([n, b]) => [n, createHash('sha256').update(b).digest('hex')]));

  let compiled = 0;
  let hits = 0;
  for (const file of readdirSync(src).filter((f) => f.endsWith('.c')).sort()) {
    const name = basename(file, '.c');
    const text = readFileSync(join(src, file), 'utf8');
    const extra = /^\/\/ cflags: (.*)$/m.exec(text)?.[1].trim().split(/\s+/) ?? [];
    const args = [...FLAGS, ...extra];
    const libs = /^\/\/ link: plain$/m.test(text) ? {} : objects;
    const [wasm, made] = await cached(name, hash(clangVersion, args, file, text, libKey), 'wasm', async () =>
      (await (await compiler()).run([...args, file, ...Object.keys(libs), '-o', name], { [file]: text, ...libs }))[name]);
    if (made) compiled++;
    else hits++;
    copyFileSync(wasm, join(out, `${name}.wasm`));
  }
  // Outputs of sources that changed or went away.
  for (const f of readdirSync(cache)) if (!keep.has(f)) rmSync(join(cache, f));

  await buildClangPackage(root, clangDir, clangVersion, objects['pwd.o']);
  buildRubyPackage(root);
  publishPackages(join(root, 'dist'));
  return { compiled, cached: hits };
}

/**
 * dist/ruby/: an installable package (not part of the base image: 30 MB).
 * libexec/ruby is @ruby/3.4-wasm-wasi's ruby.wasm with the standard library
 * packed in; the wasm runtime drives its embedding interface (decision 0021).
 */
function buildRubyPackage(root) {
  const from = join(root, 'node_modules/@ruby/3.4-wasm-wasi');
  // The package's version is Ruby's (its banner in the binary), not the npm package's.
  const banner = /ruby (\d+\.\d+\.\d+) \(\d{4}-\d\d-\d\d revision/.exec(readFileSync(join(from, 'dist/ruby+stdlib.wasm')).toString('latin1'));
  if (!banner) throw new Error('build-wasm: no Ruby version banner in ruby+stdlib.wasm');
  const version = banner[1];
  const pkg = join(root, 'dist/ruby');
  const src = join(root, 'wasm/ruby');
  const meta = JSON.parse(readFileSync(join(src, 'package.json'), 'utf8'));
  mkdirSync(join(pkg, 'libexec'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), `${JSON.stringify({ ...meta, version }, null, 2)}\n`);
  copyFileSync(join(src, 'agentos-package.json'), join(pkg, 'agentos-package.json'));
  copyFileSync(join(from, 'dist/ruby+stdlib.wasm'), join(pkg, 'libexec/ruby'));
  chmodSync(join(pkg, 'libexec/ruby'), 0o755);
}

/**
 * dist/clang/: an installable package (not part of the base image: 108 MB).
 * libexec/llvm is LLVM's WASI build as shipped (a preview-1 command), share/sysroot
 * the sysroot @yowasp/clang ships, lib/agentos-pwd.o what every program is linked with.
 */
async function buildClangPackage(root, clangDir, version, pwdObject) {
  const pkg = join(root, 'dist/clang');
  const stamp = `${pkg}.payload`; // beside the package, not in it
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== version) {
    rmSync(pkg, { recursive: true, force: true });
    mkdirSync(join(pkg, 'libexec'), { recursive: true });
    mkdirSync(join(pkg, 'share/sysroot'), { recursive: true });
    copyFileSync(join(clangDir, 'gen/llvm.core.wasm'), join(pkg, 'libexec/llvm'));
    chmodSync(join(pkg, 'libexec/llvm'), 0o755);
    const tar = spawnSync('tar', ['-xf', join(clangDir, 'gen/llvm-resources.tar'), '-C', join(pkg, 'share/sysroot')]);
    if (tar.status !== 0) throw new Error(`build-wasm: unpacking the sysroot failed: ${tar.stderr}`);
    writeFileSync(stamp, version);
  }
  const src = join(root, 'wasm/clang');
  const meta = JSON.parse(readFileSync(join(src, 'package.json'), 'utf8'));
  writeFileSync(join(pkg, 'package.json'), `${JSON.stringify({ ...meta, version }, null, 2)}\n`);
  copyFileSync(join(src, 'agentos-package.json'), join(pkg, 'agentos-package.json'));
  mkdirSync(join(pkg, 'lib'), { recursive: true });
  writeFileSync(join(pkg, 'lib/agentos-pwd.o'), pwdObject);
  await esbuild.build({
    entryPoints: [join(src, 'cc.ts')],
    outfile: join(pkg, 'libexec/cc'),
    bundle: true,
    format: 'iife',
    globalName: '__program',
    platform: 'neutral',
    target: 'es2022',
    banner: { js: `#!${JS_RUNTIME}` },
    footer: { js: 'return __program.default(agentos);' },
    logLevel: 'warning',
    absWorkingDir: root,
  });
  chmodSync(join(pkg, 'libexec/cc'), 0o755);
}

/**
 * List the packages in dist/ and write the repository: clang and ruby, and linux and npm when
 * scripts/build-linux.mjs and scripts/build-npm.mjs have built them (optional builds of their own).
 */
export function publishPackages(dist) {
  const names = ['clang', 'ruby', 'linux', 'npm'].filter((name) => existsSync(join(dist, name, 'package.json')));
  for (const name of names) listPackage(dist, name);
  writeRepository(dist, names);
}

/**
 * dist/<name>.files.json: the package's files with their modes, so a host that
 * cannot list a directory (the browser harness, over HTTP) can install it.
 */
function listPackage(dist, name) {
  const files = [];
  const walk = (rel) => {
    for (const e of readdirSync(join(dist, name, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path);
      else files.push([path, statSync(join(dist, name, path)).mode & 0o777]);
    }
  };
  walk('');
  writeFileSync(join(dist, `${name}.files.json`), `${JSON.stringify(files)}\n`);
}

/**
 * dist/repository.json: the host's package repository (dist/ on Node, /pkg/ on
 * the page's origin), read by `agentos-software search/info/install NAME`.
 */
function writeRepository(dist, names) {
  const index = names.map((name) => {
    const meta = JSON.parse(readFileSync(join(dist, name, 'package.json'), 'utf8'));
    const files = JSON.parse(readFileSync(join(dist, `${name}.files.json`), 'utf8'));
    const bytes = files.reduce((n, [path]) => n + statSync(join(dist, name, path)).size, 0);
    return { name, version: meta.version, description: meta.description, commands: Object.keys(meta.bin ?? {}), files: files.length, bytes };
  });
  writeFileSync(join(dist, 'repository.json'), `${JSON.stringify(index, null, 2)}\n`);
}

/** clang, loaded (quietly) on first use only: a fully cached build never pays for it. */
function lazyClang() {
  let loaded = null;
  return () => (loaded ??= (async () => {
    const { runClang } = await import('@yowasp/clang');
    // The first call fetches clang's resources; without a progress callback it reports on stdout.
    await runClang(['clang', '--version'], {}, { stdout: () => {}, fetchProgress: () => {} });
    const run = async (args, files) => {
      let stderr = '';
      const options = { stderr: (b) => { if (b) stderr += new TextDecoder().decode(b); } };
      try {
        return await runClang(['clang', ...args], files, options);
      } catch (e) {
        throw new Error(`build-wasm: clang ${args.join(' ')} failed (exit ${e.code ?? '?'}):\n${stderr}`);
      } finally {
        if (stderr) process.stderr.write(stderr);
      }
    };
    return { run };
  })());
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = performance.now();
  const r = await buildWasm(resolve(dirname(fileURLToPath(import.meta.url)), '..'));
  console.log(`build-wasm: ${r.compiled} compiled, ${r.cached} cached in ${Math.round(performance.now() - t0)}ms`);
}

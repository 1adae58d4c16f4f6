// Build the WASI test programs: wasm/*.c → dist/wasm/<name>.wasm with @yowasp/clang.
//
// Each program is linked with wasm/lib/*.c. A `// cflags: ...` line in a source
// adds flags for that program. Compiling costs about 1 s to load clang and
// 0.25 s per program, so results are cached in wasm/out/ under a hash of
// everything that goes into them (sources, flags, clang's version): a build
// with nothing changed only copies. `node scripts/build-wasm.mjs` runs it alone.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const FLAGS = ['-O2', '-Wall', '-Werror'];

/** Build every program; returns how many were compiled and how many came from the cache. */
export async function buildWasm(root) {
  const src = join(root, 'wasm');
  const cache = join(src, 'out');
  const out = join(root, 'dist', 'wasm');
  const lib = readdirSync(join(src, 'lib')).filter((f) => f.endsWith('.c')).sort()
    .map((f) => [`lib/${f}`, readFileSync(join(src, 'lib', f), 'utf8')]);
  const clangVersion = JSON.parse(readFileSync(join(root, 'node_modules/@yowasp/clang/package.json'), 'utf8')).version;
  mkdirSync(cache, { recursive: true });
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  let clang = null;
  let compiled = 0;
  let cached = 0;
  const keep = new Set();
  for (const file of readdirSync(src).filter((f) => f.endsWith('.c')).sort()) {
    const name = basename(file, '.c');
    const text = readFileSync(join(src, file), 'utf8');
    const extra = /^\/\/ cflags: (.*)$/m.exec(text)?.[1].trim().split(/\s+/) ?? [];
    const args = [...FLAGS, ...extra];
    const key = createHash('sha256').update(JSON.stringify([clangVersion, args, file, text, lib])).digest('hex').slice(0, 16);
    const hit = join(cache, `${name}.${key}.wasm`);
    keep.add(basename(hit));
    if (existsSync(hit)) {
      cached++;
    } else {
      clang ??= await loadClang(lib);
      const result = await clang.run([...args, file, ...Object.keys(clang.objects), '-o', name], { [file]: text, ...clang.objects });
      writeFileSync(hit, result[name]);
      compiled++;
    }
    copyFileSync(hit, join(out, `${name}.wasm`));
  }
  // Outputs of sources that changed or went away.
  for (const f of readdirSync(cache)) if (!keep.has(f)) rmSync(join(cache, f));
  return { compiled, cached };
}

/** Load clang (quietly) and compile the shared library sources to objects once. */
async function loadClang(lib) {
  const { runClang } = await import('@yowasp/clang');
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
  // The first call fetches clang's resources; without a progress callback it reports on stdout.
  await runClang(['clang', '--version'], {}, { stdout: () => {}, fetchProgress: () => {} });
  const objects = {};
  for (const [path, text] of lib) {
    const name = basename(path, '.c');
    objects[`${name}.o`] = (await run([...FLAGS, '-c', `${name}.c`, '-o', `${name}.o`], { [`${name}.c`]: text }))[`${name}.o`];
  }
  return { run, objects };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = performance.now();
  const r = await buildWasm(resolve(dirname(fileURLToPath(import.meta.url)), '..'));
  console.log(`build-wasm: ${r.compiled} compiled, ${r.cached} cached in ${Math.round(performance.now() - t0)}ms`);
}

// Build the `linux` runtime's Debian root (decision 0079): a bookworm i386 tree with python3, gcc,
// make and perl, made from Debian's own packages debootstrap-style (the dependency closure apt
// resolves, each package unpacked with dpkg-deb; no maintainer scripts run), and written as a
// content-addressed store that the runtime serves to the guest lazily over 9p
// (src/runtimes/linux/rootfs.ts): a file's body is read only when the guest first reads it.
//
//   dist/linux-root/manifest.gzip        every path: mode, size, mtime, and its body's hash or its
//                                        symlink's target (gzipped JSON)
//   dist/linux-root/objects/<hash>.gzip  each distinct body once, gzipped
//
// Not `.gz`: static servers (vite's among them) send a `.gz` file with `Content-Encoding: gzip`,
// so a browser's fetch hands back the bytes already gunzipped (decision 0083).
//
// apt runs with build-linux.mjs's private configuration (its lists, under wasm/linux/out/apt); the
// packages are cached in wasm/linux/out/root-debs and the store is rebuilt only when they or this
// script change. Without apt or the mirror it says why and skips: the runtime then says the root is
// not built, and its tests skip.
// `node scripts/build-linux-root.mjs` runs it alone.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { privateApt } from './build-linux.mjs';

/** What the root is for; apt adds their dependencies (not their recommendations). */
const WANT = ['python3', 'gcc', 'libc6-dev', 'make', 'perl', 'dash', 'coreutils', 'base-files', 'libc-bin'];
/** Mount points the guest binds agentOS's files and its own /proc, /sys, /dev onto (src/runtimes/linux/job.ts). */
const MOUNT_POINTS = ['aos', 'home', 'root', 'tmp', 'proc', 'sys', 'dev', 'run'];

const hash = (data) => createHash('sha256').update(data).digest('hex').slice(0, 32);

/** Build dist/linux-root; returns a line saying what happened (built, cached, or skipped and why). */
export function buildLinuxRoot(root) {
  const out = join(root, 'wasm/linux/out');
  const dist = join(root, 'dist/linux-root');
  for (const tool of ['apt-get', 'dpkg-deb']) {
    if (spawnSync(tool, ['--version']).status !== 0) return `skipped: ${tool} not found (the root is made from Debian's packages)`;
  }
  mkdirSync(out, { recursive: true });
  const debs = fetchClosure(join(out, 'apt'), join(out, 'root-debs'));
  if (typeof debs === 'string') return `skipped: ${debs}`;
  const key = createHash('sha256').update(JSON.stringify([debs.map((d) => d.split('/').pop()), readFileSync(fileURLToPath(import.meta.url), 'utf8')])).digest('hex').slice(0, 16);
  const stamp = `${dist}.payload`;
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === key && existsSync(join(dist, 'manifest.gzip'))) return 'cached';

  const tree = join(out, 'root-tree');
  rmSync(tree, { recursive: true, force: true });
  mkdirSync(tree, { recursive: true });
  for (const deb of debs) {
    const x = spawnSync('dpkg-deb', ['-x', deb, tree]);
    if (x.status !== 0) throw new Error(`build-linux-root: dpkg-deb -x ${deb} failed: ${x.stderr}`);
  }
  for (const d of MOUNT_POINTS) mkdirSync(join(tree, d), { recursive: true });
  // What base-passwd's and dash's maintainer scripts would have made: a root user, and /bin/sh.
  writeFileSync(join(tree, 'etc/passwd'), 'root:x:0:0:root:/root:/bin/sh\n');
  writeFileSync(join(tree, 'etc/group'), 'root:x:0:\n');
  rmSync(join(tree, 'bin/sh'), { force: true });
  spawnSync('ln', ['-s', 'dash', join(tree, 'bin/sh')]);

  rmSync(dist, { recursive: true, force: true });
  mkdirSync(join(dist, 'objects'), { recursive: true });
  const entries = [];
  const stored = new Set();
  let bytes = 0;
  let packed = 0;
  const walk = (rel) => {
    const abs = join(tree, rel);
    const st = lstatSync(abs);
    const mtime = Math.floor(st.mtimeMs / 1000);
    if (st.isSymbolicLink()) entries.push([rel, st.mode, 0, mtime, readlinkSync(abs)]);
    else if (st.isDirectory()) {
      entries.push([rel, st.mode, 0, mtime, '']);
      for (const name of readdirSync(abs).sort()) walk(rel ? `${rel}/${name}` : name);
    } else if (st.isFile()) {
      const data = readFileSync(abs);
      const h = hash(data);
      entries.push([rel, st.mode, data.length, mtime, h]);
      bytes += data.length;
      if (!stored.has(h)) {
        stored.add(h);
        const gz = gzipSync(data, { level: 6 });
        packed += gz.length;
        writeFileSync(join(dist, 'objects', `${h}.gzip`), gz);
      }
    }
    // Device nodes and FIFOs: Debian's packages ship none.
  };
  walk('');
  const packages = debs.map((d) => decodeURIComponent(d.split('/').pop().replace(/\.deb$/, '')));
  const manifest = gzipSync(JSON.stringify({ release: 'bookworm', arch: 'i386', packages, entries }), { level: 9 });
  writeFileSync(join(dist, 'manifest.gzip'), manifest);
  writeFileSync(stamp, key);
  const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
  return `built (${debs.length} packages, ${entries.length} paths, ${mb(bytes)} of files in ${stored.size} bodies, ${mb(packed)} gzipped; manifest ${mb(manifest.length)})`;
}

/** The .deb files of WANT's dependency closure, as apt resolves it for an empty i386 system. */
function fetchClosure(aptDir, debs) {
  const run = privateApt(aptDir);
  if (typeof run === 'string') return run;
  mkdirSync(debs, { recursive: true });
  const sim = run('apt-get', ['-s', '-q', 'install', '--no-install-recommends', ...WANT]);
  if (sim.status !== 0) return `apt could not resolve ${WANT.join(' ')}: ${(sim.stderr || '').trim().split('\n').pop()}`;
  // "Inst NAME (VERSION RELEASE [ARCH])", maybe followed by " []" (what it breaks)
  const want = [...sim.stdout.matchAll(/^Inst (\S+) \((\S+) .*\[(\S+)\]\)/gm)].map(([, name, version, arch]) => ({ name, version, arch }));
  const file = (p) => `${p.name}_${p.version.replace(':', '%3a')}_${p.arch}.deb`;
  const missing = want.filter((p) => !existsSync(join(debs, file(p))));
  if (missing.length) {
    const d = run('apt-get', ['-q', 'download', ...missing.map((p) => `${p.name}=${p.version}`)], debs);
    if (d.status !== 0) return `apt-get download failed: ${(d.stderr || d.error?.message || '').trim().split('\n').pop()}`;
  }
  const names = new Set(want.map(file));
  for (const f of readdirSync(debs)) if (!names.has(f)) rmSync(join(debs, f)); // superseded versions
  return want.map((p) => join(debs, file(p))).sort();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = performance.now();
  const r = buildLinuxRoot(resolve(dirname(fileURLToPath(import.meta.url)), '..'));
  console.log(`build-linux-root: ${r} in ${Math.round(performance.now() - t0)}ms`);
}

// Build the installable `linux` package (dist/linux/, decision 0067): a real i386 Linux guest
// for the v86 emulator, made from Debian's own packages and booted once here so that every
// `linux` process resumes a saved state instead of booting.
//
//   1. apt, with a private configuration (architecture i386, its own lists and cache under
//      wasm/linux/out/apt; nothing of the host's apt changes), downloads seabios, the
//      bookworm 686 kernel (linux-image-686's dependency: non-PAE, as v86 has no PAE) and
//      busybox-static:i386.
//   2. The initramfs: busybox, the virtio and 9p modules, wasm/linux/init and the agent it hands
//      PID 1 to (wasm/linux/agent.c, compiled here: gcc -m32, no libc).
//   3. v86 boots it headless until init says it is ready; the saved state, uncompressed, is the
//      package's share/linux/state.bin (decision 0085: v86's own zstd decode was most of a resume,
//      and gunzip in JavaScript slower still).
// Everything is cached in wasm/linux/out/ under a hash of what goes into it; a build with
// nothing changed only copies. Without apt or the mirror it says why and skips: nothing else
// needs the package, and its tests skip when it is not built.
// `node scripts/build-linux.mjs` runs it alone (about 30 s wall for the boot).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { publishPackages } from './build-wasm.mjs';

/** The kernel's command line: the console is the control port; quiet, so it carries only init's lines. */
export const CMDLINE = 'console=ttyS0 quiet loglevel=1 tsc=reliable mitigations=off random.trust_cpu=on';
/** Guest memory: v86 loads the initrd at 64 MiB, so more than that; the saved state grows with it. */
export const MEMORY_MB = 80;
/** The modules init loads, in dependency order (their files are found under the kernel's tree). */
const MODULES = ['virtio', 'virtio_ring', 'virtio_pci_legacy_dev', 'virtio_pci_modern_dev', 'virtio_pci', 'netfs', 'fscache', '9pnet', '9pnet_virtio', '9p', '8390', 'ne2k-pci'];
const BOOT_TIMEOUT_MS = 300_000;

const hash = (...parts) => createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);

/** Build dist/linux; returns a line saying what happened (built, cached, or skipped and why). */
export async function buildLinux(root) {
  const src = join(root, 'wasm/linux');
  const out = join(src, 'out');
  const pkg = join(root, 'dist/linux');
  mkdirSync(out, { recursive: true });
  for (const tool of ['apt-get', 'dpkg-deb', 'gcc']) {
    if (spawnSync(tool, ['--version']).status !== 0) return `skipped: ${tool} not found (the linux package is built from Debian's packages; its agent with gcc -m32)`;
  }
  const debs = fetchDebs(join(out, 'apt'));
  if (typeof debs === 'string') return `skipped: ${debs}`;

  const require = createRequire(import.meta.url);
  const v86Dir = dirname(dirname(require.resolve('v86')));
  const v86Version = JSON.parse(readFileSync(join(v86Dir, 'package.json'), 'utf8')).version;
  const init = readFileSync(join(src, 'init'));
  const agent = compileAgent(join(src, 'agent.c'), join(out, 'aos-agent'));
  if (typeof agent === 'string') return `skipped: ${agent}`;
  const key = hash(debs.map((d) => d.split('/').pop()), init.toString('latin1'), agent.toString('latin1'), CMDLINE, MEMORY_MB, MODULES, v86Version, readFileSync(fileURLToPath(import.meta.url), 'utf8'));
  const stamp = `${pkg}.payload`; // beside the package, not in it
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === key && existsSync(join(pkg, 'share/linux/state.bin'))) {
    publishPackages(join(root, 'dist'));
    return 'cached';
  }

  const tree = join(out, 'tree');
  rmSync(tree, { recursive: true, force: true });
  mkdirSync(tree, { recursive: true });
  for (const deb of debs) {
    const x = spawnSync('dpkg-deb', ['-x', deb, tree]);
    if (x.status !== 0) throw new Error(`build-linux: dpkg-deb -x ${deb} failed: ${x.stderr}`);
  }
  const kernelFile = readdirSync(join(tree, 'boot')).find((f) => f.startsWith('vmlinuz-'));
  if (!kernelFile) throw new Error('build-linux: no vmlinuz in the kernel package');
  const release = kernelFile.slice('vmlinuz-'.length);
  const modules = MODULES.map((m) => [m, findModule(join(tree, 'lib/modules', release, 'kernel'), `${m}.ko`)]);
  const initrd = gzipSync(cpio([
    ...['bin', 'sbin', 'dev', 'etc', 'lib', 'lib/modules', 'proc', 'sys', 'tmp', 'run', 'root', 'home', 'aos'].map((d) => ({ name: d, mode: 0o40755 })),
    { name: 'dev/console', mode: 0o20600, rdev: [5, 1] },
    { name: 'init', mode: 0o100755, data: init },
    { name: 'bin/busybox', mode: 0o100755, data: readFileSync(join(tree, 'bin/busybox')) },
    { name: 'bin/aos-agent', mode: 0o100755, data: agent },
    ...modules.map(([m, file]) => ({ name: `lib/modules/${m}.ko`, mode: 0o100644, data: readFileSync(file) })),
  ]), { level: 9 });

  const files = {
    bios: readFileSync(join(tree, 'usr/share/seabios/bios-256k.bin')),
    vgaBios: readFileSync(join(tree, 'usr/share/seabios/vgabios-stdvga.bin')),
    bzimage: readFileSync(join(tree, 'boot', kernelFile)),
    initrd,
    wasm: readFileSync(join(v86Dir, 'build/v86.wasm')),
  };
  const t0 = performance.now();
  const state = await bootAndSave(files);
  const bootMs = Math.round(performance.now() - t0);

  rmSync(pkg, { recursive: true, force: true });
  const share = join(pkg, 'share/linux');
  mkdirSync(share, { recursive: true });
  mkdirSync(join(pkg, 'libexec'), { recursive: true });
  writeFileSync(join(share, 'bios.bin'), files.bios);
  writeFileSync(join(share, 'vgabios.bin'), files.vgaBios);
  writeFileSync(join(share, 'v86.wasm'), files.wasm);
  writeFileSync(join(share, 'state.bin'), new Uint8Array(state));
  // The runtime image: the kernel runs it on the `linux` runtime (src/kernel/exec.ts).
  writeFileSync(join(pkg, 'libexec/linux'), '\x7fAOS linux\n');
  chmodSync(join(pkg, 'libexec/linux'), 0o755);
  const meta = JSON.parse(readFileSync(join(src, 'package.json'), 'utf8'));
  writeFileSync(join(pkg, 'package.json'), `${JSON.stringify({ ...meta, version: release }, null, 2)}\n`);
  copyFileSync(join(src, 'agentos-package.json'), join(pkg, 'agentos-package.json'));
  writeFileSync(stamp, key);
  publishPackages(join(root, 'dist'));
  return `built (kernel ${release}, boot ${bootMs} ms, state ${Math.round(state.byteLength / 2 ** 20)} MiB)`;
}

/** apt-get with a private configuration: i386 only, lists, cache and (empty) status of its own. */
function fetchDebs(dir) {
  const run = privateApt(dir);
  if (typeof run === 'string') return run;
  const debs = join(dir, 'debs');
  mkdirSync(debs, { recursive: true });
  const dep = run('apt-cache', ['depends', 'linux-image-686']);
  const kernel = /Depends: (linux-image-6\.1\.\d+-\d+-686)\b/.exec(dep.stdout ?? '')?.[1];
  if (!kernel) return 'no linux-image-686 in the i386 package lists';
  const want = [kernel, 'busybox-static', 'seabios'];
  const have = () => want.map((p) => readdirSync(debs).find((f) => f.startsWith(`${p}_`) && f.endsWith('.deb')));
  if (have().some((f) => !f)) {
    for (const f of readdirSync(debs)) rmSync(join(debs, f)); // an older kernel's, say
    const d = run('apt-get', ['-q', 'download', ...want], debs);
    if (d.status !== 0) return `apt-get download failed: ${(d.stderr || d.error?.message || '').trim().split('\n').pop()}`;
  }
  return have().map((f) => join(debs, f));
}

/**
 * apt with a private configuration under `dir` (i386 only; its own sources, lists, cache and empty
 * status): a function that runs apt-get or apt-cache with it, or why it cannot. The lists are
 * fetched once a day at most, so a cached build works offline. Also used by build-linux-root.mjs.
 */
export function privateApt(dir) {
  const lists = join(dir, 'lists');
  for (const d of [join(lists, 'partial'), join(dir, 'cache/archives/partial')]) mkdirSync(d, { recursive: true });
  const sources = join(dir, 'sources.list');
  const keyring = '/usr/share/keyrings/debian-archive-keyring.gpg';
  if (!existsSync(keyring)) return `${keyring} missing (debian-archive-keyring)`;
  writeFileSync(sources, `deb [arch=i386 signed-by=${keyring}] http://deb.debian.org/debian bookworm main\n`);
  writeFileSync(join(dir, 'status'), '');
  const opts = [
    '-o', 'APT::Architecture=i386', '-o', 'APT::Architectures::=i386',
    '-o', `Dir::Etc::SourceList=${sources}`, '-o', 'Dir::Etc::SourceParts=/nonexistent',
    '-o', `Dir::State::Lists=${lists}`, '-o', `Dir::State::Status=${join(dir, 'status')}`,
    '-o', `Dir::Cache=${join(dir, 'cache')}`, '-o', 'Debug::NoLocking=1', '-o', 'Acquire::Languages=none',
    '-o', 'APT::Sandbox::User=root', '-o', 'Acquire::Retries=2', '-o', 'Acquire::http::Timeout=30',
  ];
  const run = (tool, args, cwd) => spawnSync(tool, [...opts, ...args], { cwd, encoding: 'utf8', timeout: 300_000 });
  const fresh = readdirSync(lists).some((f) => f.endsWith('_Packages') || f.includes('_Packages.'));
  const stampFile = join(dir, 'updated');
  if (!fresh || !existsSync(stampFile) || Date.now() - Number(readFileSync(stampFile, 'utf8')) > 86_400_000) {
    const u = run('apt-get', ['-q', 'update']);
    if (u.status !== 0 && !fresh) return `apt-get update failed: ${(u.stderr || u.error?.message || '').trim().split('\n').pop()}`;
    if (u.status === 0) writeFileSync(stampFile, String(Date.now()));
  }
  return run;
}

/** The guest's agent: a static i386 binary with no libc (its system calls are inline). */
function compileAgent(source, binary) {
  const cc = spawnSync('gcc', [
    '-m32', '-static', '-nostdlib', '-Os', '-fno-pie', '-no-pie', '-ffreestanding', '-fno-builtin', '-fno-stack-protector',
    '-fno-asynchronous-unwind-tables', '-Wl,--build-id=none', '-s', '-o', binary, source,
  ], { encoding: 'utf8' });
  if (cc.status !== 0) return `gcc -m32 could not build the guest's agent: ${(cc.stderr || cc.error?.message || '').trim().split('\n').pop()}`;
  return readFileSync(binary);
}

function findModule(dir, name) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) {
      const found = findModule(join(dir, e.name), name);
      if (found) return found;
    } else if (e.name === name) return join(dir, e.name);
  }
  return null;
}

/** A cpio archive in the "newc" format the kernel unpacks as its initramfs. */
function cpio(entries) {
  const parts = [];
  const pad = (n) => Buffer.alloc((4 - (n % 4)) % 4);
  const hex = (n) => n.toString(16).padStart(8, '0');
  let ino = 1;
  for (const e of [...entries, { name: 'TRAILER!!!', mode: 0 }]) {
    const data = e.data ?? Buffer.alloc(0);
    const name = Buffer.from(`${e.name}\0`);
    const [major, minor] = e.rdev ?? [0, 0];
    const header = `070701${[ino++, e.mode, 0, 0, 1, 0, data.length, 0, 0, major, minor, name.length, 0].map(hex).join('')}`;
    parts.push(Buffer.from(header), name, pad(110 + name.length), data, pad(data.length));
  }
  return Buffer.concat(parts);
}

/** Boot the guest in v86 until init reports ready, then save its state. */
async function bootAndSave(files) {
  const { V86 } = await import('v86');
  let serial = '';
  const emulator = new V86({
    wasm_fn: async (imports) => (await globalThis.WebAssembly.instantiate(files.wasm, imports)).instance.exports,
    bios: { buffer: files.bios.buffer.slice(files.bios.byteOffset, files.bios.byteOffset + files.bios.length) },
    vga_bios: { buffer: files.vgaBios.buffer.slice(files.vgaBios.byteOffset, files.vgaBios.byteOffset + files.vgaBios.length) },
    bzimage: { buffer: files.bzimage.buffer.slice(files.bzimage.byteOffset, files.bzimage.byteOffset + files.bzimage.length) },
    initrd: { buffer: files.initrd.buffer.slice(files.initrd.byteOffset, files.initrd.byteOffset + files.initrd.length) },
    cmdline: CMDLINE,
    memory_size: MEMORY_MB * 2 ** 20,
    vga_memory_size: 2 * 2 ** 20,
    uart1: true,
    uart2: true,
    // The device the runtime answers; at build time nothing mounts it.
    filesystem: { handle9p: () => {} },
    // The NIC (v86's default, named so the state's hardware is plain): the runtime's adapter
    // answers it (src/runtimes/linux/net.ts); at build time nothing is attached.
    net_device: { type: 'ne2k' },
    disable_keyboard: true,
    disable_mouse: true,
    disable_speaker: true,
    autostart: true,
  });
  try {
    await new Promise((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`build-linux: the guest did not get ready in ${BOOT_TIMEOUT_MS / 1000} s; its console:\n${serial}`)), BOOT_TIMEOUT_MS);
      emulator.add_listener('serial0-output-byte', (b) => {
        serial += String.fromCharCode(b);
        // Ready: the agent zeroes the free memory (v86 saves only nonzero pages), then says so.
        if (b === 0x0a && serial.endsWith('\x02R\n')) emulator.serial0_send('F\n');
        if (serial.includes('\x02F\n')) {
          clearTimeout(timer);
          ok();
        }
      });
    });
    if (serial.replace('\x02R\n', '').replace('\x02F\n', '').trim()) console.warn(`build-linux: the guest's console said:\n${serial}`);
    return await emulator.save_state();
  } finally {
    await emulator.destroy();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = performance.now();
  const r = await buildLinux(resolve(dirname(fileURLToPath(import.meta.url)), '..'));
  console.log(`build-linux: ${r} in ${Math.round(performance.now() - t0)}ms`);
}

// Building and compressing (issue 16): `make -j2` of a 20-file C project with
// the VM's clang (the installable clang package, WebAssembly) against the
// host's GNU make with gcc (the machine has no native clang), and xz -6 /
// bzip2 -9 of 10 MB against XZ Utils and bzip2 — each agentOS time as a
// ratio to the native one in the same run, and each result checked.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boot, type Machine } from '../src/host/node/index.js';
import type { Figure } from './run.js';

const MB = 1_000_000;
const FILES = 20;
const dec = new TextDecoder();
const here = new URL('.', import.meta.url);

/** The C project: 20 translation units of some weight, a header, and a Makefile using the implicit rules. */
function project(): Record<string, string> {
  const files: Record<string, string> = {};
  files['util.h'] = Array.from({ length: FILES }, (_, i) => `unsigned f${i}(unsigned);`).join('\n') + '\n';
  for (let i = 0; i < FILES; i++) {
    const body = Array.from({ length: 40 }, (_, k) => `  for (unsigned j${k} = 0; j${k} < ${k + 3}; j${k}++) s = s * 31 + j${k} + (s >> ${k % 7});`).join('\n');
    files[`f${i}.c`] = `#include "util.h"\n#include <string.h>\nstatic unsigned tab[${64 + i}];\nunsigned f${i}(unsigned x) {\n  unsigned s = x;\n${body}\n  memset(tab, s & 0xff, sizeof tab);\n  return s + tab[${i}];\n}\n`;
  }
  files['main.c'] = `#include <stdio.h>\n#include "util.h"\nint main(void) {\n  unsigned t = 0;\n${Array.from({ length: FILES }, (_, i) => `  t += f${i}(${i});`).join('\n')}\n  printf("%u\\n", t);\n  return 0;\n}\n`;
  const objs = ['main.o', ...Array.from({ length: FILES }, (_, i) => `f${i}.o`)].join(' ');
  files.Makefile = `CFLAGS = -O2\nOBJS = ${objs}\nprog: $(OBJS)\n\t$(CC) -o $@ $(OBJS)\n$(OBJS): util.h\nclean:\n\trm -f prog $(OBJS)\n.PHONY: clean\n`;
  return files;
}

function text10MB(): Buffer {
  let x = 0x5eed;
  const words = ['alpha', 'beta', 'gamma', 'delta', 'foo', 'bar', 'baz', 'quux', 'lorem', 'ipsum', 'dolor', 'sit'];
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < 10 * MB; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const line = `${i} ${words[(x >>> 0) % 12]} ${words[(x >>> 8) % 12]} ${words[(x >>> 16) % 12]} ${(x >>> 0) % 1000000}\n`;
    parts.push(line);
    size += line.length;
  }
  return Buffer.from(parts.join(''));
}

async function vmRun(m: Machine, cmd: string, cwd: string): Promise<{ ms: number; out: string }> {
  const t0 = performance.now();
  const r = await m.run(['/bin/sh', '-c', cmd], { cwd, env: { PATH: '/usr/local/bin:/usr/bin:/bin', PWD: cwd, HOME: '/root' }, timeoutMs: 600_000 });
  const ms = performance.now() - t0;
  if (r.exitCode !== 0) throw new Error(`build bench, agentOS: ${cmd}: ${dec.decode(r.stderr)}`);
  return { ms, out: dec.decode(r.stdout) };
}

function hostRun(cmd: string, cwd: string): { ms: number; out: string } {
  const t0 = performance.now();
  const r = spawnSync('bash', ['-c', cmd], { cwd, maxBuffer: 64 * MB });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`build bench, native: ${cmd}: ${r.stderr}`);
  return { ms, out: r.stdout.toString() };
}

/** Copy dist/clang into the VM and install it as a user would (agentos-software). */
async function installClang(m: Machine): Promise<boolean> {
  const list = new URL('../clang.files.json', here);
  if (!existsSync(list)) return false;
  const files = JSON.parse(readFileSync(list, 'utf8')) as [string, number][];
  for (const [path, mode] of files) {
    await m.mkdirp(`/tmp/pkg-clang/${path}`.replace(/\/[^/]+$/, ''));
    await m.writeFile(`/tmp/pkg-clang/${path}`, readFileSync(new URL(`../clang/${path}`, here)), mode);
  }
  const r = await m.run(['/opt/agentos/bin/agentos-software', 'install', '/tmp/pkg-clang']);
  if (r.exitCode !== 0) throw new Error(`build bench: installing clang: ${dec.decode(r.stderr)}`);
  return true;
}

const figure = (name: string, value: number, base: number, baseName: string, goal: number): Figure => ({
  name: `${name}: ${(value / base).toFixed(2)}× native`,
  host: 'node', value, unit: 'ms', goal: `≤ ${goal}× native`, met: value / base <= goal,
  baseline: { name: baseName, value: base, unit: 'ms' },
});

export async function runBuildBenches(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'agentos-bench-build-'));
  const m = await boot();
  const figures: Figure[] = [];
  try {
    // Compression: 10 MB of text, checked by decompressing on the other side.
    const text = text10MB();
    writeFileSync(join(dir, 'text'), text);
    await m.mkdirp('/tmp/c');
    await m.writeFile('/tmp/c/text', text);
    for (const [name, cmd, check, goal] of [
      ['xz -6 of 10 MB', 'xz -6 -c text > text.xz', 'xz -dc text.xz | md5sum', 3],
      ['bzip2 -9 of 10 MB', 'bzip2 -9 -c text > text.bz2', 'bzip2 -dc text.bz2 | md5sum', 5],
      ['xz -d of 10 MB', 'xz -dc text.xz > /dev/null', 'true', 3],
      ['bzip2 -d of 10 MB', 'bzip2 -dc text.bz2 > /dev/null', 'true', 5],
    ] as const) {
      const a = await vmRun(m, cmd, '/tmp/c');
      const n = hostRun(cmd, dir);
      const got = (await vmRun(m, check, '/tmp/c')).out;
      if (got !== hostRun(check, dir).out) throw new Error(`build bench: ${name}: the VM's output does not decompress to the input`);
      figures.push(figure(name, a.ms, n.ms, `native ${cmd.split(' ')[0]}`, goal));
    }
    // make -j2 of the C project.
    if (!(await installClang(m))) {
      console.log('bench: dist/clang missing (scripts/build-wasm.mjs builds it): make -j2 with clang skipped');
      return figures;
    }
    const files = project();
    mkdirSync(join(dir, 'proj'));
    await m.mkdirp('/tmp/proj');
    for (const [name, body] of Object.entries(files)) {
      writeFileSync(join(dir, 'proj', name), body);
      await m.writeFile(`/tmp/proj/${name}`, body);
    }
    // A first compile warms the kernel's compiled-module cache (75 MB of LLVM), as a second build would find it.
    await vmRun(m, 'cc -c -o /tmp/warm.o f0.c', '/tmp/proj');
    const a = await vmRun(m, 'make -s -j2 && ./prog', '/tmp/proj');
    const n = hostRun('make -s -j2 CC=gcc && ./prog', join(dir, 'proj'));
    if (a.out !== n.out) throw new Error(`build bench: the VM's program printed ${a.out}, native ${n.out}`);
    figures.push(figure(`make -j2 of a ${FILES + 1}-file C project (VM clang, WebAssembly)`, a.ms, n.ms, 'native make -j2 with gcc', 20));
    return figures;
  } finally {
    await m.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

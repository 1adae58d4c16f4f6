// The WebAssembly runtime on the Node host: the shared cases (also run in
// Chromium by e2e/wasm.spec.ts), each on a fresh machine, and the module
// cache, errno table and import surface on their own.

import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Errno } from '../../../src/abi/errno.js';
import type { Stat } from '../../../src/abi/stat.js';
import { boot } from '../../../src/host/node/index.js';
import { WasiErrno } from '../../../src/runtimes/wasm/abi.js';
import { ModuleCache, type ModuleFiles } from '../../../src/runtimes/wasm/cache.js';
import { wasiErrno } from '../../../src/runtimes/wasm/errno.js';
import { PREVIEW1_FUNCTIONS } from '../../../src/runtimes/wasm/preview1.js';
import { installWasm, WASM_PROGRAMS, wasmCases } from './cases.js';

// This file runs from dist/test/runtimes/wasm/; the WASI programs are built into dist/wasm/.
const binaries = Object.fromEntries(
  WASM_PROGRAMS.map((n) => [n, new Uint8Array(readFileSync(new URL(`../../../wasm/${n}.wasm`, import.meta.url)))]),
);

for (const c of wasmCases) {
  test(`${c.name} (node)`, async () => {
    const m = await boot();
    try {
      await installWasm(m, binaries);
      await c.run(m);
    } finally {
      await m.stop();
    }
  });
}

/** A file system of one file for the cache: counts reads, and its identity can change. */
function oneFile(bytes: Uint8Array) {
  const st = { dev: 1, ino: 7, mtimeMs: 1000, size: bytes.byteLength } as Stat;
  const fs = {
    st,
    reads: 0,
    open: () => 3,
    close: () => {},
    fstat: () => ({ ...st }),
    read: (_fd: number, len?: number) => {
      fs.reads++;
      return bytes.subarray(0, len);
    },
  };
  return fs;
}

test('module cache: the second load of the same file neither reads nor compiles it', async () => {
  const cache = new ModuleCache(new Set(PREVIEW1_FUNCTIONS));
  const fs = oneFile(binaries.hello);
  const a = await cache.load(fs as unknown as ModuleFiles, '/bin/hello');
  assert.equal(a.problem, undefined);
  const reads = fs.reads;
  const b = await cache.load(fs as unknown as ModuleFiles, '/bin/hello');
  assert.equal(b.module, a.module, 'same compiled module');
  assert.equal(fs.reads, reads, 'no read on a hit');
  assert.deepEqual([cache.compiles, cache.hits], [1, 1]);
  fs.st.mtimeMs = 2000; // rewritten in place: same inode, new mtime
  const c = await cache.load(fs as unknown as ModuleFiles, '/bin/hello');
  assert.notEqual(c.module, a.module, 'recompiled after a change');
  assert.equal(cache.compiles, 2);
});

test('module cache: modules that are not WASI commands are found out at compile time', async () => {
  const cache = new ModuleCache(new Set(['fd_write']));
  const p = await cache.load(oneFile(binaries.hello) as unknown as ModuleFiles, '/x');
  assert.match(p.problem ?? '', /imports wasi_snapshot_preview1\.\w+ \(function\), which agentOS does not provide/);
});

test('preview 1 is complete: every function of the witx is provided', () => {
  assert.equal(new Set(PREVIEW1_FUNCTIONS).size, 46);
  for (const n of WASM_PROGRAMS) {
    const imports = WebAssembly.Module.imports(new WebAssembly.Module(binaries[n]));
    for (const i of imports) assert.ok((PREVIEW1_FUNCTIONS as readonly string[]).includes(i.name), `${n} imports ${i.name}`);
  }
});

test('errno: kernel (Linux) numbers map onto WASI numbers', () => {
  const pairs: [number, number][] = [
    [Errno.EPERM, WasiErrno.PERM], [Errno.ENOENT, WasiErrno.NOENT], [Errno.EBADF, WasiErrno.BADF],
    [Errno.EAGAIN, WasiErrno.AGAIN], [Errno.EACCES, WasiErrno.ACCES], [Errno.EEXIST, WasiErrno.EXIST],
    [Errno.ENOTDIR, WasiErrno.NOTDIR], [Errno.EISDIR, WasiErrno.ISDIR], [Errno.EINVAL, WasiErrno.INVAL],
    [Errno.ESPIPE, WasiErrno.SPIPE], [Errno.EPIPE, WasiErrno.PIPE], [Errno.ENOTEMPTY, WasiErrno.NOTEMPTY],
    [Errno.ELOOP, WasiErrno.LOOP], [Errno.ENOSYS, WasiErrno.NOSYS], [Errno.ENOTSUP, WasiErrno.NOTSUP],
    [Errno.EXDEV, WasiErrno.XDEV], [Errno.EROFS, WasiErrno.ROFS], [Errno.ENAMETOOLONG, WasiErrno.NAMETOOLONG],
  ];
  for (const [linux, wasi] of pairs) assert.equal(wasiErrno(linux), wasi, `errno ${linux}`);
  assert.equal(wasiErrno(9999), WasiErrno.IO, 'unknown errors are EIO');
});

// The WebAssembly runtime on the Node host: the shared cases (also run in
// Chromium by e2e/wasm.spec.ts), each on a fresh machine, and the module
// cache, errno table and import surface on their own.

import { readFileSync } from 'node:fs';
import assert, { ok } from 'node:assert/strict';
import { test } from 'node:test';
import { Errno } from '../../../src/abi/errno.js';
import type { Inode } from '../../../src/kernel/vfs/types.js';
import { WasmModules } from '../../../src/kernel/wasm-modules.js';
import { capMemory } from '../../../src/abi/wasm-limits.js';
import { boot } from '../../../src/host/node/index.js';
import { WasiErrno } from '../../../src/runtimes/wasm/abi.js';
import { checkProgram } from '../../../src/runtimes/wasm/program.js';
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

/** The smallest WASIX module: it imports wasix_32v1.thread_spawn (i32) -> i32 and nothing else. */
function wasixModule(): Uint8Array<ArrayBuffer> {
  const name = (s: string) => [s.length, ...new TextEncoder().encode(s)];
  const imports = [1, ...name('wasix_32v1'), ...name('thread_spawn'), 0, 0];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    1, 6, 1, 0x60, 1, 0x7f, 1, 0x7f,
    2, imports.length, ...imports,
  ]);
}

/** A file of the kernel's for the module cache: its identity can change. */
function inode(bytes: Uint8Array) {
  const node = { fs: { dev: 1, read: () => bytes }, ino: 7, mtimeMs: 1000, size: bytes.byteLength };
  return node as typeof node & Inode;
}

test('kernel module cache: a file is compiled once, then every exec gets the same Module at once', async () => {
  const modules = new WasmModules();
  const file = inode(binaries.hello);
  const pending = modules.get(file);
  ok(pending instanceof Promise, 'the first exec waits for the compile');
  ok(modules.get(file) === pending, 'a concurrent exec shares the compile');
  const a = await pending;
  ok(a instanceof WebAssembly.Module);
  assert.equal(modules.get(file), a, 'then the Module itself, without waiting');
  assert.equal(modules.compiles, 1);
  file.mtimeMs = 2000; // rewritten in place: same inode, new mtime
  const b = await modules.get(file);
  assert.notEqual(b, a, 'recompiled after a change');
  assert.equal(modules.compiles, 2);
  assert.match(String(await modules.get(inode(new TextEncoder().encode('\0asm junk')))), /^invalid WebAssembly module/, 'invalid bytes: why');
});

test('a module that is not a WASI command is refused with the reason; WASIX is recognised by its imports', () => {
  const notAll = checkProgram(new WebAssembly.Module(binaries.hello as Uint8Array<ArrayBuffer>), new Set(['fd_write']));
  assert.match(String(notAll), /imports wasi_snapshot_preview1\.\w+ \(function\), which agentOS does not provide/);
  const wasix = checkProgram(new WebAssembly.Module(wasixModule()), new Set(PREVIEW1_FUNCTIONS));
  assert.equal(wasix, 'no _start function (not a WASIX command)');
  const real = checkProgram(new WebAssembly.Module(binaries.wasix as Uint8Array<ArrayBuffer>), new Set(PREVIEW1_FUNCTIONS));
  assert.equal(typeof real === 'object' && real.wasix, true, 'a WASIX command');
  assert.equal(checkProgram('invalid WebAssembly module (x)', new Set()), 'invalid WebAssembly module (x)', "the kernel's reason");
});

test('memory ceiling: the memory section gets a maximum; a minimum above the ceiling is refused', () => {
  const limits = (bytes: Uint8Array) =>
    new WebAssembly.Instance(new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>), {}).exports.m as WebAssembly.Memory;
  // (memory (export "m") 1) without a maximum; then with one of 60000 pages; then a minimum of 9.
  const header = [0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0];
  const exp = [7, 5, 1, 1, 0x6d, 2, 0];
  const noMax = new Uint8Array([...header, 5, 3, 1, 0, 1, ...exp]);
  const capped = capMemory(noMax, 4);
  ok(capped instanceof Uint8Array);
  const mem = limits(capped);
  mem.grow(3);
  assert.throws(() => mem.grow(1), RangeError, 'no growth past the ceiling');
  const bigMax = new Uint8Array([...header, 5, 6, 1, 1, 1, 0xe0, 0xd4, 0x03, ...exp]); // max 60000 pages
  const m2 = limits(capMemory(bigMax, 2) as Uint8Array);
  m2.grow(1);
  assert.throws(() => m2.grow(1), RangeError, 'a declared maximum is lowered');
  const bigMin = new Uint8Array([...header, 5, 3, 1, 0, 9, ...exp]);
  assert.match(String(capMemory(bigMin, 4)), /needs 576 KiB of memory, more than the 256 KiB a process may have/);
  const junk = new Uint8Array([...header, 5, 9, 1]);
  assert.equal(capMemory(junk), junk, 'a section that does not parse is left to the compiler');
});

test('preview 1 is complete: every function of the witx is provided', () => {
  assert.equal(new Set(PREVIEW1_FUNCTIONS).size, 46);
  for (const n of WASM_PROGRAMS) {
    const imports = WebAssembly.Module.imports(new WebAssembly.Module(binaries[n]));
    for (const i of imports.filter((x) => x.module === 'wasi_snapshot_preview1')) {
      assert.ok((PREVIEW1_FUNCTIONS as readonly string[]).includes(i.name), `${n} imports ${i.name}`);
    }
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

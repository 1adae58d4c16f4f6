// WASIX programs (modules importing wasix_32v1/wasix_64v1) through
// @wasmer/sdk (decision 0021). Wasmer runs them in its own sandbox: its own
// workers, its own in-memory file system. The SDK's host-filesystem bridge
// cannot be wired to the kernel (it is experimental, installed only in the
// SDK's browser workers, with an undocumented protocol), so the working
// directory is copied in around the run: the cwd's tree becomes the sandbox's
// /workspace (the program's cwd), and after the run what changed there is
// written back, what is new created, what went away removed. Absolute paths
// of the VFS are not visible to the program; stdin, stdout and stderr stream.
//
// The SDK is loaded at run time, not bundled: from node_modules on the Node
// host, from the page's server in the browser (the build copies it to
// dist/web/vendor/wasmer-sdk; its runtime loads its worker and wasm files
// relative to itself). Where it cannot be loaded the program is refused by name.
// In the browser its workers start only through wasix-workers.ts, confined.

import { SysError } from '../../abi/errno.js';
import { DT_DIR, DT_REG } from '../../abi/stat.js';
import type { Sys } from '../../libc/sys.js';
import type { ProcessContext } from '../context.js';
import { installWasmerWorkers, WASMER_SDK_PATH } from './wasix-workers.js';

const WORKSPACE = '/workspace';
/** What may be copied in: a cwd beyond this is refused rather than half copied. */
const MAX_FILES = 5000;
const MAX_BYTES = 256 << 20;
const POLLIN = 1;
const POLLHUP = 16;

/** The subset of @wasmer/sdk used here (the same in its Node and browser entry points). */
interface Sdk {
  Wasmer: new (o: { cache: 'memory' }) => {
    packages: { load(bytes: Uint8Array): Promise<unknown> };
    sandboxes: { create(o: { packages: unknown[]; files: Record<string, Uint8Array> }): Promise<Sandbox> };
    close(): Promise<void>;
  };
}
interface Sandbox {
  command(pkg: unknown, args: string[], o: { cwd: string; env: Record<string, string> }): {
    spawn(o: { stdin: 'pipe'; stdout: 'pipe'; stderr: 'pipe' }): Promise<Proc>;
  };
  fs: {
    readDir(path: string): Promise<readonly { name: string; kind: 'file' | 'directory' }[]>;
    readFile(path: string): Promise<Uint8Array>;
    mkdir(path: string, o: { recursive: boolean }): Promise<void>;
  };
  close(): Promise<void>;
}
interface Proc {
  stdin: { write(b: Uint8Array): Promise<void>; close(): Promise<void> } | null;
  stdout: AsyncIterable<Uint8Array> | null;
  stderr: AsyncIterable<Uint8Array> | null;
  wait(): Promise<{ exitCode: number | null; reason: string }>;
}

/** The cwd's regular files (by path relative to it) and directories. */
interface Tree {
  files: Map<string, Uint8Array>;
  dirs: string[];
}

/** Why WASIX cannot run here, or null. */
export async function runWasix(ctx: ProcessContext): Promise<string | null> {
  // In the browser the SDK starts its own workers: only confined ones, through our stand-in.
  if (!isNode()) {
    const why = installWasmerWorkers();
    if (why) return why;
    // The stand-in stays for the rest of this worker's life: it is not pooled again.
    ctx.retire = true;
  }
  const sdk = await loadSdk();
  if (!sdk) return 'WASIX program: @wasmer/sdk cannot be loaded on this host (decision 0021)';
  const sys = ctx.sys;
  const tree = copyTree(sys);
  if (typeof tree === 'string') return tree;
  // The SDK leaves globals behind (on Node a Worker constructor, network and
  // cache hooks over node:net and node:fs): this worker must not run another program.
  ctx.retire = true;
  const wasmer = new sdk.Wasmer({ cache: 'memory' });
  let status: number;
  try {
    const pkg = await wasmer.packages.load(sys.readFile(ctx.file));
    const files: Record<string, Uint8Array> = {};
    for (const [rel, bytes] of tree.files) files[`${WORKSPACE}/${rel}`] = bytes;
    const sandbox = await wasmer.sandboxes.create({ packages: [pkg], files });
    try {
      for (const d of tree.dirs) await sandbox.fs.mkdir(`${WORKSPACE}/${d}`, { recursive: true });
      const env = Object.fromEntries(ctx.env.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
      const proc = await sandbox.command(pkg, ctx.argv.slice(1), { cwd: WORKSPACE, env: { ...env, PWD: WORKSPACE } })
        .spawn({ stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' });
      const done = { value: false };
      const pumps = [pumpIn(sys, proc, done), pumpOut(sys, proc.stdout, 1), pumpOut(sys, proc.stderr, 2)];
      const r = await proc.wait();
      done.value = true;
      await Promise.all(pumps);
      await syncBack(sys, sandbox, tree);
      status = r.exitCode ?? 128 + 9;
    } finally {
      await sandbox.close();
    }
  } finally {
    await wasmer.close();
  }
  return ctx.exit(status);
}

function isNode(): boolean {
  return typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string';
}

/** The SDK: from node_modules on the Node host, from the page's server (dist/web/vendor) in the browser. */
async function loadSdk(): Promise<Sdk | null> {
  // Variables, not literals: bundlers must leave these imports to run time.
  const url = isNode() ? '@wasmer/sdk/node' : new URL(`${WASMER_SDK_PATH}dist/index.js`, self.location.origin).href;
  try {
    return (await import(/* @vite-ignore */ url)) as Sdk;
  } catch {
    return null;
  }
}

/**
 * The cwd's tree: regular files and directories on the cwd's own filesystem
 * (like find -xdev: /proc, /dev and other mounts stay out); symlinks, devices
 * and what cannot be read are not copied.
 */
function copyTree(sys: Sys): Tree | string {
  const tree: Tree = { files: new Map(), dirs: [] };
  const dev = sys.stat('.').dev;
  let bytes = 0;
  const walk = (rel: string): string | null => {
    for (const e of sys.readdir(rel || '.')) {
      if (e.name === '.' || e.name === '..') continue;
      const path = rel ? `${rel}/${e.name}` : e.name;
      try {
        if (e.type === DT_DIR && sys.lstat(path).dev === dev) {
          tree.dirs.push(path);
          const why = walk(path);
          if (why) return why;
        } else if (e.type === DT_REG) {
          const data = sys.readFile(path);
          bytes += data.byteLength;
          tree.files.set(path, data);
        }
      } catch (err) {
        if (!(err instanceof SysError)) throw err;
      }
      if (tree.files.size > MAX_FILES || bytes > MAX_BYTES) {
        return `WASIX program: the working directory is too large to copy into Wasmer's sandbox (over ${MAX_FILES} files or ${MAX_BYTES >> 20} MiB)`;
      }
    }
    return null;
  };
  return walk('') ?? tree;
}

/** Write back what the program changed under /workspace. */
async function syncBack(sys: Sys, sandbox: Sandbox, before: Tree): Promise<void> {
  const seenFiles = new Set<string>();
  const seenDirs = new Set<string>();
  const walk = async (rel: string): Promise<void> => {
    for (const e of await sandbox.fs.readDir(rel ? `${WORKSPACE}/${rel}` : WORKSPACE)) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.kind === 'directory') {
        seenDirs.add(path);
        if (!before.dirs.includes(path)) sys.mkdir(path);
        await walk(path);
      } else {
        seenFiles.add(path);
        const data = await sandbox.fs.readFile(`${WORKSPACE}/${path}`);
        const old = before.files.get(path);
        if (!old || !same(old, data)) sys.writeFile(path, data);
      }
    }
  };
  await walk('');
  for (const path of before.files.keys()) if (!seenFiles.has(path)) sys.unlink(path);
  for (const path of [...before.dirs].reverse()) if (!seenDirs.has(path)) sys.rmdir(path);
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && a.every((x, i) => x === b[i]);
}

/** Our stdin to the program's, without blocking the worker (the SDK needs its event loop). */
async function pumpIn(sys: Sys, proc: Proc, done: { value: boolean }): Promise<void> {
  const stdin = proc.stdin;
  if (!stdin) return;
  try {
    while (!done.value) {
      const ready = sys.poll([[0, POLLIN]], 0);
      if (ready.length && ready[0][1] & (POLLIN | POLLHUP)) {
        const chunk = sys.read(0);
        if (!chunk.byteLength) break;
        await stdin.write(chunk);
      } else {
        await new Promise((r) => setTimeout(r, 5));
      }
    }
  } catch {
    // No stdin (closed), or the program has gone: nothing more to send.
  }
  await stdin.close().catch(() => {});
}

async function pumpOut(sys: Sys, from: AsyncIterable<Uint8Array> | null, fd: number): Promise<void> {
  if (!from) return;
  for await (const chunk of from) sys.writeAll(fd, chunk);
}

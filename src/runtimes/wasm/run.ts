// The WebAssembly runtime: a `\0asm` file runs as a WASI preview-1 command on
// the kernel's syscalls (decision 0013).
//
// The namespace is the VFS itself: fd 3 is a preopen of `/`, fd 4 one of the
// cwd under its absolute name, fd 5 the cwd again as ".". wasi-libc keeps its
// own cwd, starting at `/`, and maps both `x` and `/x` to the last preopen
// named `/` or `.`, here fd 5: a program built anywhere finds `x` in the cwd,
// and `/x` at / when the cwd has no `x` (calls/path.ts). Programs built by
// agentOS's toolchain set libc's cwd from PWD at start-up (which is why PWD is
// made to name the process's real cwd here) and hand `/` back to fd 3, so
// their paths are exact; so does CRuby, which gets no fd 5.

import { SIGABRT } from '../../abi/signal.js';
import { O_CLOEXEC, O_DIRECTORY, O_RDONLY } from '../../abi/fcntl.js';
import type { ProcessContext } from '../context.js';
import { checkProgram } from './program.js';
import { preview1, PREVIEW1_FUNCTIONS, WASI_MODULE } from './preview1.js';
import { rubyImports, runRuby } from './ruby.js';
import { runWasix } from './wasix.js';
import { WasiState } from './state.js';

/** The status bash gives a file it cannot execute. */
const CANNOT_EXECUTE = 126;

const PROVIDED: ReadonlySet<string> = new Set(PREVIEW1_FUNCTIONS);

export async function runWasm(ctx: ProcessContext): Promise<void> {
  const name = ctx.argv[0] ?? ctx.file;
  const program = checkProgram(ctx.module, PROVIDED);
  if (typeof program === 'string') refuse(ctx, name, program);
  if (program.wasix) {
    const why = await runWasix(ctx);
    if (why) refuse(ctx, name, why);
  }

  const cwd = cwdOf(ctx);
  const w = new WasiState(ctx, ctx.argv, environment(ctx, cwd));
  preopen(w, cwd, !program.ruby);
  try {
    const extra = program.ruby ? rubyImports(ctx, program.module) : {};
    const instance = new WebAssembly.Instance(program.module, { ...extra, [WASI_MODULE]: preview1(w) });
    w.mem.bind(instance.exports.memory as WebAssembly.Memory);
    if (program.ruby) runRuby(ctx, instance);
    (instance.exports._start as () => void)();
  } catch (e) {
    if (isTrap(e)) abort(ctx, name, e as Error);
    throw e;
  }
}

function refuse(ctx: ProcessContext, name: string, why: string): never {
  ctx.sys.writeAll(2, `${name}: cannot execute: ${why}\n`);
  return ctx.exit(CANNOT_EXECUTE);
}

function isTrap(e: unknown): boolean {
  return e instanceof WebAssembly.RuntimeError || (e instanceof RangeError && /call stack/i.test(e.message));
}

/** A trap is the guest's crash: abort() in wasi-libc is one. Die of SIGABRT as a native program would. */
function abort(ctx: ProcessContext, name: string, e: Error): never {
  ctx.sys.writeAll(2, `${name}: wasm trap: ${e.message}\n`);
  ctx.sys.kill(ctx.pid, SIGABRT);
  return ctx.exit(128 + SIGABRT); // only if SIGABRT is ignored
}

/** The cwd's absolute path, or null if it has none any more (removed). */
function cwdOf(ctx: ProcessContext): string | null {
  try {
    return ctx.sys.getcwd();
  } catch {
    return null;
  }
}

/** The environment with PWD naming the real cwd, as a POSIX shell would leave it. */
function environment(ctx: ProcessContext, cwd: string | null): string[] {
  const i = ctx.env.findIndex((kv) => kv.startsWith('PWD='));
  const pwd = i >= 0 ? ctx.env[i].slice(4) : undefined;
  if (cwd === null || pwd === cwd || (pwd?.startsWith('/') && sameFile(ctx, pwd, '.'))) return ctx.env;
  return [...ctx.env.filter((_, j) => j !== i), `PWD=${cwd}`];
}

/** A logical PWD (through symlinks) is kept if it leads to the cwd. */
function sameFile(ctx: ProcessContext, a: string, b: string): boolean {
  try {
    const x = ctx.sys.stat(a);
    const y = ctx.sys.stat(b);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

/**
 * fd 3: `/`; fd 4: the cwd under its absolute name (longest-prefix matches pick
 * it for paths below it); fd 5 (`dotted`): the cwd as ".", which libc's own cwd
 * of `/` resolves relative paths through.
 */
function preopen(w: WasiState, cwd: string | null, dotted: boolean): void {
  const dir = (path: string): number | null => {
    try {
      return w.sys.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    } catch {
      return null; // A directory the process may not read is not offered.
    }
  };
  const root = dir('/');
  if (root !== null) w.fds.preopen(root, '/');
  if (cwd === null || cwd === '/') return;
  const here = dir('.');
  if (here === null) return;
  w.fds.preopen(here, cwd);
  const dot = dotted ? dir('.') : null;
  if (dot !== null) w.fds.preopen(dot, '.', root ?? undefined);
}

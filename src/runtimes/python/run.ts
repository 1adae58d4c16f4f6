// The Python runtime: a `\x7fAOS python` runtime image runs CPython (Pyodide)
// as a process (decision 0015). Each process gets a fresh interpreter whose
// files, fds, cwd, environment, children and SIGINT are the kernel's.

import { SIG_DFL, SIGINT } from '../../abi/signal.js';
import type { ProcessContext } from '../context.js';
import { parseArgs, USAGE, UsageError, type PyArgs } from './args.js';
import { installBridge } from './bridge.js';
import { prepareNext, takeInterpreter, type Pyodide } from './engine.js';
import { makeKfs, type EmFS } from './kfs.js';
import { installKernelDevices, installStdio, mountVfs } from './mount.js';
import { bindPoll } from './poll.js';
import { PySignals } from './signals.js';
import { installModules } from './files.js';
import { setZone, type ZoneModule } from './tz.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- PyProxy calls are untyped. */

const basename = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

export async function runPython(ctx: ProcessContext): Promise<void> {
  const argv0 = ctx.argv[0] ?? 'python3';
  const name = basename(argv0);
  // `pip` and `pip3` are the same runtime image: they run `python3 -m pip`.
  const args = name.startsWith('pip') ? ['-m', 'pip', ...ctx.argv.slice(1)] : ctx.argv.slice(1);
  let opts: PyArgs;
  try {
    opts = parseArgs(args, isatty(ctx, 0));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    ctx.sys.writeAll(2, `${e.message}\nusage: ${name} [option] ... [-c cmd | -m mod | file | -] [arg] ...\nTry \`python -h' for more information.\n`);
    return ctx.exit(2);
  }
  if (opts.info === 'help') {
    ctx.sys.writeAll(1, USAGE);
    return ctx.exit(0);
  }

  const py = await takeInterpreter(ctx.memoryBytes);
  let status: number;
  try {
    if (opts.info === 'version') {
      ctx.sys.writeAll(1, `Python ${py.runPython('import sys; sys.version.split()[0]') as string}\n`);
      status = 0;
    } else {
      status = start(ctx, py, opts);
    }
  } finally {
    bindPoll(null);
    prepareNext(); // the next python3 in this worker starts from a ready interpreter
  }
  if (status === -SIGINT) {
    // An uncaught KeyboardInterrupt ends the process as SIGINT would (CPython does the same).
    ctx.sys.sigaction(SIGINT, SIG_DFL);
    ctx.sys.kill(ctx.pid, SIGINT);
    status = 128 + SIGINT;
  }
  ctx.exit(status);
}

function isatty(ctx: ProcessContext, fd: number): boolean {
  try {
    return ctx.sys.isatty(fd);
  } catch {
    return false;
  }
}

/** Wire the interpreter to the process and run the program; returns its exit status. */
function start(ctx: ProcessContext, py: Pyodide, opts: PyArgs): number {
  const sys = ctx.sys;
  const FS: EmFS = py.FS;
  const signals = new PySignals(ctx);
  const kfs = makeKfs(FS, py.ERRNO_CODES, sys, () => signals.interrupted());
  installStdio(FS, kfs, sys);
  installKernelDevices(FS, kfs, sys);
  mountVfs(FS, kfs, sys);
  bindPoll({ FS, sys, interrupted: () => signals.interrupted(), errno: py.ERRNO_CODES });
  followCwd(FS, sys);
  signals.install(py);

  installModules(py);
  // libc reads TZ from the environment at start-up; time.tzset() asks again through the bridge.
  const zone = (tz: string | undefined) => setZone((py as unknown as { _module: ZoneModule })._module, tz);
  zone(ctx.env.find((kv) => kv.startsWith('TZ='))?.slice(3));
  installBridge(ctx, FS, kfs, signals, zone);
  const driver = py.pyimport('_agentos_driver') as any;
  // Only plain values cross into Python (decision 0026): the process, as JSON.
  const config = {
    pid: ctx.pid, env: ctx.env, executable: ctx.file, argv: ctx.argv,
    mode: opts.mode, target: opts.target, args: opts.argv, inspect: opts.inspect, quiet: opts.quiet, unbuffered: opts.unbuffered,
    noBytecode: opts.noBytecode,
    ttyIn: isatty(ctx, 0), ttyOut: isatty(ctx, 1),
  };
  return driver.run(JSON.stringify(config)) as number;
}

/** Python's cwd is Emscripten's; a chdir also moves the process's kernel cwd, which children inherit. */
function followCwd(FS: EmFS, sys: ProcessContext['sys']): void {
  try {
    FS.chdir(sys.getcwd());
  } catch {
    FS.chdir('/');
  }
  const chdir = FS.chdir.bind(FS);
  FS.chdir = (path: string) => {
    chdir(path);
    try {
      sys.chdir(FS.cwd());
    } catch {
      // A directory only Emscripten has (its /lib): the kernel's cwd stays.
    }
  };
}

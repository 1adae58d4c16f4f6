// The `linux` runtime (decision 0067): `linux [-c SCRIPT [NAME ARGS...] | PROGRAM ARGS...]` runs
// in a real i386 Linux guest (v86, resumed from the package's saved state) with this process's
// cwd, argv, env, stdin, stdout, stderr and exit status. The guest's files are agentOS's, served
// over 9p by this process's own syscalls (p9.ts). A guest is kept warm in the worker for the
// next `linux` process that runs there.

import { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGWINCH } from '../../abi/signal.js';
import { TIOCGWINSZ, type Winsize } from '../../abi/termios.js';
import type { ProcessContext } from '../context.js';
import { guestFiles } from './files.js';
import { Guest, GUEST_MEMORY_BYTES, STDIN_CHUNK } from './guest.js';
import { inDebianRoot, jobLines } from './job.js';
import { P9Server } from './p9.js';
import { debianRoot, ROOT_NAME, RootFs } from './rootfs.js';
import { rawCallerTty } from './tty.js';

const POLLIN = 1;
/** How often the host side looks at stdin, signals and output while a job runs. */
const TICK_MS = 4;
const FORWARDED = [SIGINT, SIGTERM, SIGHUP, SIGQUIT];
/** As env(1) and timeout(1) say that they themselves failed, not the command. */
const PANIC_STATUS = 125;
const USAGE = 'usage: linux [--root busybox|debian] [-c SCRIPT [NAME [ARG...]] | PROGRAM [ARG...]]\n';

/** The warm guest of this worker, if any. */
let warm: Promise<Guest> | null = null;

export async function runLinux(ctx: ProcessContext): Promise<void> {
  let args = ctx.argv.slice(1);
  // --root debian: the command runs in the Debian root (rootfs.ts) instead of the guest's busybox.
  let root = 'busybox';
  if (args[0] === '--root' || args[0]?.startsWith('--root=')) {
    root = args[0] === '--root' ? args[1] ?? '' : args[0].slice('--root='.length);
    args = args.slice(args[0] === '--root' ? 2 : 1);
    if (root !== 'busybox' && root !== 'debian') {
      ctx.sys.writeAll(2, `linux: --root: '${root}' is not busybox or debian\n${USAGE}`);
      ctx.exit(2);
    }
  }
  if (args[0] === '--help' || args[0] === '-h') {
    ctx.sys.writeAll(1, USAGE);
    ctx.exit(0);
  }
  if (args[0] === '-c' && args.length < 2) {
    ctx.sys.writeAll(2, `linux: -c: option requires an argument\n${USAGE}`);
    ctx.exit(2);
  }
  let command = args[0] === '-c' ? ['sh', '-c', ...args.slice(1)] : args.length ? args : ['sh'];
  // The guest's memory is the emulator's own WebAssembly memory: the VM's limit per process binds it.
  if (ctx.memoryBytes !== undefined && ctx.memoryBytes < GUEST_MEMORY_BYTES) {
    ctx.sys.writeAll(2, `linux: the guest needs ${GUEST_MEMORY_BYTES / 2 ** 20} MiB of memory; the VM's limit per process is ${Math.floor(ctx.memoryBytes / 2 ** 20)} MiB\n`);
    ctx.exit(1);
  }

  // Before a guest is resumed for nothing; the reason is not shown: it names the host's files.
  const store = root === 'debian' ? await debianRoot().catch(() => null) : null;
  if (root === 'debian' && !store) {
    ctx.sys.writeAll(2, 'linux: --root debian: the Debian root is not built (node scripts/build-linux-root.mjs)\n');
    ctx.exit(1);
  }
  const guest = await warmGuest(ctx);
  guest.server.sys = ctx.sys;
  guest.net.sys = ctx.sys;
  if (store) {
    guest.server.root ??= new RootFs(store);
    command = inDebianRoot(command, ctx.sys.getcwd(), ROOT_NAME);
  }
  const io = {
    stdout: (b: Uint8Array) => writeOut(ctx, 1, b),
    stderr: (b: Uint8Array) => writeOut(ctx, 2, b),
  };
  for (const sig of FORWARDED) ctx.signal(sig, () => guest.signal(sig));
  const tty = rawCallerTty(ctx.sys);
  // A resize of the caller's terminal resizes the guest's: its program gets SIGWINCH there.
  if (tty) ctx.signal(SIGWINCH, () => {
    const size = ctx.sys.ioctl(1, TIOCGWINSZ) as unknown as Winsize;
    guest.resize(size.rows, size.cols);
  });
  let stdinOpen = true;
  const tick = setInterval(() => {
    ctx.sys.raw.pollSignals();
    guest.drain(io);
    // Stdin is read only when it has data: a blocking read would stop the emulator too.
    while (stdinOpen && ctx.sys.poll([[0, POLLIN]], 0).length) {
      const data = readStdin(ctx);
      if (tty) guest.ttyInput(data);
      else guest.stdin(data.length ? data : null);
      if (!data.length) stdinOpen = false;
      if (data.length < STDIN_CHUNK) break;
    }
  }, TICK_MS);
  let status: number | null;
  try {
    status = await guest.run(jobLines(command, ctx.env, ctx.sys.getcwd(), guest.resumed ? Date.now() : null, tty?.size ?? null));
  } finally {
    clearInterval(tick);
    tty?.restore();
  }
  guest.drain(io);
  guest.server.release();
  guest.net.sys = null;
  if (status === null) {
    // The job crashed or stopped the guest's kernel: say so, and start a fresh guest next time.
    warm = null;
    void guest.destroy();
    writeOut(ctx, 2, new TextEncoder().encode(`linux: the guest's kernel stopped: ${guest.stopped}\n`));
    ctx.exit(PANIC_STATUS);
  }
  ctx.exit(status);
}

/** This worker's guest: the warm one, or a new one resumed from the package's state. */
async function warmGuest(ctx: ProcessContext): Promise<Guest> {
  if (warm) {
    const guest = await warm.catch(() => null);
    if (guest && !guest.busy) return guest;
    // Its last job never reported back (its process was killed): start again.
    warm = null;
    void guest?.destroy();
  }
  const files = await guestFiles(ctx.sys, ctx.file);
  const server = new P9Server(ctx.sys);
  warm = Guest.resume(files, server);
  return warm;
}

function readStdin(ctx: ProcessContext): Uint8Array {
  try {
    return ctx.sys.read(0, STDIN_CHUNK);
  } catch {
    return new Uint8Array(0); // an unreadable stdin ends
  }
}

function writeOut(ctx: ProcessContext, fd: number, bytes: Uint8Array): void {
  try {
    ctx.sys.writeAll(fd, bytes);
  } catch {
    // A closed stdout or stderr: the guest's program finds out by its own exit, as with a pipe.
  }
}

// flock [options] <file>|<directory> <command> [<argument>...]
// flock [options] <file>|<directory> -c <command>
// flock [options] <file descriptor number>
// Manage file locks from shell scripts (util-linux 2.38), with the kernel's
// flock(2): shared (-s) or exclusive (-x) locks on an open file, -n to fail
// instead of waiting, -w to wait a limited time, -u to unlock a descriptor.

import { Errno, strerror } from '../../../abi/errno.js';
import { O_CLOEXEC, O_CREAT, O_NOCTTY, O_RDONLY } from '../../../abi/fcntl.js';
import { shellStatus } from '../../../abi/wait.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { walkPath } from '../../../libc/execvp.js';
import { parseArgs, UsageError } from '../../../userland/lib/args.js';

const USAGE = `
Usage:
 flock [options] <file>|<directory> <command> [<argument>...]
 flock [options] <file>|<directory> -c <command>
 flock [options] <file descriptor number>

Manage file locks from shell scripts.

Options:
 -s, --shared             get a shared lock
 -x, --exclusive          get an exclusive lock (default)
 -u, --unlock             remove a lock
 -n, --nonblock           fail rather than wait
 -w, --timeout <secs>     wait for a limited amount of time
 -E, --conflict-exit-code <number>  exit code after conflict or timeout
 -o, --close              close file descriptor before running command
 -c, --command <command>  run a single command string through the shell
 -F, --no-fork            execute command without forking
     --verbose            increase verbosity

 -h, --help               display this help
 -V, --version            display version

For more details see flock(1).
`;

const LOCK_SH = 1;
const LOCK_EX = 2;
const LOCK_NB = 4;
const LOCK_UN = 8;

/** sysexits.h codes util-linux flock uses. */
const EX_USAGE = 64;
const EX_DATAERR = 65;
const EX_NOINPUT = 66;
const EX_UNAVAILABLE = 69;
const EX_OSERR = 71;

export default function main(os: AgentosApi): void {
  os.exit(run(os));
}

function run(os: AgentosApi): number {
  const usage = (msg: string): number => {
    os.eprint(`flock: ${msg}\nTry 'flock --help' for more information.\n`);
    return EX_USAGE;
  };
  /** A usage problem util-linux reports with errx: the message alone. */
  const bad = (msg: string): number => {
    os.eprint(`flock: ${msg}\n`);
    return EX_USAGE;
  };
  let parsed;
  try {
    parsed = parseArgs(os.argv.slice(1), {
      short: 'sexunw:E:oc:FhV',
      stopAtOperand: true,
      long: {
        shared: ['s', 'none'], exclusive: ['x', 'none'], unlock: ['u', 'none'], nonblock: ['n', 'none'], nb: ['n', 'none'],
        timeout: ['w', 'required'], wait: ['w', 'required'], 'conflict-exit-code': ['E', 'required'], close: ['o', 'none'],
        command: ['c', 'required'], 'no-fork': ['F', 'none'], verbose: ['verbose', 'none'], help: ['h', 'none'], version: ['V', 'none'],
      },
    }, true);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return usage(e.message);
  }
  let op = LOCK_EX;
  let nb = 0;
  let timeout: number | null = null;
  let conflict = 1;
  let closeFd = false;
  let verbose = false;
  let command: string | null = null;
  for (const [k, v] of parsed.list) {
    switch (k) {
      case 's': op = LOCK_SH; break;
      case 'e': case 'x': op = LOCK_EX; break;
      case 'u': op = LOCK_UN; break;
      case 'n': nb = LOCK_NB; break;
      case 'w': {
        if (!/^\d*\.?\d+$/.test(v!)) return bad(`invalid timeout value: '${v}'`);
        timeout = Number(v);
        if (timeout === 0) nb = LOCK_NB;
        break;
      }
      case 'E': {
        if (!/^\d+$/.test(v!) || Number(v) > 255) return bad(`invalid exit code: '${v}'`);
        conflict = Number(v);
        break;
      }
      case 'o': closeFd = true; break;
      case 'c': command = v!; break;
      case 'verbose': verbose = true; break;
      case 'h': os.print(USAGE); return 0;
      case 'V': os.print('flock from agentOS util-linux 2.38.1\n'); return 0;
    }
  }
  const ops = parsed.operands;
  if (ops.length === 0) return usage('not enough arguments');
  let argv: string[] | null = null;
  if (ops.length > 1) {
    if (ops[1] === '-c') {
      if (ops.length !== 3) return bad(`${ops[1]} requires exactly one command argument`);
      command = ops[2];
    } else argv = ops.slice(1);
  }
  if (command !== null) argv = [os.env.SHELL || '/bin/sh', '-c', command];
  let fd: number;
  let opened = false;
  if (argv) {
    try {
      fd = openLockFile(os, ops[0]);
      opened = true;
    } catch (e) {
      if (!(e instanceof os.SysError)) throw e;
      os.eprint(`flock: cannot open lock file ${ops[0]}: ${strerror(e.errno)}\n`);
      return EX_NOINPUT;
    }
  } else {
    if (!/^\d+$/.test(ops[0])) {
      os.eprint(`flock: bad file descriptor: '${ops[0]}'\n`);
      return EX_USAGE;
    }
    fd = Number(ops[0]);
  }
  const started = Date.now();
  const got = acquire(os, fd, op | nb, timeout);
  if (got !== true) {
    if (got === Errno.EBADF) {
      os.eprint(`flock: ${ops[0]}: ${strerror(got)}\n`);
      return EX_DATAERR;
    }
    if (verbose) os.eprint(timeout !== null && !nb ? 'flock: timeout while waiting to get lock\n' : 'flock: failed to get lock\n');
    return conflict;
  }
  if (verbose) os.eprint(`flock: getting lock took ${((Date.now() - started) / 1000).toFixed(6)} seconds\n`);
  if (!argv) return 0;
  if (verbose) os.eprint(`flock: executing ${argv[0]}\n`);
  if (closeFd && opened) os.sys.close(fd);
  const env = Object.entries(os.env).map(([k, v]) => `${k}=${v}`);
  let pid: number;
  try {
    pid = walkPath(argv[0], env, (path) => os.sys.spawn({ path, argv: argv!, env }));
  } catch (e) {
    if (!(e instanceof os.SysError)) throw e;
    os.eprint(`flock: failed to execute ${argv[0]}: ${strerror(e.errno)}\n`);
    return e.errno === Errno.ENOENT ? EX_UNAVAILABLE : EX_OSERR;
  }
  // The lock is held by the open file, which the child shares, until both let go.
  const [, status] = os.sys.waitpid(pid);
  return shellStatus(status);
}

/** open(2) as flock(1) does: read-only, created if missing (a directory opens as is). */
function openLockFile(os: AgentosApi, path: string): number {
  try {
    return os.sys.open(path, O_RDONLY | O_NOCTTY | O_CREAT, 0o666);
  } catch (e) {
    if (e instanceof os.SysError && e.errno === Errno.EISDIR) return os.sys.open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC);
    throw e;
  }
}

/** Take the lock: true, or the errno (EAGAIN for a conflict or a timeout). */
function acquire(os: AgentosApi, fd: number, op: number, timeout: number | null): true | number {
  const deadline = timeout === null ? Infinity : Date.now() + timeout * 1000;
  for (;;) {
    const nb = timeout !== null ? op | LOCK_NB : op;
    try {
      os.sys.flock(fd, nb);
      return true;
    } catch (e) {
      if (!(e instanceof os.SysError)) throw e;
      if (e.errno === Errno.EINTR) continue;
      if (e.errno !== Errno.EAGAIN || op & LOCK_NB || Date.now() >= deadline) return e.errno;
      // -w: the kernel call cannot time out, so poll with LOCK_NB until the deadline.
      os.sys.sleep(Math.min(20, Math.max(1, deadline - Date.now())));
    }
  }
}

// The shell side of the exec protocol (abi/exec-protocol.ts): the exec shell,
// a persistent shell that reads framed commands from the host on its stdin and ends each
// with a sentinel carrying a fresh random token and the exit status.
// The command runs with /dev/null (or the given file) as stdin, so it can never
// read the exec shell's next command; the frame stream lives on a close-on-exec fd.
// Between commands fd 0 is /dev/null already, so a command without stdin that
// leaves fd 0 alone costs the frame's read and the two sentinels' writes: every syscall is a
// round trip to the kernel worker, and under load each may wait for a core.

import { strerror, SysError } from '../abi/errno.js';
import { type ExecFrame, FRAME_MAGIC, stderrEnd, stdoutEnd } from '../abi/exec-protocol.js';
import { F_DUPFD_CLOEXEC, O_CLOEXEC, O_RDONLY } from '../abi/fcntl.js';
import { SIGINT } from '../abi/signal.js';
import type { Sys } from '../libc/sys.js';
import type { AgentosApi } from '../runtimes/js/api.js';
import { ExitSignal, InterruptSignal, isStackOverflow } from './interp/control.js';
import type { Shell } from './interp/shell.js';

const dec = new TextDecoder();

class FrameReader {
  private buf = new Uint8Array(0);

  constructor(private readonly os: AgentosApi, private readonly fd: number) {}

  private fill(): boolean {
    const b = this.os.sys.read(this.fd, 65536);
    if (b.byteLength === 0) return false;
    const n = new Uint8Array(this.buf.byteLength + b.byteLength);
    n.set(this.buf);
    n.set(b, this.buf.byteLength);
    this.buf = n;
    return true;
  }

  next(): ExecFrame | null {
    for (;;) {
      const nl = this.buf.indexOf(0x0a);
      if (nl >= 0) {
        const head = dec.decode(this.buf.subarray(0, nl));
        if (!head.startsWith(FRAME_MAGIC)) throw new Error(`agentos-shell: bad exec frame ${JSON.stringify(head.slice(0, 40))}`);
        const n = Number(head.slice(FRAME_MAGIC.length));
        while (this.buf.byteLength < nl + 1 + n) if (!this.fill()) return null;
        const body = dec.decode(this.buf.subarray(nl + 1, nl + 1 + n));
        this.buf = this.buf.slice(nl + 1 + n);
        return JSON.parse(body) as ExecFrame;
      }
      if (!this.fill()) return null;
    }
  }
}

/**
 * A close-on-exec copy of `fd` for the exec shell's own use, at 255 and above as bash
 * keeps its script's fd: fds 10 and up are the user's (`exec 10>log`, `exec 200>lock;
 * flock 200`). Under a lower open-file limit (the policy's maxOpenFiles), from 10.
 */
function ownFd(s: Sys, fd: number): number {
  try {
    return s.fcntl(fd, F_DUPFD_CLOEXEC, 255);
  } catch {
    return s.fcntl(fd, F_DUPFD_CLOEXEC, 10);
  }
}

export function runExecShell(os: AgentosApi, sh: Shell): number {
  const s = os.sys;
  const frames = new FrameReader(os, ownFd(s, 0));
  s.close(0);
  const nul = new NullStdin(s);
  sh.jobControl = true;
  // Each exec runs as `bash -c` would (decision 0007): errors that end bash -c end the exec.
  sh.modeFlags = 'c';
  os.signal(SIGINT, () => {
    sh.interrupted = true;
    if (sh.fgPgid > 0) {
      try {
        s.kill(-sh.fgPgid, SIGINT);
      } catch {
        /* the job is gone */
      }
    }
  });
  for (;;) {
    const f = frames.next();
    if (f === null) return sh.status;
    const status = runFrame(sh, f, nul);
    sh.status = status;
    s.writeAll(1, stdoutEnd(f.token, status));
    s.writeAll(2, stderrEnd(f.token));
  }
}

/**
 * /dev/null kept open on a close-on-exec fd, to make fd 0 each command's
 * stdin with one dup2, or none when the command left fd 0 alone.
 */
class NullStdin {
  private fd = -1;
  /** sys.stdinChanges once fd 0 was last made our /dev/null. */
  private placed = -1;

  constructor(private readonly s: Sys) {
    this.restore();
  }

  restore(): void {
    if (this.fd >= 0 && this.s.stdinChanges === this.placed) return;
    try {
      if (this.fd >= 0) return void this.place();
    } catch {
      /* the command closed our copy */
    }
    const fd = this.s.open('/dev/null', O_RDONLY | O_CLOEXEC);
    this.fd = ownFd(this.s, fd);
    this.s.close(fd);
    this.place();
  }

  private place(): void {
    this.s.dup2(this.fd, 0);
    this.placed = this.s.stdinChanges;
  }
}

function runFrame(sh: Shell, f: ExecFrame, nul: NullStdin): number {
  const s = sh.sys;
  if (f.stdin) {
    const input = s.open(f.stdin, O_RDONLY);
    s.dup2(input, 0);
    s.close(input);
    s.unlink(f.stdin);
  }
  const oldPwd = f.cwd ? (sh.vars.get('PWD') ?? s.getcwd()) : null;
  const envNames = Object.keys(f.env ?? {});
  if (f.env) {
    sh.vars.pushScope();
    for (const [k, v] of Object.entries(f.env)) {
      sh.vars.set(k, v, { local: true });
      sh.vars.lookup(k)!.exported = true;
    }
  }
  sh.interrupted = false;
  sh.lineno = 0;
  try {
    if (f.cwd) {
      try {
        sh.chdir(f.cwd);
      } catch (e) {
        sh.error(`cd: ${f.cwd}: ${e instanceof SysError ? strerror(e.errno) : (e as Error).message}`);
        return 1;
      }
      sh.vars.set('PWD', s.getcwd());
    }
    // The EXIT trap set during this exec runs as it ends, as at the end of `bash -c` (then it is gone).
    return guarded(sh, () => sh.finish(guarded(sh, () => sh.runSource(f.cmd))));
  } finally {
    if (f.env && envNames.length) sh.vars.popScope();
    if (oldPwd) {
      try {
        sh.chdir(oldPwd);
        sh.vars.set('PWD', oldPwd);
      } catch {
        /* gone */
      }
    }
    // Back to /dev/null (the command may have closed or redirected fd 0; its stdin file is released).
    nul.restore();
  }
}

/**
 * Run part of an exec; what would end `bash -c` (set -e, ${x:?}, set -u, a
 * syntax error, a failed exec) ends only the exec, with bash's status. The
 * exit builtin still ends the exec shell (decision 0007).
 */
function guarded(sh: Shell, run: () => number): number {
  const mark = sh.mark();
  try {
    return run();
  } catch (e) {
    if (e instanceof ExitSignal && !e.command) return e.status;
    if (e instanceof InterruptSignal) return 130;
    // Anything else the command ran into (recursion past the stack, fds run
    // out, a fault of the interpreter) fails that command; the exec shell and its
    // state go on. `exit` and other control flow still end it.
    if (!(e instanceof Error)) throw e;
    if (isStackOverflow(e)) return sh.stackOverflow(mark);
    sh.recover(mark);
    sh.error(e instanceof SysError ? e.message : `internal error: ${e.message}`);
    return 1;
  }
}

// timeout [OPTION] DURATION COMMAND [ARG]...: run COMMAND, signal it if still running after DURATION.
// The command runs in a new process group (unless --foreground) and the signal goes to the
// whole group; exit status 124 on time-out, 125 for timeout's own errors, 126/127 when
// COMMAND cannot be run or found, otherwise COMMAND's status.

import { Errno, strerror, SysError } from '../../../abi/errno.js';
import { SIGCHLD, SIGCONT, SIGKILL, SIGTERM, signalFromName } from '../../../abi/signal.js';
import { WEXITSTATUS, WIFSIGNALED, WNOHANG, WTERMSIG } from '../../../abi/wait.js';
import { spawnvp } from '../../../libc/execvp.js';
import { command, quote, type Cmd } from '../../../userland/lib/index.js';

const USAGE = `Usage: timeout [OPTION] DURATION COMMAND [ARG]...
  or:  timeout [OPTION]
Start COMMAND, and kill it if still running after DURATION.

      --foreground   when not running timeout directly from a shell prompt,
                       allow COMMAND to read from the TTY and get TTY signals;
                       in this mode, children of COMMAND will not be timed out
  -k, --kill-after=DURATION  also send a KILL signal if COMMAND is still running
                       this long after the initial signal was sent
  -s, --signal=SIGNAL  specify the signal to be sent on timeout;
                       SIGNAL may be a name like 'HUP' or a number
      --preserve-status  exit with the same status as COMMAND, even when the
                       command times out
  -v, --verbose        diagnose to stderr any signal sent upon timeout

DURATION is a floating point number with an optional suffix:
's' for seconds (the default), 'm' for minutes, 'h' for hours or 'd' for days.
A duration of 0 disables the associated timeout.

Exit status: 124 if COMMAND times out and --preserve-status is not specified,
125 if the timeout command itself fails, 126 if COMMAND is found but cannot be
invoked, 127 if COMMAND cannot be found, otherwise the exit status of COMMAND.
`;

const UNIT: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86400 };

function duration(c: Cmd, s: string): number {
  const m = /^\+?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?([smhd]?)$/i.exec(s);
  if (!m) c.usage(`invalid time interval ${quote(s)}`);
  return Number(m[1] + (m[2] ?? '')) * UNIT[m[3]] * 1000;
}

export const timeout = command(
  {
    name: 'timeout',
    usage: USAGE,
    failStatus: 125,
    stopAtOperand: true,
    short: 'k:s:v',
    long: {
      'kill-after': ['k', 'required'], signal: ['s', 'required'], verbose: ['v', 'none'],
      foreground: ['fg', 'none'], 'preserve-status': ['ps', 'none'],
    },
  },
  (c) => {
    let sig = SIGTERM;
    if (c.has('s')) {
      const s = signalFromName(c.get('s')!);
      if (s === undefined) c.usage(`${quote(c.get('s')!)}: invalid signal`);
      sig = s!;
    }
    const killAfter = c.has('k') ? duration(c, c.get('k')!) : 0;
    if (c.operands.length < 2) c.tryHelp(); // GNU says only this
    const limit = duration(c, c.operands[0]);
    const [cmd, ...rest] = c.operands.slice(1);
    const fg = c.has('fg');
    const env = Object.entries(c.os.env).map(([k, v]) => `${k}=${v}`);
    c.os.signal(SIGCHLD, () => {}); // so our sleeps end when the child does
    let pid: number;
    try {
      pid = spawnvp(c.sys, { path: cmd, argv: [cmd, ...rest], env, ...(fg ? {} : { pgid: 0 }) });
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
      c.warn(`failed to run command ${quote(cmd)}: ${strerror(e.errno)}`);
      return e.errno === Errno.ENOENT ? 127 : 126;
    }
    const send = (s: number) => {
      if (c.has('v')) c.warn(`sending signal ${s === SIGKILL ? 'KILL' : (c.get('s') ?? 'TERM').replace(/^SIG/i, '').toUpperCase()} to command ${quote(cmd)}`);
      try {
        c.sys.kill(fg ? pid : -pid, s);
        if (s !== SIGKILL && s !== SIGCONT) c.sys.kill(fg ? pid : -pid, SIGCONT);
      } catch {
        // Already gone: the wait below collects it.
      }
    };
    let status = waitFor(c, pid, limit);
    let timedOut = false;
    if (status === null) {
      timedOut = true;
      send(sig);
      status = waitFor(c, pid, killAfter);
      if (status === null) {
        send(SIGKILL);
        if (!fg) c.sys.kill(c.sys.getpid(), SIGKILL); // GNU's group-wide KILL takes timeout too
        status = waitFor(c, pid, 0);
      }
    }
    c.out.flush();
    if (timedOut && !c.has('ps')) {
      // GNU signals its own group too: KILL takes timeout with it.
      if (sig === SIGKILL && !fg) c.sys.kill(c.sys.getpid(), SIGKILL);
      return 124;
    }
    if (WIFSIGNALED(status!) && !timedOut) {
      // Die the same way, so the caller sees what happened to COMMAND.
      c.os.signal(WTERMSIG(status!), 0);
      c.sys.kill(c.sys.getpid(), WTERMSIG(status!));
    }
    if (WIFSIGNALED(status!)) return 128 + WTERMSIG(status!);
    return WEXITSTATUS(status!);
  },
);

/** The child's wait status, or null if it is still running after `ms` (0: wait for ever). */
function waitFor(c: Cmd, pid: number, ms: number): number | null {
  const end = ms > 0 ? Date.now() + ms : Infinity;
  for (;;) {
    const [got, status] = c.sys.waitpid(pid, WNOHANG);
    if (got === pid) return status;
    const left = end - Date.now();
    if (left <= 0) return null;
    try {
      c.sys.sleep(Math.min(left, 50));
    } catch (e) {
      if (!(e instanceof SysError) || e.errno !== Errno.EINTR) throw e;
    }
  }
}

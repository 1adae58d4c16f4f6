// Process syscalls: identity, spawn/exec/exit, waitpid, groups and sessions, kill, signals, timers.

import type { Value } from '../../abi/codec.js';
import { Errno, SysError } from '../../abi/errno.js';
import { OPEN_MAX } from '../../abi/fcntl.js';
import { searchPath } from '../../abi/path-search.js';
import type { SpawnRequest } from '../../abi/spawn.js';
import { isValidSignal, NSIG, SIG_DFL, SIG_HANDLE, SIG_IGN, SIGALRM, SIGKILL, SIGSTOP } from '../../abi/signal.js';
import { exitStatus, WCONTINUED, WNOHANG, WUNTRACED } from '../../abi/wait.js';
import type { Kernel } from '../kernel.js';
import type { Process } from '../process.js';
import { deliverUnblocked, killTargets, sendSignal } from '../signal.js';
import { timerQueue, type Handler } from '../syscall.js';
import { arg, type Args, fields, int, str, strList } from './args.js';
import { longTimeout } from '../../abi/long-timeout.js';

export const getpid: Handler<'getpid'> = (_k, p) => p.pid;
export const getppid: Handler<'getppid'> = (_k, p) => p.ppid;
export const getuid: Handler<'getuid'> = (_k, p) => p.ruid;
export const geteuid: Handler<'geteuid'> = (_k, p) => p.uid;
export const getgid: Handler<'getgid'> = (_k, p) => p.rgid;
export const getegid: Handler<'getegid'> = (_k, p) => p.gid;

function target(k: Kernel, p: Process, pid: number): Process {
  const t = pid === 0 ? p : k.procs.get(pid);
  if (!t || !t.alive) throw new SysError(Errno.ESRCH);
  return t;
}

export const getpgid: Handler<'getpgid'> = (k, p, a) => target(k, p, int(a, 0, 0)).pgid;
export const getsid: Handler<'getsid'> = (k, p, a) => target(k, p, int(a, 0, 0)).sid;

/** setpgid(pid, pgid) with the POSIX rules: self or a child, same session, not a session leader. */
export const setpgid: Handler<'setpgid'> = (k, p, a) => {
  const t = target(k, p, int(a, 0, 0));
  const pgid = int(a, 1, 0) || t.pid;
  if (pgid < 0) throw new SysError(Errno.EINVAL);
  if (t !== p && t.ppid !== p.pid) throw new SysError(Errno.ESRCH);
  if (t.sid === t.pid || t.sid !== p.sid) throw new SysError(Errno.EPERM);
  if (pgid !== t.pid && !k.procs.all().some((q) => q.pgid === pgid && q.sid === p.sid)) {
    throw new SysError(Errno.EPERM);
  }
  t.pgid = pgid;
  return 0;
};

export const setsid: Handler<'setsid'> = (k, p) => {
  if (k.procs.all().some((q) => q.alive && q.pgid === p.pid)) throw new SysError(Errno.EPERM);
  p.sid = p.pid;
  p.pgid = p.pid;
  p.ctty = null;
  return p.sid;
};

/**
 * spawn({path, argv, env, cwd?, fds?, pgid?, setsid?, sigDefault?, uid?, gid?}) → pid. The kernel's
 * posix_spawn: workers cannot fork a JS heap, so this is how processes begin.
 */
export const spawn: Handler<'spawn'> = (k, p, a) => k.spawn(p, spawnRequest(p, arg(a, 0))).pid;

/**
 * spawnp(request, search) → [pid, path]: spawn with execvp's $PATH search
 * (abi/path-search.ts) done here, each candidate as one spawn would try it, so
 * a shell runs `wc` with one syscall rather than one failed spawn per
 * directory before the hit. ENOEXEC stops the search, as in execvp: the caller
 * finds that file again and runs it under a shell.
 */
export const spawnp: Handler<'spawnp'> = (k, p, a) => {
  const req = spawnRequest(p, arg(a, 0));
  return searchPath(req.path, str(a, 1), (path) => [k.spawn(p, { ...req, path }).pid, path]);
};

function spawnRequest(p: Process, v: Value): SpawnRequest & { env: string[] } {
  const r = fields<SpawnRequest>(v);
  // Checked as arguments are (sys/args.ts), so a bad field gets the same errno as a bad argument.
  const args = [r.path, r.argv, r.env] as Args<[path: string, argv: string[], env: string[]]>;
  return {
    path: str(args, 0),
    argv: strList(args, 1),
    env: r.env === undefined ? [...p.env] : strList(args, 2),
    cwd: typeof r.cwd === 'string' ? r.cwd : undefined,
    fds: r.fds === undefined ? undefined : fdMap(r.fds),
    inheritFds: r.inheritFds === true,
    pgid: optId(r.pgid, 'pgid'),
    foreground: r.foreground === true,
    setsid: r.setsid === true,
    sigDefault: sigSet(r.sigDefault),
    ctty: optId(r.ctty, 'ctty'),
    uid: optId(r.uid, 'uid'),
    gid: optId(r.gid, 'gid'),
    execShell: r.execShell === true,
  };
}

/** A spawn's fd map: [childFd, parentFd] pairs of fd numbers, checked before anything is created. */
function fdMap(v: Value): [number, number][] {
  const ok = Array.isArray(v) && v.every((e) => Array.isArray(e) && e.length === 2 && e.every((fd) => Number.isInteger(fd) && (fd as number) >= 0 && (fd as number) < OPEN_MAX));
  if (!ok) throw new SysError(Errno.EINVAL, 'spawn: fds must be [childFd, parentFd] pairs');
  return v as [number, number][];
}

/** An optional signal set (bit n: signal n): a non-negative integer below 2^NSIG, else EINVAL. */
function sigSet(v: Value): number | undefined {
  if (typeof v !== 'number') return undefined;
  if (!Number.isSafeInteger(v) || v < 0 || v >= 2 ** NSIG) throw new SysError(Errno.EINVAL, 'spawn: bad sigDefault');
  return v;
}

/** An optional id field (absent if not a number, as before); a number must be a non-negative integer. */
function optId(v: Value, name: string): number | undefined {
  if (typeof v !== 'number') return undefined;
  if (!Number.isSafeInteger(v) || v < 0) throw new SysError(Errno.EINVAL, `spawn: bad ${name}`);
  return v;
}

export const execve: Handler<'execve'> = (k, p, a) => {
  if (p === k.init) throw new SysError(Errno.EPERM, 'the host cannot exec');
  k.exec(p, str(a, 0), strList(a, 1), strList(a, 2));
  // Success: the old image is told to unwind (its worker then returns to the pool).
  return 0;
};

export const exit: Handler<'exit'> = (k, p, a) => {
  if (p === k.init) throw new SysError(Errno.EPERM, 'init cannot exit');
  k.exit(p, exitStatus(int(a, 0, 0)), true);
  return 0;
};

/** waitpid(pid, options) → [pid, status]; [0, 0] with WNOHANG when nothing is ready. */
export const waitpid: Handler<'waitpid'> = (k, p, a) => {
  const pid = int(a, 0, -1);
  const options = int(a, 1, 0);
  const matches = (c: Process) =>
    pid > 0 ? c.pid === pid : pid === -1 ? true : pid === 0 ? c.pgid === p.pgid : c.pgid === -pid;
  const kids = [...p.children].filter(matches);
  if (kids.length === 0) throw new SysError(Errno.ECHILD);
  for (const c of kids) {
    if (!c.alive) {
      k.reap(c);
      return [c.pid, c.status];
    }
    if (c.stopEvent === 'stopped' && options & WUNTRACED) {
      c.stopEvent = null;
      return [c.pid, c.status];
    }
    if (c.stopEvent === 'continued' && options & WCONTINUED) {
      c.stopEvent = null;
      return [c.pid, 0xffff];
    }
  }
  if (options & WNOHANG) return [0, 0];
  return p.childEvent;
};

export const kill: Handler<'kill'> = (k, p, a) => {
  const pid = int(a, 0);
  const sig = int(a, 1);
  if (!isValidSignal(sig)) throw new SysError(Errno.EINVAL);
  const targets = killTargets(k, p, pid);
  if (targets.length === 0) throw new SysError(Errno.ESRCH);
  // kill(2)'s rule: root, or the sender's real or effective user is the target's real one (or its effective, as the saved one here).
  const allowed = targets.filter((t) => p.uid === 0 || [p.uid, p.ruid].some((u) => u === t.ruid || u === t.uid));
  if (allowed.length === 0) throw new SysError(Errno.EPERM);
  for (const t of allowed) if (t !== k.init && t.alive) sendSignal(k, t, sig);
  return 0;
};

/** sigaction(sig, disposition) → old disposition (SIG_DFL, SIG_IGN or SIG_HANDLE). */
export const sigaction: Handler<'sigaction'> = (_k, p, a) => {
  const sig = int(a, 0);
  const disp = int(a, 1);
  if (sig <= 0 || sig >= NSIG || sig === SIGKILL || sig === SIGSTOP) throw new SysError(Errno.EINVAL);
  if (disp !== SIG_DFL && disp !== SIG_IGN && disp !== SIG_HANDLE) throw new SysError(Errno.EINVAL);
  const old = p.dispositions[sig];
  p.dispositions[sig] = disp;
  return old;
};

/** Take the caught signals the runtime must now run handlers for (bitmask). */
export const sigtake: Handler<'sigtake'> = (_k, p) => {
  const set = p.caught;
  p.caught = 0;
  p.channel?.flagSignals(false);
  return set;
};

/** sigprocmask(how, mask) → old mask; how: 0 block, 1 unblock, 2 set. */
export const sigprocmask: Handler<'sigprocmask'> = (k, p, a) => {
  const how = int(a, 0);
  const mask = int(a, 1) & ~((1 << SIGKILL) | (1 << SIGSTOP));
  const old = p.blocked;
  if (how === 0) p.blocked |= mask;
  else if (how === 1) p.blocked &= ~mask;
  else if (how === 2) p.blocked = mask;
  else throw new SysError(Errno.EINVAL);
  deliverUnblocked(k, p);
  return old;
};

/** alarm(seconds) → seconds left on the previous alarm. */
export const alarm: Handler<'alarm'> = (k, p, a) => {
  const secs = int(a, 0);
  if (secs < 0) throw new SysError(Errno.EINVAL, 'alarm: negative seconds');
  const left = p.alarmTimer ? Math.max(0, Math.ceil((p.alarmAt - Date.now()) / 1000)) : 0;
  p.alarmTimer?.clear();
  p.alarmTimer = null;
  if (secs > 0) {
    p.alarmAt = Date.now() + secs * 1000;
    p.alarmTimer = longTimeout(() => {
      p.alarmTimer = null;
      sendSignal(k, p, SIGALRM);
    }, secs * 1000);
  }
  return left;
};

/** nanosleep(ms): sleeps in the kernel so signals interrupt it (EINTR). */
export const nanosleep: Handler<'nanosleep'> = (_k, _p, a, call) => {
  const ms = int(a, 0);
  if (ms < 0) throw new SysError(Errno.EINVAL);
  if (call.state.deadline === undefined) call.state.deadline = performance.now() + ms;
  const left = (call.state.deadline as number) - performance.now();
  if (left <= 0) return 0;
  return timerQueue(call, left);
};

export const uname: Handler<'uname'> = (k) => ({
  sysname: 'Linux',
  nodename: k.hostname,
  release: '6.1.0-agentos',
  version: '#1 agentOS',
  machine: 'wasm32',
});

/**
 * setuid(uid): an effective root becomes anyone, really and effectively (and
 * cannot come back); others may only switch the effective user between their
 * real and effective ones.
 */
export const setuid: Handler<'setuid'> = (_k, p, a) => {
  const uid = int(a, 0);
  if (uid < 0) throw new SysError(Errno.EINVAL);
  if (p.uid === 0) p.uid = p.ruid = uid;
  else if (uid === p.ruid || uid === p.uid) p.uid = uid;
  else throw new SysError(Errno.EPERM);
  return 0;
};

export const setgid: Handler<'setgid'> = (_k, p, a) => {
  const gid = int(a, 0);
  if (gid < 0) throw new SysError(Errno.EINVAL);
  if (p.uid === 0) {
    p.gid = p.rgid = gid;
    p.groups = [];
  } else if (gid === p.rgid || gid === p.gid) p.gid = gid;
  else throw new SysError(Errno.EPERM);
  return 0;
};

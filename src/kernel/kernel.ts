// The kernel: owns every piece of state and never blocks.
//
// Processes in workers reach it through their SharedArrayBuffer channel and
// the shared doorbell; the host (pid 1, init) reaches it through async calls.
// Both go through the same syscall table.

import { canonicalName } from '../abi/bytestr.js';
import type { MemFs } from './fs/memfs.js';
import { OverlayFs } from './fs/overlayfs.js';
import type { Persister } from './persist/persister.js';
import { Snapshots, type RestoreCaller } from './persist/snapshots.js';
import { MemorySnapshots, type StoredSnapshot } from './persist/store.js';
import { newDoorbell } from '../abi/channel.js';
import type { Value } from '../abi/codec.js';
import { Errno, SysError } from '../abi/errno.js';
import { RUNTIME_NAMES } from '../abi/runtime.js';
import type { SpawnRequest } from '../abi/spawn.js';
import { SYSCALLS, SYSNO } from '../abi/syscalls.js';
import { SIG_HANDLE, SIG_IGN, SIGABRT, SIGKILL, SIGSYS } from '../abi/signal.js';
import { signalStatus } from '../abi/wait.js';
import { ChannelEnd } from './channel.js';
import { sanitizeEnv } from './env.js';
import { loadImage, type Loaded } from './exec.js';
import { isSetuidRoot } from './setuid.js';
import { scriptKey } from './script-key.js';
import { FifoTable, PipeFs } from './fifo.js';
import type { OpenFile } from './file.js';
import { PolicyEngine } from './policy/policy.js';
import { UNKNOWN_HOST_MEMORY } from './policy/defaults.js';
import { Process, ProcessTable } from './process.js';
import { Runner, type WorkerFactory } from './runner.js';
import { notifyParent } from './signal.js';
import { SoftwareBroker } from './software/broker.js';
import { Call, type AnyHandler } from './syscall.js';
import { handlers } from './sys/table.js';
import { acquire, leaderExited } from './tty/jobctl.js';
import { processEnded } from './tty/killed-restore.js';
import { Ptys } from './tty/pty.js';
import { NetStack } from './net/stack.js';
import { HostSecrets } from './net/secrets.js';
import { SocketTable } from './socket/table.js';
import { AgentTable } from './agent/table.js';
import { exited as agentExited } from './agent/exit.js';
import { WasmModules } from './wasm-modules.js';
import { FlockTable } from './flock.js';
import { pagesFor } from '../abi/wasm-limits.js';
import { diagnose } from './diag.js';
import type { Tty } from './tty/tty.js';
import type { Inode } from './vfs/types.js';
import type { Vfs } from './vfs/vfs.js';

export interface KernelOptions {
  vfs: Vfs;
  /** Pipes behind FIFO inodes; the VFS's FIFO open hook must use the same table. */
  fifos: FifoTable;
  workers: WorkerFactory;
  /** Idle process workers kept ready. */
  warmWorkers?: number;
  hostname?: string;
  /** Runtimes the process workers provide; images for others fail with ENOEXEC. */
  runtimes?: string[];
  /** The root's writable layer is persistent: sync() makes it durable. */
  persister?: Persister;
  /** Identity of the base image (snapshots and layers record it). */
  imageId?: string;
  /** The VM's permission policy (policy/types.ts), checked and frozen here. */
  policy?: unknown;
  /** The network policy and the host's network (none when absent). */
  net?: NetStack;
  /** The host's memory in bytes: it sizes the policy's default limits (policy/defaults.ts). */
  hostMemory?: number;
  /** The host's logical CPUs (processes run in parallel workers): /proc/cpuinfo, /proc/stat, nproc. */
  cpus?: number;
}

/** What the host may do as the VM user (Kernel.userCall): file syscalls only. */
const USER_CALLS: ReadonlySet<string> = new Set([
  'open', 'close', 'read', 'pread', 'write', 'pwrite', 'lseek', 'fstat', 'stat', 'lstat', 'getdents', 'mkdir',
  'symlink', 'readlink', 'link', 'unlink', 'rmdir', 'rename', 'chmod', 'fchmod', 'utimes', 'truncate', 'ftruncate',
  'access', 'realpath', 'statfs', 'fsync', 'fdatasync',
]);

/** After boot, when the warm pool grows from one worker to its full size (runner.ts). */
const POOL_FILL_MS = 250;

/** How long the kernel keeps polling the doorbell after work before sleeping on it. */
const KERNEL_SPIN_MS = 0.05;
/** The same after waking a sleeping process, which takes longer to wake and call again. */
const WAKE_SPIN_MS = 0.3;
/**
 * A gap this long between two looks at the doorbell while spinning means the
 * kernel's thread lost its core: the cores are busy, and spinning would take
 * time from the very process it waits for. A scheduler slice is ~1 ms or more;
 * 64 polls take well under a microsecond.
 */
const PREEMPTED_MS = 0.25;
/** After a spin was preempted, the kernel sleeps on the doorbell at once for this long. */
const SPIN_BACKOFF_MS = 20;

export class Kernel {
  readonly vfs: Vfs;
  readonly procs = new ProcessTable();
  readonly runner: Runner;
  /** Compiled WebAssembly images, shared by every worker (decision 0021). */
  readonly wasmModules: WasmModules;
  readonly init: Process;
  /**
   * The VM user's hands for the host's callers that act for someone else
   * (AgentVM's file calls, so the MCP tools; the playground's file tree):
   * uid/gid 1000, a guest pid, so permissions and policy.fs apply as to any
   * guest process. It runs no program and is not in the process table (no
   * signals reach it, no /proc entry); its pid, past the table's range,
   * names it in the audit trail.
   */
  readonly user: Process;
  readonly bootMs = Date.now();
  readonly hostname: string;
  readonly cpus: number;
  readonly fifos: FifoTable;
  readonly pipefs = new PipeFs();
  /** flock(2) locks, by file. */
  readonly flocks = new FlockTable();
  readonly software: SoftwareBroker;
  readonly net: NetStack;
  /** Sockets: port tables and unix names (kernel/socket/). */
  readonly sockets = new SocketTable(this.pipefs);
  /** Agent processes: budgets, traces, intents (kernel/agent/). */
  readonly agents = new AgentTable();
  private readonly doorbellSab = newDoorbell();
  private readonly doorbell = new Int32Array(this.doorbellSab);
  private readonly live = new Set<Process>();
  private readonly runq: Call[] = [];
  private draining = false;
  /** Inside poll(): replies made now are followed by more polling anyway. */
  private polling = false;
  private pollQueued = false;
  /** Until then the kernel does not spin (a spin was preempted: the cores are busy). */
  private calmUntil = 0;
  private readonly table: AnyHandler[];
  private stopped = false;
  private readonly runtimes: Set<string>;
  readonly persister: Persister | null;
  readonly snapshots: Snapshots;
  /** Pseudo-terminals, /dev/ptmx and /dev/tty. */
  readonly ptys = new Ptys(this);
  /** The syscall being served (Linux's `current`), for drivers that need the caller. */
  currentCall: Call | null = null;
  readonly policy: PolicyEngine;

  constructor(opts: KernelOptions) {
    this.vfs = opts.vfs;
    this.policy = new PolicyEngine(this, opts.policy, opts.hostMemory ?? UNKNOWN_HOST_MEMORY);
    this.wasmModules = new WasmModules(pagesFor(this.policy.limitValues.maxMemoryBytes));
    this.persister = opts.persister ?? null;
    this.snapshots = new Snapshots(() => this.vfs.root().fs as OverlayFs, this.persister?.store ?? new MemorySnapshots(), opts.imageId ?? '', (u, caller, from) => this.replaceLayer(u, caller, from));
    this.fifos = opts.fifos;
    this.software = new SoftwareBroker(this.vfs);
    this.net = opts.net ?? new NetStack(undefined, null, new HostSecrets(this.policy.policy.secrets));
    this.runtimes = new Set(opts.runtimes ?? RUNTIME_NAMES);
    this.pipefs.dev = 0xfe00;
    this.hostname = opts.hostname ?? 'agentos';
    this.cpus = Math.max(1, Math.floor(opts.cpus ?? 1));
    this.table = SYSCALLS.map((n) => handlers[n]);
    // Workers boot one per core at most, so a burst of spawns leaves the spawner its share of the cores (runner.ts).
    this.runner = new Runner(opts.workers, this.doorbellSab, {
      fault: (p, msg, outOfMemory) => {
        if (outOfMemory) {
          // Its heap reached the policy's limit: that process dies as if the OOM killer took it.
          this.tell(p, `${p.comm}: out of memory: the JavaScript heap reached its limit (policy processes.maxMemoryBytes)\n`);
          return this.exit(p, signalStatus(SIGKILL));
        }
        // The runtime itself failed (not the program): the process dies as if it aborted.
        diagnose(`pid ${p.pid}: runtime fault`, msg);
        this.exit(p, signalStatus(SIGABRT));
      },
    }, opts.warmWorkers ?? 3, { memoryBytes: this.policy.limitValues.maxMemoryBytes }, this.cpus);
    this.init = new Process(this.procs.allocPid(), this.vfs.root(), null);
    this.init.setIds(0, 0);
    this.init.comm = 'init';
    this.init.argv = ['init'];
    this.procs.add(this.init);
    this.user = new Process(this.procs.maxPid + 1, this.vfs.root(), this.init);
    this.user.setIds(1000, 1000);
    this.user.umask = 0; // the caller's mode is the new file's mode
    this.user.comm = 'user';
    this.user.argv = ['user'];
    this.user.fds = this.policy.limits.fdTable(this.user.pid) ?? this.user.fds;
    this.user.dispositions.fill(SIG_IGN); // SIGXFSZ from maxFileSize: EFBIG is the answer
    this.runner.prewarm();
    // The rest of the pool once the first program (an exec shell, usually) has had the cores.
    setTimeout(() => this.runner.fillPool(), POOL_FILL_MS);
    this.listen();
  }

  // ---- syscall entry points ------------------------------------------------

  /** A syscall from the host, in init's (pid 1) context. */
  hostCall(name: string, args: Value[]): Promise<Value> {
    return this.callAs(this.init, name, args);
  }

  /** A file syscall from the host made as the VM user (`user`): checked as a guest's is. */
  userCall(name: string, args: Value[]): Promise<Value> {
    if (!USER_CALLS.has(name)) return Promise.reject(new SysError(Errno.ENOSYS, `${name}: not a file call`));
    return this.callAs(this.user, name, args);
  }

  private callAs(p: Process, name: string, args: Value[]): Promise<Value> {
    // hasOwn: SYSNO is a plain object, so inherited names like 'toString' are not syscalls.
    const nr = Object.hasOwn(SYSNO, name) ? SYSNO[name as keyof typeof SYSNO] : -1;
    if (nr < 0) return Promise.reject(new SysError(Errno.ENOSYS, name));
    return new Promise((resolve, reject) => {
      new Call(this, p, name, this.table[nr], args.map(byteStrings), (errno, value) =>
        // Results may alias kernel buffers (file data, pipe rings); the host gets its own copy.
        errno
          ? reject(new SysError(errno, typeof value === 'string' ? value : name))
          : resolve(value instanceof Uint8Array ? value.slice() : value),
      ).attempt();
    });
  }

  /** Take every waiting request from process channels (their strings crossed the codec: byte strings already). */
  private pollChannels(): void {
    for (const p of this.live) {
      const ch = p.channel;
      if (!ch || !ch.hasRequest()) continue;
      try {
        this.serve(p, ch);
      } catch (e) {
        this.contain(p, e);
      }
      this.drain();
    }
  }

  /** Run one request from `p`'s channel (malformed ones are answered EINVAL by take()). */
  private serve(p: Process, ch: ChannelEnd): void {
    const req = ch.take(p.pid);
    if (!req) return;
    const { sysno, args } = req;
    const handler = this.table[sysno];
    if (!handler) return ch.reply(Errno.ENOSYS, null);
    // Always answer on the channel the request came from: after execve that is
    // the old image's, which the reply tells to unwind.
    const limits = this.policy.limits;
    if (limits.timed) {
      limits.enter(p);
      new Call(this, p, SYSCALLS[sysno], handler, args, (errno, value) => {
        limits.leave(p);
        this.answer(ch, errno, value);
      }).attempt();
    } else {
      new Call(this, p, SYSCALLS[sysno], handler, args, (errno, value) => this.answer(ch, errno, value)).attempt();
    }
  }

  /**
   * The last line: something escaped the syscall machinery while serving `p`
   * (a kernel bug its bytes found). The kernel and every other process go on;
   * `p`, whose call is in an unknown state, dies of SIGSYS.
   */
  private contain(p: Process, e: unknown): void {
    diagnose(`pid ${p.pid}: internal error serving its syscall, killed with SIGSYS`, e);
    try {
      this.exit(p, signalStatus(SIGSYS));
    } catch (e2) {
      diagnose(`pid ${p.pid}: cleanup after the error failed`, e2);
    }
  }

  /**
   * Reply to a process. A call that was parked (a read that waited for a pipe,
   * say) is answered from some other handler, with the kernel about to sleep:
   * the woken process's next call, a few microseconds away, would then pay a
   * full wake-up of the kernel's event loop (~100 µs). So poll for it first.
   */
  private answer(ch: ChannelEnd, errno: number, value: Value): void {
    ch.reply(errno, value);
    if (!this.polling && !this.pollQueued) {
      this.pollQueued = true;
      queueMicrotask(() => {
        this.pollQueued = false;
        this.poll(WAKE_SPIN_MS);
      });
    }
  }

  /**
   * Serve the channels until the doorbell has been quiet for `spinMs` (at
   * first) or KERNEL_SPIN_MS (after a request); returns its last value served.
   */
  private poll(spinMs = KERNEL_SPIN_MS): number {
    let seen = Atomics.load(this.doorbell, 0);
    if (this.stopped || this.polling) return seen;
    this.polling = true;
    try {
      this.pollChannels();
      let last = performance.now();
      let spinUntil = last < this.calmUntil ? 0 : last + spinMs;
      for (let i = 0; ; i++) {
        const now = Atomics.load(this.doorbell, 0);
        if (now !== seen) {
          seen = now;
          this.pollChannels();
          last = performance.now();
          spinUntil = last < this.calmUntil ? 0 : last + KERNEL_SPIN_MS;
        } else if ((i & 63) === 0) {
          const t = performance.now();
          if (t - last > PREEMPTED_MS) {
            this.calmUntil = t + SPIN_BACKOFF_MS;
            break;
          }
          if (t > spinUntil) break;
          last = t;
        }
      }
    } finally {
      this.polling = false;
    }
    return seen;
  }

  /** Sleep on the doorbell; after serving, spin briefly since more requests usually follow. */
  private listen(): void {
    if (this.stopped) return;
    const w = Atomics.waitAsync(this.doorbell, 0, this.poll());
    if (w.async) void w.value.then(() => this.listen());
    else queueMicrotask(() => this.listen());
  }

  /** Retry a woken call soon, outside whatever handler woke it. */
  schedule(call: Call): void {
    this.runq.push(call);
    if (!this.draining) queueMicrotask(() => this.drain());
  }

  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    try {
      for (let c = this.runq.shift(); c; c = this.runq.shift()) {
        try {
          c.attempt();
        } catch (e) {
          this.contain(c.proc, e);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  // ---- process lifecycle ---------------------------------------------------

  /** Start a process (abi/spawn.ts); the spawn syscall has filled in `env`. */
  spawn(parent: Process, req: SpawnRequest & { env: string[] }): Process {
    const cwd = req.cwd === undefined ? parent.cwd : this.vfs.resolve(parent.cred, parent.cwd, req.cwd, true);
    const loaded = this.load(parent, cwd, req.path, req.argv, true);
    // Resolve the fd map before creating anything, so EBADF leaves no trace.
    const mapped: [number, OpenFile][] | null = req.fds ? req.fds.map(([c, pfd]) => [c, parent.fds.get(pfd)]) : null;
    const inherited = () => parent.fds.entries().filter(([fd]) => !parent.fds.getCloexec(fd) && !mapped?.some(([c]) => c === fd));
    const files = mapped === null ? inherited() : req.inheritFds ? [...inherited(), ...mapped] : mapped;
    // A group lives while it has members, zombies included (a pipeline's first stage may have exited).
    if (req.pgid && !this.procs.all().some((q) => q.pgid === req.pgid && q.sid === parent.sid)) {
      throw new SysError(Errno.EPERM, `no process group ${req.pgid} in this session`);
    }
    // The new session's terminal: checked before anything is created (TIOCSCTTY's rules).
    const ctty = req.setsid && req.ctty !== undefined ? this.cttyFor(files, req.ctty) : null;
    if ((req.uid !== undefined || req.gid !== undefined) && parent.uid !== 0) {
      throw new SysError(Errno.EPERM, 'only root may spawn as another user');
    }
    const child = new Process(this.procs.allocPid(), cwd, parent);
    child.fds = this.policy.limits.fdTable(child.pid) ?? child.fds;
    if (req.uid !== undefined || req.gid !== undefined) child.setIds(req.uid ?? child.uid, req.gid ?? child.gid);
    if (loaded.setuid) child.uid = 0;
    try {
      for (const [fd, f] of files) child.fds.set(fd, f.ref());
    } catch (e) {
      // A child fd past the table's limit (EBADF): the references already taken go back.
      child.fds.closeAll();
      throw e;
    }
    if (req.setsid) {
      child.sid = child.pid;
      child.pgid = child.pid;
      child.ctty = null;
      if (ctty) acquire(child, ctty);
    } else if (req.pgid !== undefined) {
      child.pgid = req.pgid === 0 ? child.pid : req.pgid;
    }
    // Ignored signals stay ignored across exec, unless the request resets them; caught ones reset to default.
    const reset = req.sigDefault ?? 0;
    parent.dispositions.forEach((d, sig) => (child.dispositions[sig] = d === SIG_IGN && !(reset & (1 << sig)) ? SIG_IGN : 0));
    // The host is trusted and the guest is not: what the host passes in is sanitised, and host-held secrets are only their tokens.
    child.env = parent === this.init ? this.net.secrets.environ(sanitizeEnv(req.env)) : [...req.env];
    this.policy.environ(child.env);
    parent.children.add(child);
    this.procs.add(child);
    const tty = parent.ctty;
    if (req.foreground && req.pgid !== undefined && !req.setsid && tty && tty.session === parent.sid && tty.pgrp === parent.pgid) {
      tty.pgrp = child.pgid;
    }
    this.startImage(child, req.path, loaded, parent === this.init && req.execShell === true);
    return child;
  }

  private cttyFor(files: [number, OpenFile][], fd: number): Tty {
    const f = files.find(([c]) => c === fd)?.[1];
    const tty = f ? this.ptys.ttyOf(f) : null;
    if (!tty) throw new SysError(Errno.ENOTTY, `ctty: child fd ${fd} is not a terminal`);
    if (tty.session || tty.hungUp) throw new SysError(Errno.EPERM, 'the terminal belongs to another session');
    return tty;
  }

  /** Replace the process's program (execve): the new image starts in a pooled worker. */
  exec(p: Process, path: string, argv: string[], env: string[]): void {
    const loaded = this.load(p, p.cwd, path, argv, false);
    if (loaded.setuid) p.uid = 0;
    p.fds.closeOnExec();
    p.dispositions.forEach((d, sig) => {
      if (d === SIG_HANDLE) p.dispositions[sig] = 0;
    });
    p.caught = 0;
    p.env = [...env];
    this.policy.environ(p.env);
    // The old worker unwinds and returns to the pool (or is destroyed if it does not).
    this.runner.exited(p);
    this.live.delete(p);
    this.startImage(p, path, loaded);
  }

  private load(p: Process, cwd: Inode, path: string, argv: string[], spawning: boolean): Loaded {
    // The host's own spawns are trusted; the guest's meet the policy first (EAGAIN, EACCES, approval).
    if (p !== this.init) this.policy.mayRun(p, cwd, path, argv, spawning);
    const setuid = (inode: Inode, file: string) => p.uid !== 0 && isSetuidRoot(this.vfs, inode, file) && this.policy.maySetuid(p, file);
    const loaded = loadImage(this.vfs, p.cred, cwd, path, argv, setuid);
    if (!this.runtimes.has(loaded.image.runtime)) {
      throw new SysError(Errno.ENOEXEC, `${path}: no ${loaded.image.runtime} runtime in this build`);
    }
    return loaded;
  }

  private startImage(p: Process, path: string, { image, inode }: Loaded, execShell = false): void {
    // As on Linux: cmdline is what the runtime was given (interpreter included),
    // exe the file that runs, comm the name that was executed.
    p.argv = image.argv;
    p.exe = image.file;
    p.comm = basename(path).slice(0, 15);
    p.channel = new ChannelEnd(this.runner.claim(p));
    this.live.add(p);
    this.policy.started(p, execShell);
    if (image.runtime !== 'wasm') return this.runner.start(p, image, undefined, scriptKey(this.vfs, p.cred, p.cwd, image));
    const compiled = this.wasmModules.get(inode);
    if (!(compiled instanceof Promise)) return this.runner.start(p, image, compiled);
    // First run of this file: the worker starts once it is compiled, unless the
    // process was killed or replaced by exec meanwhile.
    const channel = p.channel;
    void compiled.then((m) => {
      if (this.live.has(p) && p.channel === channel) this.runner.start(p, image, m);
    });
  }

  /** Write `text` to the process's stderr, if it takes it now (the kernel never waits on a guest's pipe). */
  private tell(p: Process, text: string): void {
    if (!p.fds.has(2)) return;
    try {
      const f = p.fds.get(2);
      if (f.writable) f.ops.write(f, new TextEncoder().encode(text));
    } catch {
      // A closed or full pipe: the status alone tells.
    }
  }

  /** End a process: close its files, hand its children to init, become a zombie. */
  exit(p: Process, status: number, viaSyscall = false): void {
    if (!p.alive || p === this.init) return;
    if (p.current) p.current.abandon();
    if (viaSyscall) this.runner.exited(p);
    else this.runner.kill(p);
    this.live.delete(p);
    p.alarmTimer?.clear();
    processEnded(p, status);
    leaderExited(this, p);
    p.fds.closeAll();
    for (const c of p.children) {
      c.ppid = this.init.pid;
      c.orphan = true;
      this.init.children.add(c);
      if (!c.alive) this.reap(c);
    }
    p.children.clear();
    p.state = 'Z';
    p.status = status;
    p.exitMs = Date.now();
    this.policy.exited(p);
    agentExited(this, p, status);
    if (p.orphan) return this.reap(p);
    notifyParent(this, p);
  }

  /** Remove a zombie from the table for good. */
  reap(p: Process): void {
    this.procs.get(p.ppid)?.children.delete(p);
    this.procs.remove(p);
  }

  /**
   * A snapshot restore: every process but init ends, then the root's
   * writable layer becomes `upper` (mounts kept) and, if the VM persists, is
   * written as the layer's new checkpoint (a sync after this waits for it).
   * A guest's restore (`caller`) is its last act: it is told so, and it and
   * the processes waiting on it (its shells, up to its session's) exit with
   * status 0 rather than being killed; every other process is killed.
   */
  private async replaceLayer(upper: MemFs, caller?: RestoreCaller, from?: StoredSnapshot): Promise<void> {
    const ending = new Set<Process>();
    for (let p = caller && this.procs.get(caller.pid); p && p !== this.init; p = this.procs.get(p.ppid)) ending.add(p);
    const asker = caller && this.procs.get(caller.pid);
    if (asker) this.tell(asker, caller.note);
    for (const p of this.procs.all()) if (p !== this.init && p.state !== 'Z') this.exit(p, ending.has(p) ? 0 : 9);
    const old = this.vfs.root().fs as OverlayFs;
    this.policy.capLayer(upper);
    this.vfs.replaceRoot(new OverlayFs(old.lower, upper));
    this.policy.markFs();
    this.init.cwd = this.user.cwd = this.vfs.root();
    await this.persister?.adopt(upper, from);
  }

  shutdown(): void {
    this.stopped = true;
    this.policy.shutdown();
    for (const p of this.procs.all()) this.exit(p, 9);
    this.runner.shutdown();
    Atomics.notify(this.doorbell, 0);
  }
}

function basename(p: string): string {
  const parts = p.split('/').filter(Boolean);
  return parts[parts.length - 1] ?? p;
}

/**
 * A host argument's strings as a guest's would arrive through the codec: a
 * string holding lone surrogates becomes the byte string it encodes to
 * (abi/bytestr.ts), so the host cannot make a name no guest can spell.
 */
function byteStrings(v: Value): Value {
  if (typeof v === 'string') return canonicalName(v);
  if (Array.isArray(v)) return v.map(byteStrings);
  if (v && typeof v === 'object' && !(v instanceof Uint8Array)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, byteStrings(x)]));
  return v;
}

// The exec protocol (abi/exec-protocol.ts), kernel side: an exec shell is one
// persistent shell, commands framed onto its stdin, output read until a sentinel with a
// fresh random token per call. Bytes before the sentinel are the command's
// output, exactly; stdout and stderr stay apart.
//
// This runs in the kernel worker (kernel-service.ts), on syscalls made there,
// so one exec costs the host one message each way (api/exec-client.ts) instead of
// a message per write and per read.

import { encodeFrame, endMarkers, EXEC_SHELL_FLAG } from '../../abi/exec-protocol.js';
import { SIGINT, SIGKILL } from '../../abi/signal.js';
import { WEXITSTATUS, WIFEXITED, WTERMSIG } from '../../abi/wait.js';
import { longTimeout, timeoutOption, type LongTimeout } from '../../abi/long-timeout.js';
import type { Machine } from '../api/machine.js';

/** What an exec shell needs of the kernel: a Machine whose service is the kernel's own. */
type ExecShellKernel = Pick<Machine, 'syscall' | 'readStream' | 'writeFile' | 'execShellActive' | 'killSession'>;

export interface ExecOptions {
  /** Bytes or text for the command's stdin; default /dev/null. */
  stdin?: Uint8Array | string;
  /** SIGINT to the command after this long, SIGKILL after a grace period; exit code 124. 0 or Infinity: none. */
  timeoutMs?: number;
  cwd?: string;
  env?: Record<string, string>;
}

export interface ExecBytesResult {
  stdout: Uint8Array;
  stderr: Uint8Array;
  exitCode: number;
  timedOut: boolean;
  /** Present (true) when output beyond the policy's maxExecOutput was dropped. */
  truncated?: boolean;
}

export interface OutputChunk {
  stream: 'stdout' | 'stderr';
  data: Uint8Array;
}

export interface ExecShellOptions {
  env: Record<string, string>;
  cwd: string;
  uid: number;
  gid: number;
}

/** What the kernel's policy adds to an exec shell's options (kernel-service.ts). */
export interface ExecShellLimits {
  /** Bytes of stdout and of stderr kept per exec (policy.processes.maxExecOutput); absent: all. */
  maxOutput?: number;
  /** The policy limits CPU or wall time: the shell's clocks restart with each exec. */
  clocks: boolean;
}

const dec = new TextDecoder();
/** How long after SIGINT before the command's processes get SIGKILL, and the shell after that. */
const GRACE_MS = 1000;

/** Random bytes drawn 4 KiB at a time: one getRandomValues per call cost ~20 µs of a ~500 µs exec. */
const pool = new Uint8Array(4096);
let poolAt = pool.length;

function randomToken(): string {
  if (poolAt + 16 > pool.length) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  let t = '';
  for (const x of pool.subarray(poolAt, (poolAt += 16))) t += x.toString(16).padStart(2, '0');
  return t;
}

/** Index of `needle` in `hay` from `from`, or -1. */
function indexOf(hay: Uint8Array, needle: Uint8Array, from = 0): number {
  outer: for (let i = from; i <= hay.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** Length of the longest suffix of `hay` that is a proper prefix of `needle` (may continue in the next chunk). */
function partialTail(hay: Uint8Array, needle: Uint8Array): number {
  for (let n = Math.min(needle.length - 1, hay.length); n > 0; n--) {
    let ok = true;
    for (let j = 0; j < n; j++) if (hay[hay.length - n + j] !== needle[j]) ok = false;
    if (ok) return n;
  }
  return 0;
}

class StreamDemux {
  private pending = new Uint8Array(0);
  private parts: Uint8Array[] = [];
  private kept = 0;
  /** Output of the current command was dropped past `max`. */
  truncated = false;
  private waiting: { marker: Uint8Array; resolve: (tail: string | null) => void } | null = null;
  closed = false;

  constructor(
    readonly stream: 'stdout' | 'stderr',
    private readonly emit: (c: OutputChunk) => void,
    private readonly max = Infinity,
  ) {}

  /** Start collecting for a command whose sentinel begins with `marker`. */
  expect(marker: Uint8Array): Promise<string | null> {
    this.parts = [];
    this.kept = 0;
    this.truncated = false;
    return new Promise((resolve) => {
      this.waiting = { marker, resolve };
      this.scan();
    });
  }

  take(): Uint8Array {
    const total = this.parts.reduce((n, p) => n + p.length, 0);
    const out = new Uint8Array(total);
    let off = 0;
    for (const p of this.parts) {
      out.set(p, off);
      off += p.length;
    }
    this.parts = [];
    return out;
  }

  push(data: Uint8Array): void {
    const n = new Uint8Array(this.pending.length + data.length);
    n.set(this.pending);
    n.set(data, this.pending.length);
    this.pending = n;
    this.scan();
  }

  close(): void {
    this.closed = true;
    this.deliver(this.pending);
    this.pending = new Uint8Array(0);
    this.waiting?.resolve(null);
    this.waiting = null;
  }

  private deliver(data: Uint8Array): void {
    if (!data.length) return;
    // Past the cap the bytes are dropped (the stream still flows, so the sentinel is still found).
    const room = this.max - this.kept;
    if (data.length > room) this.truncated = true;
    const keep = data.length > room ? data.subarray(0, Math.max(0, room)) : data;
    if (!keep.length) return;
    this.kept += keep.length;
    this.parts.push(keep);
    this.emit({ stream: this.stream, data: keep });
  }

  private scan(): void {
    const w = this.waiting;
    if (!w) return;
    const at = indexOf(this.pending, w.marker);
    if (at >= 0) {
      const nl = this.pending.indexOf(0x0a, at + w.marker.length);
      if (nl < 0) return; // the status digits have not all arrived
      this.deliver(this.pending.slice(0, at));
      const tail = dec.decode(this.pending.subarray(at + w.marker.length, nl));
      this.pending = this.pending.slice(nl + 1);
      this.waiting = null;
      w.resolve(tail);
      return;
    }
    const keep = partialTail(this.pending, w.marker);
    this.deliver(this.pending.slice(0, this.pending.length - keep));
    this.pending = this.pending.slice(this.pending.length - keep);
  }
}

export class ExecShell {
  private inFd = -1;
  private pid = -1;
  private out!: StreamDemux;
  private err!: StreamDemux;
  private queue: Promise<unknown> = Promise.resolve();
  private listeners = new Set<(c: OutputChunk) => void>();
  alive = false;

  constructor(private readonly m: ExecShellKernel, private readonly opts: ExecShellOptions & ExecShellLimits) {}

  onOutput(cb: (c: OutputChunk) => void): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }

  get shellPid(): number {
    return this.pid;
  }

  async start(): Promise<void> {
    const m = this.m;
    const [inR, inW] = await m.syscall('pipe', 0o2000000);
    const [outR, outW] = await m.syscall('pipe', 0o2000000);
    const [errR, errW] = await m.syscall('pipe', 0o2000000);
    const env = Object.entries(this.opts.env).map(([k, v]) => `${k}=${v}`);
    try {
      this.pid = await m.syscall('spawn', {
        path: '/bin/bash', argv: ['/bin/bash', EXEC_SHELL_FLAG], env, cwd: this.opts.cwd,
        fds: [[0, inR], [1, outW], [2, errW]], setsid: true, uid: this.opts.uid, gid: this.opts.gid, execShell: true,
      });
    } finally {
      for (const fd of [inR, outW, errW]) await m.syscall('close', fd);
    }
    this.inFd = inW;
    const emit = (c: OutputChunk) => this.listeners.forEach((l) => l(c));
    this.out = new StreamDemux('stdout', emit, this.opts.maxOutput);
    this.err = new StreamDemux('stderr', emit, this.opts.maxOutput);
    this.alive = true;
    void this.pump(outR, this.out);
    void this.pump(errR, this.err);
  }

  private async pump(fd: number, demux: StreamDemux): Promise<void> {
    try {
      for await (const b of this.m.readStream(fd)) demux.push(b);
    } catch {
      /* machine stopped */
    } finally {
      demux.close();
    }
  }

  /** Run one command; calls are serialised, as in a terminal. */
  exec(cmd: string, o: ExecOptions = {}): Promise<ExecBytesResult> {
    let timeoutMs: number | undefined;
    try {
      timeoutMs = timeoutOption('exec: timeoutMs', o.timeoutMs);
    } catch (e) {
      return Promise.reject(e);
    }
    const run = this.queue.then(() => this.run(cmd, { ...o, timeoutMs }));
    this.queue = run.catch(() => {});
    return run;
  }

  private async run(cmd: string, o: ExecOptions): Promise<ExecBytesResult> {
    const m = this.m;
    const token = randomToken();
    let stdinPath: string | undefined;
    if (o.stdin !== undefined) {
      stdinPath = `/tmp/.agentos-stdin-${token}`;
      await m.writeFile(stdinPath, o.stdin, 0o600);
      await m.syscall('chown', stdinPath, this.opts.uid, this.opts.gid);
    }
    const markers = endMarkers(token);
    const outDone = this.out.expect(markers.stdout);
    const errDone = this.err.expect(markers.stderr);
    const frame = encodeFrame({ token, cmd, stdin: stdinPath, cwd: o.cwd, env: o.env });
    let timedOut = false;
    const since = Date.now();
    const timers: LongTimeout[] = [];
    if (o.timeoutMs !== undefined) {
      timers.push(longTimeout(() => {
        timedOut = true;
        void m.syscall('kill', this.pid, SIGINT).catch(() => {});
        timers.push(longTimeout(() => void this.killJobs(since), GRACE_MS));
        timers.push(longTimeout(() => void m.syscall('kill', this.pid, SIGKILL).catch(() => {}), 2 * GRACE_MS));
      }, o.timeoutMs));
    }
    try {
      // Not awaited: the channel keeps order, so the clock restarts before the frame is written.
      if (this.opts.clocks) void m.execShellActive(this.pid, true).catch(() => {});
      await this.writeAll(frame);
      const [status] = await Promise.all([outDone, errDone]);
      const stdout = this.out.take();
      const stderr = this.err.take();
      const extra = this.out.truncated || this.err.truncated ? { truncated: true } : {};
      if (status === null) {
        // The shell ended (exit N, or killed): its status is the command's; the next exec gets a new shell.
        this.alive = false;
        const [, ws] = await m.syscall('waitpid', this.pid, 0);
        const code = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
        return { stdout, stderr, exitCode: timedOut ? 124 : code, timedOut, ...extra };
      }
      return { stdout, stderr, exitCode: timedOut ? 124 : Number(status), timedOut, ...extra };
    } finally {
      timers.forEach((t) => t.clear());
      // A command that timed out leaves nothing behind it started, background jobs included.
      if (timedOut) await this.killJobs(since);
      if (this.opts.clocks && this.alive) void m.execShellActive(this.pid, false).catch(() => {});
    }
  }

  /** SIGKILL every process of the shell's POSIX session started since `since`, except the shell, in one kernel turn (fork bombs included). */
  private async killJobs(since: number): Promise<void> {
    await this.m.killSession(this.pid, since).catch(() => {});
  }

  private async writeAll(data: Uint8Array): Promise<void> {
    for (let off = 0; off < data.length; ) off += await this.m.syscall('write', this.inFd, data.subarray(off, off + 65536));
  }

  async close(): Promise<void> {
    if (!this.alive) return;
    this.alive = false;
    await this.m.syscall('close', this.inFd).catch(() => {});
    await this.m.syscall('waitpid', this.pid, 0).catch(() => {});
  }
}

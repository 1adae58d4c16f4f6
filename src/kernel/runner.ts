// Process workers: a warm pool of runtime workers, each running one process at a time.
//
// Starting a worker costs 20-40 ms of CPU (the runtime's own bootstrap, then
// our bundle), so idle workers wait pre-loaded and are reused after a clean
// exit; a VM that spawns nothing for POOL_IDLE_MS gives them back (each is a
// JavaScript heap: decision 0055). A process that is killed, faults or does not unwind promptly after
// exit has its worker terminated instead: whatever guest code is still running
// there dies with it.
//
// Workers boot a few at a time (one per core, kernel.ts). A burst of spawns
// (`sleep 10 &` in a loop, a fork bomb) used to start a worker per process at
// once: the booting workers took the cores from the shell and the kernel that
// spawn them, ~70 ms per `&`. A process whose worker waits its turn exists already
// (spawn returned its pid; signals and wait work); its program starts when its
// worker has booted, as a forked child runs when it is scheduled.
//
// The pool grows with demand: a claim that finds the idle pool empty keeps
// nearly twice the warm pool idle from then on, and a quiet spell (SHRINK_MS
// without one) gives that surplus back.
//
// Each slot has one syscall channel, used by every process its worker runs: a
// new 256 KiB SharedArrayBuffer per spawn cost ~100 µs. A channel is in one
// worker at most: a booted worker that takes over a claimed slot still waiting
// for its own worker (release) takes that slot's channel, never used before,
// and drops its own.

import { HEADER_BYTES, newChannelBuffer } from '../abi/channel.js';
import type { Image, RunMessage, WorkerMessage } from '../abi/runtime.js';
import type { Process } from './process.js';

/** The host's handle on one worker (Web Worker or worker_threads Worker). */
export interface WorkerPort {
  post(msg: unknown): void;
  onMessage(cb: (msg: unknown) => void): void;
  /** The worker died; `outOfMemory` when its heap limit (WorkerLimits) killed it. */
  onError(cb: (err: unknown, outOfMemory?: boolean) => void): void;
  terminate(): void;
}

/** Limits for each process worker (policy.processes.maxMemoryBytes). */
export interface WorkerLimits {
  /**
   * Memory per process, in bytes; absent: none. The Node host caps each
   * worker's JavaScript heap with it; runtimes that make their own
   * WebAssembly memory (Pyodide) cap it with the run message's copy.
   */
  memoryBytes?: number;
}

export type WorkerFactory = (limits: WorkerLimits) => WorkerPort;

/** How long a worker may take to unwind after exit before it is terminated. */
const UNWIND_MS = 2000;
/** How long without a claim finding the idle pool empty before the pool gives its surplus back. */
const SHRINK_MS = 5000;

/** waiting: not started yet (its turn to boot has not come); booting: started, not 'ready' yet. */
type SlotState = 'waiting' | 'booting' | 'ready' | 'dead';
const READINESS: Record<SlotState, number> = { dead: -1, waiting: 0, booting: 1, ready: 2 };

/**
 * How long the pool stays warm after the last spawn. An idle VM then gives its
 * idle workers back (≈ 8-13 MB each on Node); the next spawn starts a cold
 * one (tens of ms, more on a busy machine: small beside the idle time that
 * caused it) and the pool refills.
 */
export const POOL_IDLE_MS = 30_000;

/** After the first spawn back from idle, when the pool grows to its full size again (as after boot, kernel.ts). */
const REFILL_MS = 250;

class Slot {
  proc: Process | null = null;
  unwindTimer: ReturnType<typeof setTimeout> | null = null;
  /** Its syscall channel; a worker that takes over a claimed slot (release) takes the slot's. */
  channel = newChannelBuffer();
  state: SlotState = 'waiting';
  port: WorkerPort | null = null;
  /** The run message for a worker that has not started yet. */
  pending: RunMessage | null = null;
}

export interface RunnerEvents {
  /** A worker failed outside the program's control, or ran out of memory; the process must die. */
  fault(proc: Process, message: string, outOfMemory: boolean): void;
}

export class Runner {
  private idle: Slot[] = [];
  private running = new Map<Process, Slot>();
  /** Workers whose process exited, given UNWIND_MS to come back idle. */
  private unwinding = new Set<Slot>();
  /** Slots whose worker waits to start: claimed ones first, the latest first. */
  private queue: Slot[] = [];
  private booting = 0;
  private spawned = 0;
  /** When a worker was last claimed (Date.now()); from creation, the pool counts as just used. */
  private lastClaim = Date.now();
  /** When a claim last found the idle pool empty (the pool grew); 0: not grown since the last shrink. */
  private grewAt = 0;
  /**
   * The pool's one timer, due at its next deadline: SHRINK_MS after it last
   * grew (back to the warm pool), idleMs after the last claim (the pool given
   * back, `trimmed`, until the next claim). Armed once the pool holds workers.
   */
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerDue = Infinity;
  private trimmed = false;

  constructor(
    private readonly factory: WorkerFactory,
    private readonly doorbell: SharedArrayBuffer,
    private readonly events: RunnerEvents,
    readonly warm = 2,
    private readonly limits: WorkerLimits = {},
    /** Workers booting at once at most. */
    private readonly boots = 2,
    private readonly idleMs = POOL_IDLE_MS,
  ) {}

  /** Idle and unwinding workers kept at most: the pool holds its processes' workers plus this many. */
  private get spare(): number {
    return this.warm * 2;
  }

  /**
   * How many idle workers to keep: one while the VM boots, `warm` after
   * (fillPool). Starting the whole pool at once made every worker compile its
   * bundle together with the first program's, on two cores ≈ 40 ms later.
   */
  private target = 1;
  /** fillPool has run: the VM's boot is over. */
  private filled = false;

  /** Top the pool up to its target of idle workers, counting those about to come back from unwinding. */
  prewarm(): void {
    while (this.idle.length + this.unwinding.size < this.target) this.idle.push(this.create());
    if (this.idle.length > 0 && this.timer === null) this.arm();
  }

  /** Boot is over: keep the whole warm pool from now on. */
  fillPool(): void {
    this.filled = true;
    if (this.target === 0) return; // shut down, or given back as idle, meanwhile
    this.target = Math.max(this.target, this.warm);
    this.prewarm();
  }

  /** Give `proc` a pooled worker; returns the worker's channel, cleared, for `proc` to use. */
  claim(proc: Process): SharedArrayBuffer {
    const idle = this.takeIdle();
    const slot = idle ?? this.create();
    this.lastClaim = Date.now();
    if (this.trimmed) {
      // Back from idle: one worker ready now, the rest of the pool shortly (as after boot).
      this.trimmed = false;
      this.target = 1;
      setTimeout(() => this.fillPool(), REFILL_MS);
    } else if (!idle) this.grow();
    slot.proc = proc;
    this.running.set(proc, slot);
    if (slot.state === 'waiting') {
      // Claimed slots start before the pool's spares, the latest claim first:
      // after a burst of `&` jobs, the command the user runs next (a `ps`, a
      // `kill`) does not wait behind every job's worker.
      this.queue.splice(this.queue.indexOf(slot), 1);
      this.queue.unshift(slot);
    }
    new Int32Array(slot.channel, 0, HEADER_BYTES / 4).fill(0);
    // While the VM boots, the claimed worker is not replaced until fillPool:
    // a replacement booting then took the cores from the first program's.
    if (this.filled) queueMicrotask(() => this.prewarm());
    return slot.channel;
  }

  /** Run `image` as `proc` in the worker it claimed; a wasm image comes with its compiled module, a js one with its script's key. */
  start(proc: Process, image: Image, module?: WebAssembly.Module | string, script?: string): void {
    const slot = this.running.get(proc);
    if (!slot || proc.channel?.sab !== slot.channel) throw new Error('process has no worker');
    const msg: RunMessage = {
      type: 'run', pid: proc.pid, channel: slot.channel, doorbell: this.doorbell, image, env: proc.env,
    };
    if (module !== undefined) msg.module = module;
    if (script !== undefined) msg.script = script;
    if (this.limits.memoryBytes !== undefined) msg.memoryBytes = this.limits.memoryBytes;
    if (slot.port) slot.port.post(msg);
    else slot.pending = msg;
  }

  /** The process called exit: give its worker a moment to unwind, then recycle it. */
  exited(proc: Process): void {
    const slot = this.running.get(proc);
    if (!slot) return;
    this.running.delete(proc);
    slot.proc = null;
    // Only as many come back as the pool keeps: past that (a burst of exits, a
    // fork bomb at its limit) a worker ends now, so a VM's workers stay within
    // its processes plus twice the warm pool.
    if (this.idle.length + this.unwinding.size >= this.spare) return this.destroy(slot);
    this.unwinding.add(slot);
    slot.unwindTimer = setTimeout(() => this.destroy(slot), UNWIND_MS);
  }

  /** End the process's worker now (kill, exec, fault). */
  kill(proc: Process): void {
    const slot = this.running.get(proc);
    if (!slot) return;
    this.running.delete(proc);
    this.destroy(slot);
    queueMicrotask(() => this.prewarm());
  }

  get stats(): { idle: number; running: number; unwinding: number; spawned: number } {
    return { idle: this.idle.length, running: this.running.size, unwinding: this.unwinding.size, spawned: this.spawned };
  }

  shutdown(): void {
    this.target = 0;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    for (const s of [...this.idle, ...this.running.values(), ...this.unwinding, ...this.queue]) this.destroy(s);
    this.idle = [];
    this.queue = [];
    this.running.clear();
  }

  /** An idle slot, the readiest first: booted, then booting, then waiting; the most recently used among equals. */
  private takeIdle(): Slot | undefined {
    let best = -1;
    for (let i = this.idle.length - 1; i >= 0; i--) {
      if (best < 0 || READINESS[this.idle[i].state] > READINESS[this.idle[best].state]) best = i;
    }
    return best < 0 ? undefined : this.idle.splice(best, 1)[0];
  }

  /**
   * Demand outran the pool: keep more idle until SHRINK_MS pass without a
   * claim finding it empty. One less than `spare`, so that a short process's
   * worker still finds room to come back idle (at `spare` each exit would end
   * a worker and each claim start one).
   */
  private grow(): void {
    if (this.target === 0) return;
    this.target = Math.max(this.target, this.spare - 1);
    this.grewAt = Date.now();
    this.arm();
  }

  /** A quiet spell: back to the warm pool, ending the idle workers past it (the least ready first). */
  private shrink(): void {
    this.grewAt = 0;
    this.target = this.warm;
    while (this.idle.length > this.warm) {
      let worst = 0;
      for (let i = 1; i < this.idle.length; i++) if (READINESS[this.idle[i].state] < READINESS[this.idle[worst].state]) worst = i;
      this.destroy(this.idle[worst]);
    }
  }

  /** Arm the timer for the pool's next deadline, unless it is due sooner already (it then re-arms itself). */
  private arm(now = Date.now()): void {
    const due = Math.min(this.lastClaim + this.idleMs, this.grewAt ? this.grewAt + SHRINK_MS : Infinity);
    if (this.timer !== null && this.timerDue <= due) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => this.tick(), Math.max(0, due - now));
  }

  private tick(): void {
    this.timer = null;
    if (this.target === 0) return; // shut down
    const now = Date.now();
    if (now - this.lastClaim >= this.idleMs) {
      // Idle: give the pool back until the next claim.
      this.trimmed = true;
      this.target = 0;
      this.grewAt = 0;
      for (const s of [...this.idle, ...this.unwinding]) this.destroy(s);
      return;
    }
    if (this.grewAt && now - this.grewAt >= SHRINK_MS) this.shrink();
    this.arm(now);
  }

  private create(): Slot {
    const slot = new Slot();
    this.queue.push(slot);
    this.pump();
    return slot;
  }

  /** Start waiting workers while fewer than `boots` are booting. */
  private pump(): void {
    while (this.booting < this.boots && this.queue.length) this.boot(this.queue.shift()!);
  }

  private boot(slot: Slot): void {
    const port = this.factory(this.limits);
    slot.port = port;
    slot.state = 'booting';
    this.booting++;
    this.spawned++;
    port.onMessage((m) => this.onMessage(slot, m as WorkerMessage));
    port.onError((e, outOfMemory = false) => {
      const proc = slot.proc;
      this.destroy(slot);
      if (proc) this.events.fault(proc, String((e as Error)?.message ?? e), outOfMemory);
    });
    if (slot.pending) port.post(slot.pending);
    slot.pending = null;
  }

  private onMessage(slot: Slot, m: WorkerMessage): void {
    if (m.type === 'ready') {
      if (slot.state !== 'booting') return; // once per worker
      slot.state = 'ready';
      this.booting--;
      this.pump();
      if (!slot.proc) this.release(slot);
    } else if (m.type === 'idle') {
      if (slot.proc || slot.state === 'dead') return; // still owned: the process has not exited yet
      if (slot.unwindTimer) clearTimeout(slot.unwindTimer);
      slot.unwindTimer = null;
      this.unwinding.delete(slot);
      this.release(slot);
    } else if (m.type === 'retire' && !slot.proc) {
      this.destroy(slot);
      this.prewarm();
    } else if (m.type === 'fault' && slot.proc) {
      const proc = slot.proc;
      this.running.delete(proc);
      this.destroy(slot);
      this.events.fault(proc, m.message, false);
    }
  }

  /**
   * A booted worker without a process: the latest claim still waiting for its
   * worker to start takes this one instead (its channel and run message move
   * over; the waiting slot never starts), else it joins the idle pool.
   */
  private release(slot: Slot): void {
    const waiting = this.queue[0];
    if (waiting?.proc) {
      this.queue.shift();
      this.idle = this.idle.filter((s) => s !== slot);
      const proc = waiting.proc;
      slot.channel = waiting.channel;
      slot.proc = proc;
      this.running.set(proc, slot);
      if (waiting.pending) slot.port!.post(waiting.pending);
      waiting.proc = null;
      waiting.pending = null;
      waiting.state = 'dead';
    } else if (!this.idle.includes(slot)) {
      if (!this.trimmed && this.idle.length < this.spare) this.idle.push(slot);
      else this.destroy(slot);
    }
  }

  private destroy(slot: Slot): void {
    if (slot.state === 'dead') return;
    if (slot.unwindTimer) clearTimeout(slot.unwindTimer);
    slot.unwindTimer = null;
    this.unwinding.delete(slot);
    slot.proc = null;
    slot.pending = null;
    this.idle = this.idle.filter((s) => s !== slot);
    this.queue = this.queue.filter((s) => s !== slot);
    const wasBooting = slot.state === 'booting';
    slot.state = 'dead';
    slot.port?.terminate();
    if (wasBooting) {
      this.booting--;
      this.pump();
    }
  }
}

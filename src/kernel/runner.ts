// Process workers: a warm pool of runtime workers, each running one process at a time.
//
// Spawning a worker costs 20-30 ms, so idle workers wait pre-loaded and are
// reused after a clean exit; a VM that spawns nothing for POOL_IDLE_MS gives
// them back (each is a JavaScript heap: decision 0055). A process that is
// killed, faults or does not unwind promptly after exit has its worker
// terminated instead: whatever guest code is still running there dies with it.
//
// Each worker has one syscall channel for its life, used by every process it
// runs: a new 256 KiB SharedArrayBuffer per spawn cost ~100 µs, and a channel
// that never leaves its worker cannot be reached from another one.

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
  readonly channel = newChannelBuffer();
  constructor(readonly port: WorkerPort) {}
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
  private spawned = 0;
  /** When a worker was last claimed (Date.now()). */
  private lastClaim = 0;
  /** The idle timer (armed while the pool holds workers); the pool was given back when `trimmed`. */
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private trimmed = false;

  constructor(
    private readonly factory: WorkerFactory,
    private readonly doorbell: SharedArrayBuffer,
    private readonly events: RunnerEvents,
    readonly warm = 2,
    private readonly limits: WorkerLimits = {},
    private readonly idleMs = POOL_IDLE_MS,
  ) {}

  /**
   * How many idle workers to keep: one while the VM boots, `warm` after
   * (fillPool). Starting the whole pool at once made every worker compile its
   * bundle together with the first program's, on two cores ≈ 40 ms later.
   */
  private target = 1;

  /** Top the pool up to its target of idle workers, counting those about to come back from unwinding. */
  prewarm(): void {
    while (this.idle.length + this.unwinding.size < this.target) this.idle.push(this.create());
    if (this.idle.length > 0 && this.idleTimer === null) this.armIdleTimer(this.idleMs);
  }

  /** Boot is over: keep the whole warm pool from now on. */
  fillPool(): void {
    if (this.target === 0) return; // shut down, or given back as idle, meanwhile
    this.target = this.warm;
    this.prewarm();
  }

  /** Give `proc` a pooled worker; returns the worker's channel, cleared, for `proc` to use. */
  claim(proc: Process): SharedArrayBuffer {
    const slot = this.idle.pop() ?? this.create();
    this.lastClaim = Date.now();
    if (this.trimmed) {
      // Back from idle: one worker ready now, the rest of the pool shortly (as after boot).
      this.trimmed = false;
      this.target = 1;
      setTimeout(() => this.fillPool(), REFILL_MS);
    }
    slot.proc = proc;
    this.running.set(proc, slot);
    new Int32Array(slot.channel, 0, HEADER_BYTES / 4).fill(0);
    queueMicrotask(() => this.prewarm());
    return slot.channel;
  }

  /** Run `image` as `proc` in the worker it claimed; a wasm image comes with its compiled module. */
  start(proc: Process, image: Image, module?: WebAssembly.Module | string): void {
    const slot = this.running.get(proc);
    if (!slot || proc.channel?.sab !== slot.channel) throw new Error('process has no worker');
    const msg: RunMessage = {
      type: 'run', pid: proc.pid, channel: slot.channel, doorbell: this.doorbell, image, env: proc.env,
    };
    if (module !== undefined) msg.module = module;
    if (this.limits.memoryBytes !== undefined) msg.memoryBytes = this.limits.memoryBytes;
    slot.port.post(msg);
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
    if (this.idle.length + this.unwinding.size >= this.warm * 2) return this.destroy(slot);
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
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    for (const s of [...this.idle, ...this.running.values(), ...this.unwinding]) this.destroy(s);
    this.idle = [];
    this.running.clear();
  }

  private armIdleTimer(ms: number): void {
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.target === 0) return; // shut down
      const quiet = Date.now() - this.lastClaim;
      if (quiet < this.idleMs) return this.armIdleTimer(this.idleMs - quiet);
      // Idle: give the pool back until the next claim.
      this.trimmed = true;
      this.target = 0;
      for (const s of [...this.idle, ...this.unwinding]) this.destroy(s);
    }, ms);
  }

  private create(): Slot {
    const slot = new Slot(this.factory(this.limits));
    this.spawned++;
    slot.port.onMessage((m) => this.onMessage(slot, m as WorkerMessage));
    slot.port.onError((e, outOfMemory = false) => {
      const proc = slot.proc;
      this.destroy(slot);
      if (proc) this.events.fault(proc, String((e as Error)?.message ?? e), outOfMemory);
    });
    return slot;
  }

  private onMessage(slot: Slot, m: WorkerMessage): void {
    if (m.type === 'idle') {
      if (slot.proc) return; // still owned: the process has not exited yet
      if (slot.unwindTimer) clearTimeout(slot.unwindTimer);
      slot.unwindTimer = null;
      this.unwinding.delete(slot);
      if (!this.trimmed && this.idle.length < this.warm * 2) this.idle.push(slot);
      else slot.port.terminate();
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

  private destroy(slot: Slot): void {
    if (slot.unwindTimer) clearTimeout(slot.unwindTimer);
    this.unwinding.delete(slot);
    slot.proc = null;
    slot.port.terminate();
    this.idle = this.idle.filter((s) => s !== slot);
  }
}

// User side of the syscall channel: encode, ring the doorbell, spin, then sleep.
// Runs inside a process worker, where blocking with Atomics.wait is allowed.

import {
  DATA_BYTES, H_ERRNO, H_PARKED, H_REPLY_LEN, H_REQ_LEN, H_SIGNALS, H_SLEEPING, H_STATE, H_SYSNO,
  HEADER_BYTES, STATE_IDLE, STATE_REPLY, STATE_REQUEST,
} from '../abi/channel.js';
import { CodecOverflow, Decoder, Encoder, type Value } from '../abi/codec.js';
import { Errno, SysError } from '../abi/errno.js';
import type { SyscallArgs, SyscallResult } from '../abi/syscall-types.js';
import { SYSNO, type SyscallName } from '../abi/syscalls.js';

/**
 * Spin this many polls before Atomics.wait: most replies come within
 * microseconds. The kernel flags requests that parked, and those sleep at once
 * so a blocked process leaves the CPU to the ones it waits for.
 */
const SPIN_POLLS = 2000;

export class SyscallClient {
  private header: Int32Array;
  private data: Uint8Array;
  private enc: Encoder;
  private bell: Int32Array;
  private dead = false;
  /** Called after a reply when the kernel says caught signals are waiting. */
  onSignals: (() => void) | null = null;

  constructor(channel: SharedArrayBuffer, doorbell: SharedArrayBuffer) {
    this.header = new Int32Array(channel, 0, HEADER_BYTES / 4);
    this.data = new Uint8Array(channel, HEADER_BYTES, DATA_BYTES);
    this.enc = new Encoder(this.data);
    this.bell = new Int32Array(doorbell);
  }

  /** After exit/exec the process's identity is gone: leftover guest callbacks must not act as the next one. */
  invalidate(): void {
    this.dead = true;
  }

  get invalidated(): boolean {
    return this.dead;
  }

  /**
   * Run pending caught-signal handlers now if the kernel flagged any. Costs no
   * syscall when none are pending, so interpreters can call it in hot loops.
   */
  pollSignals(): void {
    if (Atomics.load(this.header, H_SIGNALS) && this.onSignals && !this.dead) this.onSignals();
  }

  /** Syscall `name`: its arguments and answer are as abi/syscall-types.ts says (the kernel checks what it gets). */
  call<N extends SyscallName>(name: N, ...args: SyscallArgs<N>): SyscallResult<N> {
    if (this.dead) throw new Error(`agentos: syscall ${name} after the process ended`);
    const h = this.header;
    // A call abandoned between request and reply (a stack overflow unwinding through
    // the wait below) left its request in flight: let it finish before reusing the channel.
    if (Atomics.load(h, H_STATE) !== STATE_IDLE) this.settle();
    this.enc.reset();
    try {
      // Every argument type of the table is a codec value (CheckWire in abi/syscall-types.ts).
      for (const a of args as readonly Value[]) this.enc.value(a);
    } catch (e) {
      // Arguments larger than the channel (a 300 KB argv): the call fails as Linux's execve does.
      if (e instanceof CodecOverflow) throw new SysError(Errno.E2BIG, `${name}: arguments exceed the ${DATA_BYTES}-byte syscall channel`);
      throw e;
    }
    h[H_SYSNO] = SYSNO[name];
    h[H_REQ_LEN] = this.enc.pos;
    Atomics.store(h, H_STATE, STATE_REQUEST);
    Atomics.add(this.bell, 0, 1);
    Atomics.notify(this.bell, 0);
    let spins = SPIN_POLLS;
    while (Atomics.load(h, H_STATE) !== STATE_REPLY) {
      if (spins > 0 && !Atomics.load(h, H_PARKED)) spins--;
      else this.sleep();
    }
    const errno = h[H_ERRNO];
    const len = h[H_REPLY_LEN];
    const value = len ? new Decoder(this.data.subarray(0, len)).value() : null;
    Atomics.store(h, H_STATE, STATE_IDLE);
    if (Atomics.load(h, H_SIGNALS) && this.onSignals) this.onSignals();
    if (errno !== 0) throw new SysError(errno, typeof value === 'string' ? value : name);
    return value as SyscallResult<N>;
  }

  private settle(): void {
    const h = this.header;
    while (Atomics.load(h, H_STATE) === STATE_REQUEST) this.sleep();
    Atomics.store(h, H_STATE, STATE_IDLE);
  }

  /** Sleep until the reply; saying so first, since the kernel notifies only sleepers (abi/channel.ts). */
  private sleep(): void {
    const h = this.header;
    Atomics.store(h, H_SLEEPING, 1);
    Atomics.wait(h, H_STATE, STATE_REQUEST);
    Atomics.store(h, H_SLEEPING, 0);
  }
}

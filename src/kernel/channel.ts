// Kernel side of a process's syscall channel (layout in abi/channel.ts).

import {
  DATA_BYTES, H_ERRNO, H_PARKED, H_REPLY_LEN, H_REQ_LEN, H_SIGNALS, H_SLEEPING, H_STATE, H_SYSNO, HEADER_BYTES, STATE_REPLY,
  STATE_REQUEST,
} from '../abi/channel.js';
import { CodecError, CodecOverflow, decodeAll, Encoder, type Value } from '../abi/codec.js';
import { Errno } from '../abi/errno.js';
import { diagnose } from './diag.js';

/** A request as the process wrote it: the decoder has checked its shape, the handler checks its types. */
export interface Request {
  sysno: number;
  args: Value[];
}

export class ChannelEnd {
  readonly header: Int32Array;
  readonly data: Uint8Array;
  private enc: Encoder;
  /** True while the kernel holds this channel's request (running or parked). */
  busy = false;

  constructor(readonly sab: SharedArrayBuffer) {
    this.header = new Int32Array(sab, 0, HEADER_BYTES / 4);
    this.data = new Uint8Array(sab, HEADER_BYTES, DATA_BYTES);
    this.enc = new Encoder(this.data);
  }

  /** A request is waiting that the kernel has not taken yet. */
  hasRequest(): boolean {
    return !this.busy && Atomics.load(this.header, H_STATE) === STATE_REQUEST;
  }

  /**
   * Take the waiting request. The bytes are the process's: a malformed message
   * (length out of range, bad tag, truncated value, too deep) is answered
   * EINVAL here and yields null; it never reaches a handler.
   */
  take(pid: number): Request | null {
    this.busy = true;
    const sysno = this.header[H_SYSNO];
    try {
      // Byte arguments stay views into the channel: the caller is blocked until we reply.
      return { sysno, args: decodeAll(this.data, this.header[H_REQ_LEN], false) };
    } catch (e) {
      if (!(e instanceof CodecError)) throw e;
      diagnose(`pid ${pid}: malformed syscall ${sysno}`, e.message);
      this.reply(Errno.EINVAL, `malformed syscall message: ${e.message}`);
      return null;
    }
  }

  /** Reply with a value, or with an errno and its detail text (or null). */
  reply(errno: number, value: Value): void {
    let len = 0;
    this.enc.reset();
    try {
      this.enc.value(value);
      len = this.enc.pos;
    } catch (e) {
      // Too big for the channel is the caller's E2BIG; anything else a value the codec cannot carry.
      if (e instanceof CodecOverflow) errno = Errno.E2BIG;
      else {
        diagnose('unencodable syscall reply', (e as Error)?.message ?? e);
        errno = Errno.EIO;
      }
    }
    this.header[H_ERRNO] = errno;
    this.header[H_PARKED] = 0;
    this.header[H_REPLY_LEN] = len;
    this.busy = false;
    Atomics.store(this.header, H_STATE, STATE_REPLY);
    // A caller still spinning sees the reply by itself (abi/channel.ts).
    if (Atomics.load(this.header, H_SLEEPING)) Atomics.notify(this.header, H_STATE);
  }

  /** The request is blocked in the kernel: let the caller sleep instead of spinning. */
  parked(): void {
    Atomics.store(this.header, H_PARKED, 1);
  }

  /** Tell the runtime caught signals are waiting (checked after every reply). */
  flagSignals(on: boolean): void {
    Atomics.store(this.header, H_SIGNALS, on ? 1 : 0);
  }
}

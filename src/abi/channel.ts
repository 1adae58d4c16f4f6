// Layout of a process's syscall channel: one SharedArrayBuffer per process.
//
//   Int32 header (HEADER_BYTES) | data area (request args, then reply value)
//
// The process writes a request, sets STATE=REQUEST and rings the kernel's
// doorbell; the kernel answers by writing the reply, setting STATE=REPLY and
// notifying. The caller spins briefly before Atomics.wait
// (spinning buys one to two orders of magnitude on round-trip latency).
// The kernel's reply notifies only a caller that said it sleeps (H_SLEEPING):
// a notify takes the engine's process-wide futex lock, and one that wakes
// nobody is all cost. The caller stores the flag before its wait compares the
// state, the kernel reads it after storing the reply, both sequentially
// consistent, so a sleeper is never missed. The flag is the process's own: a
// process that clears it while asleep only stops its own wake-ups (kill ends
// its worker). The doorbell is shared by every process, so ringing it always
// notifies: a flag there could be cleared by one process to starve the rest.

export const HEADER_BYTES = 64;
/** Data area per process. Larger reads/writes are chunked by the user library. */
export const DATA_BYTES = 256 * 1024;
/** Most file bytes one read/write syscall carries (leaves room for the tags). */
export const IO_CHUNK = DATA_BYTES - 64;

// Int32 header slots.
export const H_STATE = 0;
export const H_SYSNO = 1;
export const H_REQ_LEN = 2;
export const H_ERRNO = 3;
export const H_REPLY_LEN = 4;
/** Non-zero when the kernel holds caught signals for this process (fetch with `sigtake`). */
export const H_SIGNALS = 5;
/** Set by the kernel when the request parked (it will take a while): the caller stops spinning. */
export const H_PARKED = 6;
/** Set by the caller before it sleeps in Atomics.wait: the kernel's reply must notify. */
export const H_SLEEPING = 7;

export const STATE_IDLE = 0;
export const STATE_REQUEST = 1;
export const STATE_REPLY = 2;

export function newChannelBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(HEADER_BYTES + DATA_BYTES);
}

/** The kernel's doorbell: slot 0 counts requests; processes add 1 and notify. */
export function newDoorbell(): SharedArrayBuffer {
  return new SharedArrayBuffer(8);
}

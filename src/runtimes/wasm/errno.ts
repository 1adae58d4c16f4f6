// Kernel (Linux) errno → WASI errno. WASI numbers errors alphabetically, so
// the mapping is a table, not an offset.

import { SysError } from '../../abi/errno.js';
import { WasiErrno as W } from './abi.js';

const LINUX_TO_WASI: Record<number, number> = {
  1: W.PERM, 2: W.NOENT, 3: W.SRCH, 4: W.INTR, 5: W.IO, 6: W.NXIO, 7: W.TOOBIG, 8: W.NOEXEC, 9: W.BADF,
  10: W.CHILD, 11: W.AGAIN, 12: W.NOMEM, 13: W.ACCES, 14: W.FAULT, 16: W.BUSY, 17: W.EXIST, 18: W.XDEV,
  19: W.NODEV, 20: W.NOTDIR, 21: W.ISDIR, 22: W.INVAL, 23: W.NFILE, 24: W.MFILE, 25: W.NOTTY, 26: W.TXTBSY,
  27: W.FBIG, 28: W.NOSPC, 29: W.SPIPE, 30: W.ROFS, 31: W.MLINK, 32: W.PIPE, 33: W.DOM, 34: W.RANGE,
  35: W.DEADLK, 36: W.NAMETOOLONG, 37: W.NOLCK, 38: W.NOSYS, 39: W.NOTEMPTY, 40: W.LOOP, 42: W.NOMSG,
  43: W.IDRM, 67: W.NOLINK, 71: W.PROTO, 72: W.MULTIHOP, 74: W.BADMSG, 75: W.OVERFLOW, 84: W.ILSEQ,
  88: W.NOTSOCK, 89: W.DESTADDRREQ, 90: W.MSGSIZE, 91: W.PROTOTYPE, 92: W.NOPROTOOPT, 93: W.PROTONOSUPPORT,
  95: W.NOTSUP, 97: W.AFNOSUPPORT, 98: W.ADDRINUSE, 99: W.ADDRNOTAVAIL, 100: W.NETDOWN, 101: W.NETUNREACH,
  102: W.NETRESET, 103: W.CONNABORTED, 104: W.CONNRESET, 105: W.NOBUFS, 106: W.ISCONN, 107: W.NOTCONN,
  110: W.TIMEDOUT, 111: W.CONNREFUSED, 113: W.HOSTUNREACH, 114: W.ALREADY, 115: W.INPROGRESS, 116: W.STALE,
  122: W.DQUOT, 125: W.CANCELED, 130: W.OWNERDEAD, 131: W.NOTRECOVERABLE,
};

export function wasiErrno(linux: number): number {
  return LINUX_TO_WASI[linux] ?? W.IO;
}

/** An error raised inside the WASI layer itself, already in WASI's numbering. */
export class WasiError extends Error {
  constructor(readonly errno: number) {
    super(`WASI errno ${errno}`);
  }
}

/** The WASI errno for an error thrown by a syscall or the WASI layer; anything else is not ours. */
export function errnoOf(e: unknown): number | undefined {
  if (e instanceof WasiError) return e.errno;
  if (e instanceof SysError) return wasiErrno(e.errno);
  return undefined;
}

// WASI preview 1 numbers and record layouts (wasi_snapshot_preview1.witx).

export const enum WasiErrno {
  SUCCESS = 0, TOOBIG = 1, ACCES = 2, ADDRINUSE = 3, ADDRNOTAVAIL = 4, AFNOSUPPORT = 5, AGAIN = 6, ALREADY = 7,
  BADF = 8, BADMSG = 9, BUSY = 10, CANCELED = 11, CHILD = 12, CONNABORTED = 13, CONNREFUSED = 14, CONNRESET = 15,
  DEADLK = 16, DESTADDRREQ = 17, DOM = 18, DQUOT = 19, EXIST = 20, FAULT = 21, FBIG = 22, HOSTUNREACH = 23,
  IDRM = 24, ILSEQ = 25, INPROGRESS = 26, INTR = 27, INVAL = 28, IO = 29, ISCONN = 30, ISDIR = 31, LOOP = 32,
  MFILE = 33, MLINK = 34, MSGSIZE = 35, MULTIHOP = 36, NAMETOOLONG = 37, NETDOWN = 38, NETRESET = 39,
  NETUNREACH = 40, NFILE = 41, NOBUFS = 42, NODEV = 43, NOENT = 44, NOEXEC = 45, NOLCK = 46, NOLINK = 47,
  NOMEM = 48, NOMSG = 49, NOPROTOOPT = 50, NOSPC = 51, NOSYS = 52, NOTCONN = 53, NOTDIR = 54, NOTEMPTY = 55,
  NOTRECOVERABLE = 56, NOTSOCK = 57, NOTSUP = 58, NOTTY = 59, NXIO = 60, OVERFLOW = 61, OWNERDEAD = 62,
  PERM = 63, PIPE = 64, PROTO = 65, PROTONOSUPPORT = 66, PROTOTYPE = 67, RANGE = 68, ROFS = 69, SPIPE = 70,
  SRCH = 71, STALE = 72, TIMEDOUT = 73, TXTBSY = 74, XDEV = 75, NOTCAPABLE = 76,
}

export const enum Filetype {
  UNKNOWN = 0, BLOCK_DEVICE = 1, CHARACTER_DEVICE = 2, DIRECTORY = 3, REGULAR_FILE = 4, SOCKET_DGRAM = 5,
  SOCKET_STREAM = 6, SYMBOLIC_LINK = 7,
}

/** Rights bits; all defined ones fit in 30 bits, so they are kept as plain numbers. */
export const RIGHT = {
  FD_DATASYNC: 1 << 0, FD_READ: 1 << 1, FD_SEEK: 1 << 2, FD_FDSTAT_SET_FLAGS: 1 << 3, FD_SYNC: 1 << 4,
  FD_TELL: 1 << 5, FD_WRITE: 1 << 6, FD_ADVISE: 1 << 7, FD_ALLOCATE: 1 << 8, PATH_CREATE_DIRECTORY: 1 << 9,
  PATH_CREATE_FILE: 1 << 10, PATH_LINK_SOURCE: 1 << 11, PATH_LINK_TARGET: 1 << 12, PATH_OPEN: 1 << 13,
  FD_READDIR: 1 << 14, PATH_READLINK: 1 << 15, PATH_RENAME_SOURCE: 1 << 16, PATH_RENAME_TARGET: 1 << 17,
  PATH_FILESTAT_GET: 1 << 18, PATH_FILESTAT_SET_SIZE: 1 << 19, PATH_FILESTAT_SET_TIMES: 1 << 20,
  FD_FILESTAT_GET: 1 << 21, FD_FILESTAT_SET_SIZE: 1 << 22, FD_FILESTAT_SET_TIMES: 1 << 23, PATH_SYMLINK: 1 << 24,
  PATH_REMOVE_DIRECTORY: 1 << 25, PATH_UNLINK_FILE: 1 << 26, POLL_FD_READWRITE: 1 << 27, SOCK_SHUTDOWN: 1 << 28,
  SOCK_ACCEPT: 1 << 29,
} as const;
export const ALL_RIGHTS = (1 << 30) - 1;

/** oflags of path_open. */
export const OFLAG_CREAT = 1, OFLAG_DIRECTORY = 2, OFLAG_EXCL = 4, OFLAG_TRUNC = 8;
/** fdflags: append, dsync (2), nonblock, rsync (8), sync (16). */
export const FDFLAG_APPEND = 1, FDFLAG_NONBLOCK = 4, ALL_FDFLAGS = 31;
/** lookupflags. */
export const LOOKUP_SYMLINK_FOLLOW = 1;
/** fstflags of the set_times calls. */
export const FST_ATIM = 1, FST_ATIM_NOW = 2, FST_MTIM = 4, FST_MTIM_NOW = 8;

export const CLOCK_REALTIME = 0, CLOCK_MONOTONIC = 1, CLOCK_PROCESS_CPUTIME = 2, CLOCK_THREAD_CPUTIME = 3;

/** poll_oneoff: subscription and event records. */
export const EVENTTYPE_CLOCK = 0, EVENTTYPE_FD_READ = 1, EVENTTYPE_FD_WRITE = 2;
export const SUBCLOCK_ABSTIME = 1;
export const EVENT_FD_READWRITE_HANGUP = 1;
export const SUBSCRIPTION_SIZE = 48;
export const EVENT_SIZE = 32;

export const PREOPENTYPE_DIR = 0;
/** A dirent header before its name: d_next u64, d_ino u64, d_namlen u32, d_type u8. */
export const DIRENT_SIZE = 24;

/**
 * WASI signal numbers follow Linux's up to SIGTERM (15); WASI has no SIGSTKFLT,
 * so from SIGCHLD on each is one below Linux's.
 */
export function linuxSignal(wasiSig: number): number {
  return wasiSig <= 15 ? wasiSig : wasiSig + 1;
}

// open(2) flags, fcntl(2) commands, *at() flags, lseek whence — Linux x86-64 values.

export const O_ACCMODE = 0o3;
export const O_RDONLY = 0o0;
export const O_WRONLY = 0o1;
export const O_RDWR = 0o2;
export const O_CREAT = 0o100;
export const O_EXCL = 0o200;
export const O_NOCTTY = 0o400;
export const O_TRUNC = 0o1000;
export const O_APPEND = 0o2000;
export const O_NONBLOCK = 0o4000;
export const O_DIRECTORY = 0o200000;
export const O_NOFOLLOW = 0o400000;
export const O_CLOEXEC = 0o2000000;
export const O_PATH = 0o10000000;

/** Flags that live on the open file description and that F_SETFL may change. */
export const O_SETFL_MASK = O_APPEND | O_NONBLOCK;

export const F_DUPFD = 0;
export const F_GETFD = 1;
export const F_SETFD = 2;
export const F_GETFL = 3;
export const F_SETFL = 4;
export const F_DUPFD_CLOEXEC = 1030;
export const FD_CLOEXEC = 1;

export const AT_FDCWD = -100;
export const AT_SYMLINK_NOFOLLOW = 0x100;
export const AT_REMOVEDIR = 0x200;
export const AT_SYMLINK_FOLLOW = 0x400;

export const SEEK_SET = 0;
export const SEEK_CUR = 1;
export const SEEK_END = 2;

export const F_OK = 0;
export const X_OK = 1;
export const W_OK = 2;
export const R_OK = 4;

/** Linux limits the VFS enforces. */
export const PATH_MAX = 4096;
export const NAME_MAX = 255;
export const SYMLOOP_MAX = 40;
export const PIPE_BUF = 4096;
export const OPEN_MAX = 1024;

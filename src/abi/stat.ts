// File types and mode bits (sys/stat.h) and the stat record returned by stat(2).

export const S_IFMT = 0o170000;
export const S_IFSOCK = 0o140000;
export const S_IFLNK = 0o120000;
export const S_IFREG = 0o100000;
export const S_IFBLK = 0o060000;
export const S_IFDIR = 0o040000;
export const S_IFCHR = 0o020000;
export const S_IFIFO = 0o010000;
export const S_ISUID = 0o4000;
export const S_ISGID = 0o2000;
export const S_ISVTX = 0o1000;

export const isDir = (mode: number): boolean => (mode & S_IFMT) === S_IFDIR;
export const isReg = (mode: number): boolean => (mode & S_IFMT) === S_IFREG;
export const isLnk = (mode: number): boolean => (mode & S_IFMT) === S_IFLNK;
export const isChr = (mode: number): boolean => (mode & S_IFMT) === S_IFCHR;
export const isFifo = (mode: number): boolean => (mode & S_IFMT) === S_IFIFO;

/** d_type values of getdents64. */
export const DT_UNKNOWN = 0, DT_FIFO = 1, DT_CHR = 2, DT_DIR = 4, DT_REG = 8, DT_LNK = 10, DT_SOCK = 12;

export function dtype(mode: number): number {
  return (mode & S_IFMT) >> 12;
}

/** makedev/major/minor as glibc packs them for small numbers. */
export const makedev = (major: number, minor: number): number => (major << 8) | minor;
export const major = (dev: number): number => dev >> 8;
export const minor = (dev: number): number => dev & 0xff;

/** What stat(2) returns. Times are milliseconds since the epoch (fractions allowed). */
export interface Stat {
  dev: number;
  ino: number;
  mode: number;
  nlink: number;
  uid: number;
  gid: number;
  rdev: number;
  size: number;
  blksize: number;
  blocks: number;
  atimeMs: number;
  mtimeMs: number;
  ctimeMs: number;
}

export interface DirEntry {
  name: string;
  ino: number;
  type: number; // DT_*
}

export interface StatFs {
  type: string;
  bsize: number;
  blocks: number;
  bfree: number;
  bavail: number;
  files: number;
  ffree: number;
  namelen: number;
}

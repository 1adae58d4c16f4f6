// Inode numbers: stable for the same object, so stat twice agrees and
// pathOf can match readdir entries to lookups.
//   1                       the root
//   2 ..                    system-wide entries, in tree order
//   pid * 2^16              /proc/<pid>
//   pid * 2^16 + 1 ..       its fixed entries, in tree order
//   pid * 2^16 + 0x4000+fd  fd/<fd>;  + 0x8000+fd  fdinfo/<fd>

export const ROOT_INO = 1;
export const pidBase = (pid: number): number => pid * 0x10000;
export const FD_OFFSET = 0x4000;
export const FDINFO_OFFSET = 0x8000;
/** fds at or above this have no inode number of their own; Linux's default limit is far below. */
export const MAX_FD = 0x4000;

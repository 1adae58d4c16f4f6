// What the file compressors (bzip2, xz) share around their codec: the size
// they read at a time, opening an input, and replacing a file by its (de)compressed form. Each tool
// keeps its own messages and exit statuses; this is the part that must behave
// the same in all of them.

import { SysError } from '../../abi/errno.js';
import { O_CREAT, O_EXCL, O_RDONLY, O_WRONLY } from '../../abi/fcntl.js';
import type { Stat } from '../../abi/stat.js';
import type { Sys } from '../../libc/sys.js';

/** What the compressors read at a time. */
export const CHUNK = 1 << 16;

/** Opens an input file and stats it; null when `cannotOpen` reported why it could not be. */
export function openInput(
  sys: Sys, name: string, flags: number, cannotOpen: (e: SysError) => void,
): { fd: number; st: Stat } | null {
  let fd = -1;
  try {
    fd = sys.open(name, O_RDONLY | flags);
    return { fd, st: sys.fstat(fd) };
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    if (fd >= 0) sys.close(fd);
    cannotOpen(e);
    return null;
  }
}

/**
 * Writes `outName` from `fill` as a compressor does: created exclusively and
 * private (0600) while it fills, removed again when `fill` fails (returns
 * false or throws), and given the input's permissions and times when it
 * succeeds. When the file cannot be created, `cannotCreate` reports it and
 * the result is false.
 */
export function writeOutputFile(
  sys: Sys, outName: string, input: Stat, fill: (fd: number) => boolean, cannotCreate: (e: SysError) => void,
): boolean {
  let out: number;
  try {
    out = sys.open(outName, O_WRONLY | O_CREAT | O_EXCL, 0o600);
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    cannotCreate(e);
    return false;
  }
  let ok = false;
  try {
    ok = fill(out);
  } finally {
    sys.close(out);
    if (!ok) sys.unlink(outName);
  }
  if (!ok) return false;
  try {
    sys.chmod(outName, input.mode & 0o7777);
    sys.utimes(outName, input.atimeMs, input.mtimeMs);
  } catch {
    // best effort, as bzip2 and xz: the data is what matters
  }
  return true;
}

// execvp's $PATH search, one rule for the user library's walk (libc/execvp.ts:
// one spawn or execve per candidate) and the kernel's spawnp
// (kernel/sys/proc.ts: every candidate tried inside one syscall).

import { Errno, SysError } from './errno.js';

/** Errors that mean "not here, try the next directory" (as glibc: anything else stops the walk). */
const SEARCH_ON = new Set<number>([Errno.ENOENT, Errno.ENOTDIR, Errno.ENODEV, Errno.ETIMEDOUT, Errno.EACCES]);

/** The paths to try for `file` on the search path `path`, in order: a name with '/' as is, an empty element the current directory. */
export function searchCandidates(file: string, path: string): string[] {
  if (file.includes('/')) return [file];
  return path.split(':').map((dir) => (dir === '' ? file : `${dir.replace(/\/+$/, '')}/${file}`));
}

/**
 * Try `attempt(candidate)` on each of `file`'s candidates; returns the first
 * result. Throws ENOENT, or EACCES if some candidate existed but could not be
 * run, or the first other error (ENOEXEC: the caller's cue to fall back to a shell).
 */
export function searchPath<T>(file: string, path: string, attempt: (candidate: string) => T): T {
  if (file === '') throw new SysError(Errno.ENOENT, file);
  let denied = false;
  for (const candidate of searchCandidates(file, path)) {
    try {
      return attempt(candidate);
    } catch (e) {
      if (!(e instanceof SysError) || !SEARCH_ON.has(e.errno) || file.includes('/')) throw e;
      if (e.errno === Errno.EACCES) denied = true;
    }
  }
  throw new SysError(denied ? Errno.EACCES : Errno.ENOENT, file);
}

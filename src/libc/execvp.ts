// The $PATH walk, as libc's execvp does it:
// a name with '/' is used as is; otherwise each PATH element is tried in order,
// an empty element meaning the current directory; the first file the kernel
// agrees to run wins; EACCES is remembered and reported only if nothing runs.
// No cache: every lookup asks the filesystem.

import { DEFAULT_PATH, getenv } from '../abi/env.js';
import { Errno, SysError } from '../abi/errno.js';

/** Errors that mean "not here, try the next directory" (as glibc: anything else stops the walk). */
const NEXT = new Set<number>([Errno.ENOENT, Errno.ENOTDIR, Errno.ENODEV, Errno.ETIMEDOUT, Errno.EACCES]);

/** The paths to try for `file`, in order. */
export function candidates(file: string, env: readonly string[]): string[] {
  if (file.includes('/')) return [file];
  const path = getenv(env, 'PATH') ?? DEFAULT_PATH;
  return path.split(':').map((dir) => (dir === '' ? file : `${dir.replace(/\/+$/, '')}/${file}`));
}

/**
 * Try `attempt(path)` on each candidate; returns its result. Throws ENOENT,
 * or EACCES if some candidate existed but could not be run, or the first
 * other error (ENOEXEC: the shell's cue to fall back to /bin/sh).
 */
export function walkPath<T>(file: string, env: readonly string[], attempt: (path: string) => T): T {
  if (file === '') throw new SysError(Errno.ENOENT, file);
  let denied = false;
  for (const path of candidates(file, env)) {
    try {
      return attempt(path);
    } catch (e) {
      if (!(e instanceof SysError) || !NEXT.has(e.errno) || file.includes('/')) throw e;
      if (e.errno === Errno.EACCES) denied = true;
    }
  }
  throw new SysError(denied ? Errno.EACCES : Errno.ENOENT, file);
}

/**
 * Run `argv` from `path` with execvp's ENOEXEC fallback (POSIX): a file whose
 * header the kernel does not know runs under /bin/sh, which runs a script and
 * refuses a binary (126) itself. `run` is spawn or execve.
 */
export function withShellFallback<T>(path: string, argv: string[], run: (path: string, argv: string[]) => T): T {
  try {
    return run(path, argv);
  } catch (e) {
    if (!(e instanceof SysError) || e.errno !== Errno.ENOEXEC) throw e;
    return run('/bin/sh', ['/bin/sh', path, ...argv.slice(1)]);
  }
}

// The $PATH walk, as libc's execvp does it:
// a name with '/' is used as is; otherwise each PATH element is tried in order,
// an empty element meaning the current directory; the first file the kernel
// agrees to run wins; EACCES is remembered and reported only if nothing runs.
// No cache: every lookup asks the filesystem. The kernel's spawnp does the
// same walk in one syscall (abi/path-search.ts holds the rule for both).

import { DEFAULT_PATH, getenv } from '../abi/env.js';
import { Errno, SysError } from '../abi/errno.js';
import { searchCandidates, searchPath } from '../abi/path-search.js';
import type { SpawnRequest } from '../abi/spawn.js';
import type { Sys } from './sys.js';

/** The search path of a program whose environment is `env`. */
export function pathOf(env: readonly string[]): string {
  return getenv(env, 'PATH') ?? DEFAULT_PATH;
}

/** The paths to try for `file`, in order. */
export function candidates(file: string, env: readonly string[]): string[] {
  return searchCandidates(file, pathOf(env));
}

/** Try `attempt(path)` on each candidate for `file` under `env`'s PATH (abi/path-search.ts). */
export function walkPath<T>(file: string, env: readonly string[], attempt: (path: string) => T): T {
  return searchPath(file, pathOf(env), attempt);
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

/**
 * posix_spawnp with execvp's ENOEXEC fallback: the $PATH search in one kernel
 * call (spawnp); a file without a recognised header is found again by the
 * walk and run under /bin/sh. Returns the pid.
 */
export function spawnvp(sys: Sys, req: SpawnRequest & { env: string[] }): number {
  try {
    return sys.spawnp(req, pathOf(req.env))[0];
  } catch (e) {
    if (!(e instanceof SysError) || e.errno !== Errno.ENOEXEC) throw e;
  }
  return walkPath(req.path, req.env, (path) => withShellFallback(path, req.argv, (file, argv) => sys.spawn({ ...req, path: file, argv })));
}

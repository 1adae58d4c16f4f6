// Running a command for -exec and xargs: resolve it through the $PATH walk
// (one spawnp), spawn, wait. A file without a recognised header runs under /bin/sh, as
// execvp's ENOEXEC fallback does.

import { SysError } from '../../../abi/errno.js';
import { O_RDONLY } from '../../../abi/fcntl.js';
import { spawnvp } from '../../../libc/execvp.js';
import type { Sys } from '../../../libc/sys.js';

export type RunResult = { ok: true; status: number } | { ok: false; errno: number };

export interface RunOptions {
  cwd?: string;
  /** Give the child /dev/null as stdin (xargs: its own stdin is the input). */
  nullStdin?: boolean;
}

export function envList(env: Record<string, string>): string[] {
  return Object.entries(env).map(([k, v]) => `${k}=${v}`);
}

/** Spawn argv and wait; the raw wait status, or the errno that kept it from starting. */
export function runCommand(sys: Sys, argv: string[], env: string[], o: RunOptions = {}): RunResult {
  let nullFd = -1;
  try {
    if (o.nullStdin) nullFd = sys.open('/dev/null', O_RDONLY);
    const fds: [number, number][] | undefined = nullFd >= 0 ? [[0, nullFd], [1, 1], [2, 2]] : undefined;
    const pid = spawnvp(sys, { path: argv[0], argv, env, cwd: o.cwd, fds });
    const [, status] = sys.waitpid(pid);
    return { ok: true, status };
  } catch (e) {
    if (e instanceof SysError) return { ok: false, errno: e.errno };
    throw e;
  } finally {
    if (nullFd >= 0) sys.close(nullFd);
  }
}

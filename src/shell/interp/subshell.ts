// Child shell processes: pipeline stages that are not plain programs,
// background jobs and process substitutions. Workers cannot fork, so the
// child is a fresh agentos-shell handed a serialised copy of our state
// (ShellState.serialize, state.ts), the command's source text (printed
// from the AST) and the original line of each node (syntax/lines.ts).

import type { Command, Stmt } from '../syntax/index.js';
import { print } from '../syntax/index.js';
import { encodeLines } from '../syntax/lines.js';
import { Errno, SysError } from '../../abi/errno.js';
import { F_DUPFD_CLOEXEC, F_SETFD } from '../../abi/fcntl.js';
import type { Sys } from '../../libc/sys.js';
import { decodeShell } from '../bytes.js';
import { reap, retryingSpawn } from './reap.js';
import { restore, tempInput, tracked } from './redirect.js';
import type { Shell } from './shell.js';

export const SUBSHELL_FLAG = '--agentos-subshell';
/** Like SUBSHELL_FLAG, with the state, source and lines in the file open at the fd given next. */
export const SUBSHELL_STATE_FD_FLAG = '--agentos-subshell-fd';

/** Source text for a command or statements, for the child to parse. */
export function sourceOf(code: Stmt[] | Command): string {
  if (Array.isArray(code)) return code.map((s) => print(s)).join('\n');
  return print(code);
}

/**
 * Start a child shell running `code` with fds remapped by `fds` (child fd →
 * our fd); all our other non-close-on-exec fds are inherited. Returns its pid.
 */
export function startSubshell(sh: Shell, code: Stmt[] | Command, fds: Record<number, number> = {}, pgid?: number, foreground = false): number {
  reap(sh);
  const self = sh.selfPath;
  const state = sh.serialize();
  const source = sourceOf(code);
  const lines = encodeLines(code);
  const env = sh.vars.environ();
  return withFds(sh, fds, () => {
    try {
      return retryingSpawn(sh, () => sh.sys.spawn({ path: self, argv: [self, SUBSHELL_FLAG, state, source, lines], env, pgid, foreground }));
    } catch (e) {
      if (!(e instanceof SysError && e.errno === Errno.E2BIG)) throw e;
      return spawnWithStateFile(sh, [state, source, lines], env, pgid, foreground);
    }
  });
}

/**
 * State larger than the syscall channel (a big variable, a long here-document
 * in a function): it crosses in an unlinked temp file on an fd only this child
 * inherits. The environment goes along when it fits; when it alone is too big,
 * the child starts without one, since a child shell takes its variables from
 * the state (a forked bash has them too, and its programs then fail E2BIG).
 */
function spawnWithStateFile(sh: Shell, start: SubshellStart, env: string[], pgid: number | undefined, foreground: boolean): number {
  const self = sh.selfPath;
  const fd = tempInput(sh, JSON.stringify(start));
  try {
    sh.sys.fcntl(fd, F_SETFD, 0);
    const argv = [self, SUBSHELL_STATE_FD_FLAG, String(fd)];
    try {
      return sh.sys.spawn({ path: self, argv, env, pgid, foreground });
    } catch (e) {
      if (!(e instanceof SysError && e.errno === Errno.E2BIG)) throw e;
      return sh.sys.spawn({ path: self, argv, env: [], pgid, foreground });
    }
  } finally {
    sh.sys.close(fd);
  }
}

/** What a child shell starts from: its state, its source, and the source's original lines. */
export type SubshellStart = [state: string, source: string, lines: string];

/** The child's end: its start from the temp file at `fd` (then closed). */
export function stateFromFd(sys: Sys, fd: number): SubshellStart {
  try {
    return JSON.parse(decodeShell(sys.readAll(fd))) as SubshellStart;
  } finally {
    sys.close(fd);
  }
}

/** Run `fn` with our fds temporarily rearranged (child fd → our fd), as a fork+dup2 would. */
export function withFds<T>(sh: Shell, fds: Record<number, number>, fn: () => T): T {
  const saved = tracked(sh);
  try {
    for (const [child, ours] of Object.entries(fds)) {
      const fd = Number(child);
      if (fd === ours) continue;
      let copy = -1;
      try {
        copy = sh.sys.fcntl(fd, F_DUPFD_CLOEXEC, 10);
      } catch {
        /* was closed */
      }
      saved.push([fd, copy]);
      sh.sys.dup2(ours, fd);
    }
    return fn();
  } finally {
    restore(sh, saved);
  }
}

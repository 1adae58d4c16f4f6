// Redirections, bash style: the shell's own fds are rearranged (the old ones
// saved close-on-exec at fd >= 10) for the duration of a command, so builtins
// and spawned programs see the same table; then everything is put back.

import { Errno, strerror, SysError } from '../../abi/errno.js';
import {
  F_DUPFD_CLOEXEC, O_APPEND, O_CLOEXEC, O_CREAT, O_EXCL, O_RDONLY, O_RDWR, O_TRUNC, O_WRONLY, SEEK_SET,
} from '../../abi/fcntl.js';
import type { Redirect } from '../syntax/index.js';
import { expandHeredoc, expandRedirectTarget, expandWord } from '../expand/index.js';
import { expandContext } from './context.js';
import type { Shell } from './shell.js';
import { isStackOverflow } from './control.js';
import { ShellError } from '../errors.js';
import { encodeShell } from '../bytes.js';
import { openFilesLimit } from './builtins/ulimit.js';
import { openNetPath } from './net-redirect.js';

/** [fd, saved copy or -1 if it was closed] */
export type Saved = [number, number][];

const SAVE_MIN = 10;

/**
 * Start a list of saved fds. It is tracked on the shell until restore() undoes
 * it, so that after a stack overflow (finally blocks that could not run) the
 * shell can still put its fds back (Shell.stackOverflow).
 */
export function tracked(sh: Shell): Saved {
  const saved: Saved = [];
  sh.pendingRedirs.push(saved);
  return saved;
}

/** The fds in `saved` stay as they are now (`exec >file`): no longer tracked for undoing. */
export function keep(sh: Shell, saved: Saved): void {
  const i = sh.pendingRedirs.lastIndexOf(saved);
  if (i >= 0) sh.pendingRedirs.splice(i, 1);
}

/** Save `fd` (a close-on-exec copy at fd >= 10) into `saved`, once. */
export function save(sh: Shell, saved: Saved, fd: number): void {
  if (saved.some(([f]) => f === fd)) return;
  let copy = -1;
  try {
    copy = sh.sys.fcntl(fd, F_DUPFD_CLOEXEC, SAVE_MIN);
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    // Out of fds (deep recursion through redirections): the command's redirection fails, as in bash.
    if (e.errno !== Errno.EBADF) throw new ShellError(`redirection error: cannot duplicate fd: ${strerror(e.errno)}`);
  }
  saved.push([fd, copy]);
}

/** The redirections in `saved` stay for good: the saved copies are closed and nothing is put back. */
export function letGo(sh: Shell, saved: Saved): void {
  for (const [, copy] of saved) if (copy >= 0) sh.sys.close(copy);
  saved.length = 0;
  keep(sh, saved);
}

/** Put saved fds back, last first. Entries are consumed as they are restored, so a second call does only the rest. */
export function restore(sh: Shell, saved: Saved): void {
  for (let i = saved.length - 1; i >= 0; i--) {
    const [fd, copy] = saved[i];
    try {
      if (copy >= 0) {
        sh.sys.dup2(copy, fd);
        sh.sys.close(copy);
      } else sh.sys.close(fd);
    } catch (e) {
      // Already closed is fine; a stack overflow is not, and leaves this entry for Shell.stackOverflow.
      if (isStackOverflow(e)) throw e;
    }
    saved.length = i;
  }
  keep(sh, saved);
}

/** Put `src` at `fd` (saving what was there) and close `src`. */
function install(sh: Shell, saved: Saved, fd: number, src: number): void {
  try {
    save(sh, saved, fd);
  } catch (e) {
    if (src !== fd) sh.sys.close(src);
    throw e;
  }
  if (src !== fd) {
    sh.sys.dup2(src, fd);
    sh.sys.close(src);
  }
}

/** An unlinked temp file holding `text`, positioned at 0: here-documents and here-strings. */
export function tempInput(sh: Shell, text: string): number {
  const path = `/tmp/.agentos-sh-${sh.sys.getpid()}-${Math.random().toString(36).slice(2)}`;
  let fd: number;
  try {
    fd = sh.sys.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600);
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    throw new ShellError(`cannot create temp file for here-document: ${strerror(e.errno)}`);
  }
  sh.sys.unlink(path);
  sh.sys.writeAll(fd, encodeShell(text));
  sh.sys.lseek(fd, 0, SEEK_SET);
  return fd;
}

function openFor(sh: Shell, path: string, flags: number): number {
  let fd: number;
  try {
    fd = openNetPath(sh.sys, path) ?? sh.sys.open(path, flags | O_CLOEXEC, 0o666);
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    throw new ShellError(`${path}: ${strerror(e.errno)}`);
  }
  // The shell's own `ulimit -n`: a descriptor at or above it is one too many (EMFILE).
  if (fd >= openFilesLimit(sh)) {
    sh.sys.close(fd);
    throw new ShellError(`${path}: ${strerror(Errno.EMFILE)}`);
  }
  return fd;
}

function fdNumber(sh: Shell, word: string): number {
  if (!/^\d+$/.test(word)) throw new ShellError(`${word}: ambiguous redirect`);
  const n = Number(word);
  try {
    sh.sys.fcntl(n, 1 /* F_GETFD */);
  } catch {
    throw new ShellError(`${word}: Bad file descriptor`);
  }
  return n;
}

function noclobberCheck(sh: Shell, path: string): void {
  if (!sh.opts.on('noclobber')) return;
  try {
    const st = sh.sys.stat(path);
    if ((st.mode & 0o170000) === 0o100000) throw new ShellError(`${path}: cannot overwrite existing file`);
  } catch (e) {
    if (e instanceof ShellError) throw e;
  }
}

/** A failed redirection, already reported: its status is all the caller has left to do. */
export class RedirectFailed extends ShellError {}

/**
 * Apply redirections. On error it is reported, as bash does, with the
 * redirections before it still in place (`2>log >nodir/x` puts the message in
 * log); then everything applied is undone and RedirectFailed thrown. Fatal
 * expansion errors are thrown as they are, for the caller.
 */
export function applyRedirs(sh: Shell, redirs: Redirect[]): Saved {
  const saved = tracked(sh);
  try {
    for (const r of redirs) applyOne(sh, r, saved);
  } catch (e) {
    let thrown = e;
    if (e instanceof ShellError && !e.fatal) {
      sh.error(e.message);
      thrown = new RedirectFailed(e.message, e.status);
    }
    restore(sh, saved);
    throw thrown;
  }
  return saved;
}

function applyOne(sh: Shell, r: Redirect, saved: Saved): void {
  sh.lineno = r.line;
  const ctx = expandContext(sh);
  const dflt = r.op.startsWith('<') ? 0 : 1;
  let fd = r.fd ?? dflt;
  if (r.fdVar) {
    fd = sh.sys.fcntl(0, 0 /* F_DUPFD */, SAVE_MIN);
    sh.sys.close(fd);
    sh.vars.set(r.fdVar, String(fd));
  }
  switch (r.op) {
    case '<<':
    case '<<-': {
      // bash reports errors in a body at the delimiter's line.
      if (r.heredoc) sh.lineno = r.heredoc.line + (literalHeredoc(r).match(/\n/g)?.length ?? 0);
      const body = r.heredoc ? (r.quoted ? literalHeredoc(r) : expandHeredoc(r.heredoc, ctx)) : '';
      return install(sh, saved, fd, tempInput(sh, body));
    }
    case '<<<':
      return install(sh, saved, fd, tempInput(sh, `${expandWord(r.target, ctx)}\n`));
    default:
      break;
  }
  const target = expandRedirectTarget(r.target, ctx);
  switch (r.op) {
    case '<':
      return install(sh, saved, fd, openFor(sh, target, O_RDONLY));
    case '>':
    case '>|':
      if (r.op === '>') noclobberCheck(sh, target);
      return install(sh, saved, fd, openFor(sh, target, O_WRONLY | O_CREAT | O_TRUNC));
    case '>>':
      return install(sh, saved, fd, openFor(sh, target, O_WRONLY | O_CREAT | O_APPEND));
    case '<>':
      return install(sh, saved, fd, openFor(sh, target, O_RDWR | O_CREAT));
    case '&>':
    case '&>>': {
      if (r.op === '&>') noclobberCheck(sh, target);
      return toStdoutAndStderr(sh, saved, openFor(sh, target, O_WRONLY | O_CREAT | (r.op === '&>' ? O_TRUNC : O_APPEND)));
    }
    case '<&':
    case '>&': {
      if (target === '-') {
        save(sh, saved, fd);
        try {
          sh.sys.close(fd);
        } catch {
          /* already closed */
        }
        return;
      }
      const moveClose = target.endsWith('-') && /^\d+-$/.test(target);
      const srcWord = moveClose ? target.slice(0, -1) : target;
      if (r.op === '>&' && (r.fd === null || r.fd === 1) && !/^\d+$/.test(srcWord)) {
        // `>& file` (and `1>& file`, as bash reads it): both stdout and stderr to the file.
        return toStdoutAndStderr(sh, saved, openFor(sh, target, O_WRONLY | O_CREAT | O_TRUNC));
      }
      const src = fdNumber(sh, srcWord);
      save(sh, saved, fd);
      if (src !== fd) sh.sys.dup2(src, fd);
      if (moveClose && src !== fd) sh.sys.close(src);
      return;
    }
    default:
      throw new ShellError(`unsupported redirection ${r.op}`);
  }
}

/** Point both stdout and stderr at the open file `f` (for `&>`, `&>>` and `>& file`). */
function toStdoutAndStderr(sh: Shell, saved: Saved, f: number): void {
  save(sh, saved, 1);
  save(sh, saved, 2);
  sh.sys.dup2(f, 1);
  sh.sys.dup2(f, 2);
  sh.sys.close(f);
}

function literalHeredoc(r: Redirect): string {
  return (r.heredoc?.parts ?? []).map((p) => ('value' in p ? (p as { value: string }).value : '')).join('');
}

/** Builtins whose only use of fds 1 and 2 is the shell's output calls (sh.out, sh.write, sh.error). */
export const OUTPUT_ONLY = new Set(['echo', 'printf', 'true', 'false', ':']);

/**
 * `printf x > f`, for builtins that only write: the file is opened (created,
 * truncated, noclobber checked) and the builtin writes to it directly instead
 * of the shell moving its own fd 1 or 2 there and back: 3 syscalls instead of
 * 7, which a loop writing files feels. One redirection only: a second could
 * name the first's fd (`2>x >/dev/stderr`), which must see it moved. Null
 * when `redirs` need the general path.
 */
export function withOutputFile(sh: Shell, name: string, redirs: Redirect[], fn: () => number): number | null {
  if (!OUTPUT_ONLY.has(name) || sh.outputFds || redirs.length !== 1) return null;
  const r = redirs[0];
  if (!(r.op === '>' || r.op === '>>' || r.op === '>|') || !(r.fd === null || r.fd === 1 || r.fd === 2) || r.fdVar) return null;
  let f: number;
  try {
    sh.lineno = r.line;
    const target = expandRedirectTarget(r.target, expandContext(sh));
    if (r.op === '>') noclobberCheck(sh, target);
    f = openFor(sh, target, O_WRONLY | O_CREAT | (r.op === '>>' ? O_APPEND : O_TRUNC));
  } catch (e) {
    if (!(e instanceof ShellError) || e.fatal) throw e;
    sh.error(e.message);
    return e.status;
  }
  sh.outputFds = r.fd === 2 ? [1, f] : [f, 2];
  try {
    return fn();
  } finally {
    sh.outputFds = null;
    sh.sys.close(f);
  }
}

/** Run `fn` with `redirs` applied; a redirection error is reported and gives status 1. */
export function withRedirs(sh: Shell, redirs: Redirect[], fn: () => number, failed = (status: number) => status): number {
  if (redirs.length === 0) return fn();
  let saved: Saved;
  try {
    saved = applyRedirs(sh, redirs);
  } catch (e) {
    // Fatal expansion errors (set -u in a here-doc...) are the caller's to report.
    if (!(e instanceof RedirectFailed)) throw e;
    return failed(e.status);
  }
  try {
    return fn();
  } finally {
    restore(sh, saved);
  }
}

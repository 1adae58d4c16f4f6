// The interpreter's side of word expansion: variables, special parameters,
// options, command/process substitution and the filesystem for globbing.

import { strerror, SysError } from '../../abi/errno.js';
import { F_SETFD, O_CLOEXEC, O_CREAT, O_EXCL, O_RDWR, SEEK_SET } from '../../abi/fcntl.js';
import { evalArithText, expandRedirectTarget, expandWord, type ExpandContext, type ExpandOpts } from '../expand/index.js';
import type { Options } from './options.js';
import { restore, save, tracked } from './redirect.js';
import { ShellError } from '../errors.js';
import { parseSubscript, type Stmt, type Word } from '../syntax/index.js';
import { runStmts } from './exec.js';
import { isolate } from './isolate.js';
import type { Shell } from './shell.js';
import { startedAsync } from './reap.js';
import { startSubshell } from './subshell.js';
import { decodeShell } from '../bytes.js';

const cache = new WeakMap<Shell, ExpandContext>();

export function expandContext(sh: Shell): ExpandContext {
  let ctx = cache.get(sh);
  if (ctx) return ctx;
  let optsOf: Options | null = null;
  let optsAt = -1;
  let opts: Readonly<ExpandOpts> | undefined;
  ctx = {
    vars: sh.vars,
    special: (name) => sh.special(name),
    positional: () => sh.positional,
    // Read for every word expanded: built again only when an option has changed.
    get opts() {
      const s = sh.opts;
      if (s !== optsOf || s.changes !== optsAt) {
        optsOf = s;
        optsAt = s.changes;
        opts = {
          nounset: s.on('nounset'), noglob: s.on('noglob'), nullglob: s.shoptOn('nullglob'),
          failglob: s.shoptOn('failglob'), dotglob: s.shoptOn('dotglob'), globskipdots: s.shoptOn('globskipdots'), extglob: s.shoptOn('extglob'),
          globstar: s.shoptOn('globstar'), nocaseglob: s.shoptOn('nocaseglob'), nocasematch: s.shoptOn('nocasematch'),
        };
      }
      return opts!;
    },
    commandSubst: (stmts) => commandSubst(sh, stmts),
    procSubst: (op, stmts) => procSubst(sh, op, stmts),
    readdir: (dir) => {
      try {
        return sh.sys.readdir(dir || '.').map((e) => e.name).filter((n) => n !== '.' && n !== '..');
      } catch {
        return null;
      }
    },
    isDir: (path) => {
      try {
        return (sh.sys.stat(path).mode & 0o170000) === 0o040000;
      } catch {
        return false;
      }
    },
    cwd: () => sh.vars.get('PWD') ?? sh.sys.getcwd(),
    home: (user) => {
      if (!user) return sh.vars.get('HOME');
      try {
        const passwd = new TextDecoder().decode(sh.sys.readFile('/etc/passwd'));
        for (const line of passwd.split('\n')) {
          const f = line.split(':');
          if (f[0] === user) return f[5];
        }
      } catch {
        /* no passwd */
      }
      return undefined;
    },
  };
  cache.set(sh, ctx);
  const c = ctx;
  sh.vars.arith = (e) => evalArithText(e, c);
  sh.vars.subscript = (text) => expandWord(parseSubscript(text), c);
  sh.vars.warn = (m) => sh.error(m);
  return ctx;
}

/**
 * $(...): run in-process with the shell's state isolated, stdout captured in
 * an unlinked temp file (no pipe to deadlock on however much is written).
 */
function commandSubst(sh: Shell, stmts: Stmt[]): string {
  const only = stmts.length === 1 && !stmts[0].background ? stmts[0].cmd : null;
  if (only?.type === 'SimpleCommand' && !only.words.length && !only.assigns.length
    && only.redirs.length === 1 && only.redirs[0].op === '<' && only.redirs[0].fd === null) {
    return readFileSubst(sh, only.redirs[0].target);
  }
  const path = `/tmp/.agentos-cs-${sh.sys.getpid()}-${Math.random().toString(36).slice(2)}`;
  let fd: number;
  try {
    fd = sh.sys.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600);
    sh.sys.unlink(path);
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    throw new ShellError(`cannot make pipe for command substitution: ${strerror(e.errno)}`);
  }
  const saved = tracked(sh);
  let status = 0;
  const oneShot = sh.oneShot;
  sh.substDepth++;
  try {
    save(sh, saved, 1);
    sh.sys.dup2(fd, 1);
    sh.oneShot = stmts.length === 1 && !stmts[0].background && stmts[0].cmd.type === 'SimpleCommand';
    status = isolate(sh, () => runStmts(sh, stmts));
  } catch (e) {
    sh.sys.close(fd);
    throw e;
  } finally {
    sh.substDepth--;
    sh.oneShot = oneShot;
    restore(sh, saved);
  }
  sh.status = status;
  sh.substRan = true;
  try {
    sh.sys.lseek(fd, 0, SEEK_SET);
    return dropNuls(sh, decodeShell(sh.sys.readAll(fd)));
  } catch (e) {
    if (e instanceof SysError) return '';
    throw e;
  } finally {
    sh.sys.close(fd);
  }
}

/** Shell strings cannot hold NUL bytes: bash drops them from a substitution's output, with a warning. */
function dropNuls(sh: Shell, text: string): string {
  if (!text.includes('\0')) return text;
  sh.error('warning: command substitution: ignored null byte in input');
  return text.replaceAll('\0', '');
}

/** `$(< file)`: the file's contents, without running a command. */
function readFileSubst(sh: Shell, target: Word): string {
  const ctx = expandContext(sh);
  const path = expandRedirectTarget(target, ctx);
  try {
    const text = dropNuls(sh, decodeShell(sh.sys.readFile(path)));
    sh.status = 0;
    sh.substRan = true;
    return text;
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    sh.error(`${path}: ${strerror(e.errno)}`);
    sh.status = 1;
    sh.substRan = true;
    return '';
  }
}

/** <(...) and >(...): a child shell on a pipe; the command gets /dev/fd/N. */
function procSubst(sh: Shell, op: '<' | '>', stmts: Stmt[]): string {
  // Close-on-exec while the child starts: it must not hold our end of its own pipe
  // (>(tac) would never see end of file); then inheritable, for the command to open /dev/fd/N.
  const [r, w] = sh.sys.pipe(O_CLOEXEC);
  const childEnd = op === '<' ? w : r;
  const ourEnd = op === '<' ? r : w;
  const pid = startSubshell(sh, stmts, op === '<' ? { 1: childEnd } : { 0: childEnd });
  sh.sys.fcntl(ourEnd, F_SETFD, 0);
  sh.sys.close(childEnd);
  sh.procSubsts.push({ fd: ourEnd, pid });
  startedAsync(sh, pid);
  return `/dev/fd/${ourEnd}`;
}

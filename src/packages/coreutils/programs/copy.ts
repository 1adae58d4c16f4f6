// The copying engine shared by cp and mv: files (streamed), directory trees,
// symlinks, and attribute preservation.

import { Errno } from '../../../abi/errno.js';
import { O_CREAT, O_EXCL, O_TRUNC, O_WRONLY } from '../../../abi/fcntl.js';
import { isDir, isLnk, isReg, type Stat } from '../../../abi/stat.js';
import { chunks, errnoOf, joinPath, quoteaf, tryLstat, type Cmd } from '../../../userland/lib/index.js';

export interface CopyOpts {
  recursive: boolean;
  /** Copy symlinks as symlinks (-P, -a, -d, and always for mv). */
  noDeref: boolean;
  preserveMode: boolean;
  preserveTimes: boolean;
  preserveOwner: boolean;
  force: boolean;
  noClobber: boolean;
  verbose: boolean;
  /** For messages: "cp" or "mv". */
  verb: string;
}

/** Copy SRC to DST (DST is the final name). Returns false after reporting an error. */
export function copy(c: Cmd, src: string, dst: string, o: CopyOpts, top = true): boolean {
  let st: Stat;
  try {
    // Without -R cp follows symlinks; with it (and for mv) they are copied as links.
    const deref = top && !o.noDeref && !o.recursive;
    st = deref ? c.sys.stat(src) : c.sys.lstat(src);
  } catch (e) {
    c.cannot('stat', src, e);
    return false;
  }
  const dstSt = tryLstat(c.sys, dst);
  if (dstSt && dstSt.ino === st.ino && dstSt.dev === st.dev) {
    c.error(`${quoteaf(src)} and ${quoteaf(dst)} are the same file`);
    return false;
  }
  if (dstSt && o.noClobber && !isDir(st.mode)) return true;
  if (isDir(st.mode)) return copyDir(c, src, dst, st, dstSt, o);
  if (dstSt && isDir(dstSt.mode)) {
    c.error(`cannot overwrite directory ${quoteaf(dst)} with non-directory`);
    return false;
  }
  try {
    if (isLnk(st.mode)) {
      if (dstSt) c.sys.unlink(dst);
      c.sys.symlink(c.sys.readlink(src), dst);
    } else if (isReg(st.mode) || !o.recursive) {
      // Without -R, GNU cp copies what a FIFO or device yields (cp /dev/stdin f);
      // with it (and for mv) the special file itself is recreated.
      copyData(c, src, dst, st, o);
    } else {
      if (dstSt) c.sys.unlink(dst);
      c.sys.mknod(dst, st.mode, st.rdev);
    }
  } catch (e) {
    c.cannot(`create ${isLnk(st.mode) ? 'symbolic link' : 'regular file'}`, dst, e);
    return false;
  }
  if (o.verbose) c.out.write(`${quoteaf(src)} -> ${quoteaf(dst)}\n`);
  if (!isLnk(st.mode)) preserve(c, dst, st, o);
  return true;
}

function copyData(c: Cmd, src: string, dst: string, st: Stat, o: CopyOpts): void {
  const input = c.sys.open(src);
  try {
    let out: number;
    try {
      out = c.sys.open(dst, O_WRONLY | O_CREAT | O_TRUNC, st.mode & 0o777);
    } catch (e) {
      // -f: remove an unwritable destination and try again.
      if (!o.force || errnoOf(e) !== Errno.EACCES) throw e;
      c.sys.unlink(dst);
      out = c.sys.open(dst, O_WRONLY | O_CREAT | O_EXCL, st.mode & 0o777);
    }
    try {
      for (const b of chunks(c.sys, input)) c.sys.writeAll(out, b);
    } finally {
      c.sys.close(out);
    }
  } finally {
    c.sys.close(input);
  }
}

function copyDir(c: Cmd, src: string, dst: string, st: Stat, dstSt: Stat | null, o: CopyOpts): boolean {
  if (!o.recursive) {
    c.error(`-r not specified; omitting directory ${quoteaf(src)}`);
    return false;
  }
  if (dstSt && !isDir(dstSt.mode)) {
    c.error(`cannot overwrite non-directory ${quoteaf(dst)} with directory ${quoteaf(src)}`);
    return false;
  }
  const realSrc = c.sys.realpath(src);
  if (!dstSt) {
    try {
      c.sys.mkdir(dst, (st.mode & 0o777) | 0o700);
    } catch (e) {
      c.cannot('create directory', dst, e);
      return false;
    }
    if (o.verbose) c.out.write(`${quoteaf(src)} -> ${quoteaf(dst)}\n`);
  }
  const realDst = c.sys.realpath(dst);
  if (realDst === realSrc || realDst.startsWith(realSrc + '/')) {
    c.error(`cannot copy a directory, ${quoteaf(src)}, into itself, ${quoteaf(dst)}`);
    return false;
  }
  let ok = true;
  for (const e of c.sys.readdir(src)) {
    if (e.name === '.' || e.name === '..') continue;
    ok = copy(c, joinPath(src, e.name), joinPath(dst, e.name), o, false) && ok;
  }
  if (!dstSt || o.preserveMode) {
    preserve(c, dst, st, { ...o, preserveMode: true, preserveTimes: o.preserveTimes });
    if (!o.preserveMode) c.sys.chmod(dst, st.mode & 0o777 & ~currentUmask(c));
  }
  return ok;
}

function currentUmask(c: Cmd): number {
  const m = c.sys.umask(0);
  c.sys.umask(m);
  return m;
}

function preserve(c: Cmd, dst: string, st: Stat, o: CopyOpts): void {
  try {
    if (o.preserveOwner) c.sys.chown(dst, st.uid, st.gid);
  } catch {
    // Not permitted for ordinary users: GNU stays silent too.
  }
  if (o.preserveMode) c.sys.chmod(dst, st.mode & 0o7777);
  if (o.preserveTimes) c.sys.utimes(dst, st.atimeMs, st.mtimeMs);
}

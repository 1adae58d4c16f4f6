// Copy-up: give a merged file an upper copy before it is changed. Parents are
// copied first (directories only as deep as needed); a file is assembled in the
// work directory and renamed into place, so a failure (ENOSPC) leaves no half
// copy. The parent's times are put back: a copy-up is not a change to it.

import { Errno, SysError } from '../../../abi/errno.js';
import { S_IFDIR, isDir, isLnk, isReg } from '../../../abi/stat.js';
import type { MemInode } from '../memfs.js';
import type { Cred, Inode } from '../../vfs/types.js';
import type { OverlayFs } from '../overlayfs.js';
import type { OvlInode } from './inode.js';
import { KERNEL_CRED } from './upper.js';

const CHUNK = 1 << 20;

const ownerOf = (l: Inode): Cred => ({ ...KERNEL_CRED, uid: l.uid, gid: l.gid });

/** The upper copy of directory `o`, creating it (and its parents) from the lower one if needed. */
export function copyUpDir(fs: OverlayFs, o: OvlInode): MemInode {
  if (o.upper) return o.upper;
  if (o.removed || !o.parent || o.parent === o) throw new SysError(Errno.ENOENT, 'directory removed');
  const l = o.lower!;
  const pup = copyUpDir(fs, o.parent);
  const top = fs.top;
  const u = top.keepTimes(pup, () => top.fs.create(pup, o.name, S_IFDIR | (l.mode & 0o7777), 0, ownerOf(l)));
  // Exact mode and owner (create applied setgid inheritance), and the lower's times.
  top.fs.setattr(u, { mode: l.mode & 0o7777, uid: l.uid, gid: l.gid, atimeMs: l.atimeMs, mtimeMs: l.mtimeMs });
  fs.adopt(o, u);
  return u;
}

/**
 * The upper copy of non-directory `o`. Copied to where it was last looked up
 * if that name still leads to it; otherwise (its names are gone but it is
 * open) to an unnamed upper inode, like Linux's tmpfile copy-up.
 */
export function copyUp(fs: OverlayFs, o: OvlInode): MemInode {
  if (o.upper) return o.upper;
  const l = o.lower!;
  const top = fs.top;
  const up = top.fs;
  const named = o.parent !== null && fs.linkCount(o) > 0 && fs.child(o.parent, o.name, KERNEL_CRED) === o;
  const pup = named ? copyUpDir(fs, o.parent!) : null;
  const [work, tmp] = top.workSlot();
  const u = isLnk(l.mode)
    ? up.symlink(work, tmp, fs.lower.readlink(l), ownerOf(l))
    : up.create(work, tmp, l.mode, l.rdev, ownerOf(l));
  try {
    if (isReg(l.mode)) copyData(fs, l, u);
    up.setattr(u, { mode: l.mode & 0o7777, uid: l.uid, gid: l.gid, atimeMs: l.atimeMs, mtimeMs: l.mtimeMs });
    if (pup) {
      top.recordOrigin(u, l.ino);
      top.keepTimes(pup, () => up.rename(work, tmp, pup, o.name));
    } else {
      up.unlink(work, tmp);
    }
  } catch (e) {
    top.forget(u);
    if (up.lookup(work, tmp) === u) up.unlink(work, tmp);
    up.evict(u);
    throw e;
  }
  fs.adopt(o, u);
  return u;
}

function copyData(fs: OverlayFs, l: Inode, u: MemInode): void {
  for (let pos = 0; pos < l.size;) {
    const chunk = fs.lower.read(l, pos, Math.min(CHUNK, l.size - pos));
    if (chunk.length === 0) break;
    if (fs.top.fs.write(u, pos, chunk) < chunk.length) throw new SysError(Errno.ENOSPC, 'copy-up');
    pos += chunk.length;
  }
}

/**
 * Copy a whole directory subtree into the upper and make each directory in it
 * opaque, so it no longer depends on lower paths: then it can be renamed like
 * any upper directory (Linux without redirect_dir says EXDEV here instead).
 */
export function materialize(fs: OverlayFs, o: OvlInode): void {
  if (!o.lower) return;
  const lowerIno = o.lower.ino;
  const u = copyUpDir(fs, o);
  fs.top.keepTimes(u, () => {
    for (const e of fs.readdir(o, KERNEL_CRED)) {
      const c = fs.child(o, e.name, KERNEL_CRED)!;
      if (isDir(c.mode)) materialize(fs, c);
      else copyUp(fs, c);
    }
    fs.top.clearMeta(u, false); // whiteouts hide nothing once opaque
    fs.top.markOpaque(u);
    fs.top.recordDirOrigin(u, lowerIno); // opaque now: st_ino can no longer come from the lower twin
  });
  o.lower = null;
}

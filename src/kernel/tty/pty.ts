// Pseudo-terminals and the terminal devices (Linux numbers): /dev/ptmx (5,2)
// opens a new master and creates its slave node /dev/pts/N (136,N), which is
// removed again when both ends are closed; /dev/tty (5,0) is the caller's
// controlling terminal. Opening a slave without O_NOCTTY makes it the
// controlling terminal of a session leader that has none, as on Linux.

import { Errno, SysError } from '../../abi/errno.js';
import { O_NOCTTY } from '../../abi/fcntl.js';
import { major, makedev, minor, S_IFCHR } from '../../abi/stat.js';
import { cttyOf } from '../dev/tty.js';
import type { OpenFile } from '../file.js';
import type { Kernel } from '../kernel.js';
import type { Cred, FileOps, FileSystem, Inode } from '../vfs/types.js';
import { acquire } from './jobctl.js';
import { Tty } from './tty.js';

export const TTY_MAJOR = 5, PTS_MAJOR = 136;
export const CTTY_RDEV = makedev(TTY_MAJOR, 0), PTMX_RDEV = makedev(TTY_MAJOR, 2);
const MAX_PTYS = 4096;
/** Linux's devpts default: group tty (5), mode 620. */
const TTY_GID = 5;

export class Ptys {
  private readonly ttys = new Map<number, Tty>();
  /** Slave-side ops → their terminal, to find the terminal behind an open file. */
  private readonly slaves = new WeakMap<FileOps, Tty>();
  /** The devfs whose pts/ directory holds the slave nodes (set by boot). */
  devfs: FileSystem | null = null;

  constructor(private readonly k: Kernel) {}

  /** Devices this driver serves. */
  owns(rdev: number): boolean {
    return rdev === CTTY_RDEV || rdev === PTMX_RDEV || major(rdev) === PTS_MAJOR;
  }

  get(index: number): Tty | undefined {
    return this.ttys.get(index);
  }

  /** The terminal an open file is the slave side of, or null. */
  ttyOf(f: OpenFile): Tty | null {
    return this.slaves.get(f.ops) ?? null;
  }

  open(inode: Inode, flags: number, cred: Cred): FileOps {
    if (inode.rdev === PTMX_RDEV) return this.openMaster(cred);
    if (inode.rdev === CTTY_RDEV) return this.slave(cttyOf(this.k, cred));
    const tty = this.ttys.get(minor(inode.rdev));
    if (!tty) throw new SysError(Errno.ENXIO, `pts ${minor(inode.rdev)}`);
    const ops = this.slave(tty);
    const p = this.k.procs.get(cred.pid);
    if (p && !(flags & O_NOCTTY) && p.sid === p.pid && !p.ctty && !tty.session && p !== this.k.init) acquire(p, tty);
    return ops;
  }

  private slave(tty: Tty): FileOps {
    const ops = tty.openSlave();
    this.slaves.set(ops, tty);
    return ops;
  }

  private openMaster(cred: Cred): FileOps {
    let index = 0;
    while (this.ttys.has(index)) index++;
    if (index >= MAX_PTYS) throw new SysError(Errno.ENOSPC, 'no free pseudo-terminals');
    const tty = new Tty(index, this.k, (t) => this.free(t));
    this.ttys.set(index, tty);
    const pts = this.ptsDir();
    if (pts && this.devfs) {
      const node = this.devfs.create(pts, String(index), S_IFCHR | 0o620, makedev(PTS_MAJOR, index), cred);
      this.devfs.setattr(node, { uid: cred.uid, gid: TTY_GID });
    }
    return tty.openMaster();
  }

  private free(t: Tty): void {
    if (this.ttys.get(t.index) !== t) return;
    this.ttys.delete(t.index);
    const pts = this.ptsDir();
    try {
      if (pts) this.devfs?.unlink(pts, String(t.index));
    } catch {
      /* someone removed the node already */
    }
  }

  private ptsDir(): Inode | null {
    return this.devfs?.lookup(this.devfs.root(), 'pts', { uid: 0, gid: 0, groups: [], pid: 0, umask: 0 }) ?? null;
  }
}

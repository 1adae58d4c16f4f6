// Character devices: the driver behind an S_IFCHR inode is found by its rdev
// (major, minor), wherever the node lives, as with Linux's chrdev table.

import { Errno, SysError } from '../../abi/errno.js';
import { major, minor } from '../../abi/stat.js';
import type { Cred, FileOps, Inode } from '../vfs/types.js';

export interface CharDevice {
  /** Ops for a new open file description of `inode` (a node with this device's rdev). */
  open(inode: Inode, flags: number, cred: Cred): FileOps;
}

export class DeviceTable {
  private readonly devices = new Map<number, CharDevice>();

  /** `rdev` is makedev(major, minor) from abi/stat.ts. */
  register(rdev: number, dev: CharDevice): void {
    if (this.devices.has(rdev)) throw new Error(`char device ${major(rdev)},${minor(rdev)} already registered`);
    this.devices.set(rdev, dev);
  }

  has(rdev: number): boolean {
    return this.devices.has(rdev);
  }

  /** The VFS's open hook for S_IFCHR inodes. No driver → ENXIO, like Linux's chrdev_open. */
  open(inode: Inode, flags: number, cred: Cred): FileOps {
    const dev = this.devices.get(inode.rdev);
    if (!dev) throw new SysError(Errno.ENXIO, `char device ${major(inode.rdev)},${minor(inode.rdev)}`);
    return dev.open(inode, flags, cred);
  }
}

// devfs: like Linux's devtmpfs, an ordinary tmpfs that boot fills with device
// nodes. Drivers are found by rdev (dev/device.ts), so the nodes are just
// inodes and users may add, remove or chmod them like any other file.

import { S_IFCHR, S_IFDIR } from '../../abi/stat.js';
import { STANDARD_DEVICES } from '../dev/register.js';
import type { Cred, FileSystem } from '../vfs/types.js';

const ROOT: Cred = { uid: 0, gid: 0, groups: [], pid: 0, umask: 0 };

/** The /proc/self links every Linux /dev has (udev and systemd create them there). */
const LINKS: [string, string][] = [
  ['fd', '/proc/self/fd'],
  ['stdin', '/proc/self/fd/0'],
  ['stdout', '/proc/self/fd/1'],
  ['stderr', '/proc/self/fd/2'],
];

/** Create the standard nodes, directories and links in the root of `fs`. */
export function populateDevfs(fs: FileSystem, cred: Cred = ROOT): void {
  const root = fs.root();
  for (const { name, rdev } of STANDARD_DEVICES) fs.create(root, name, S_IFCHR | 0o666, rdev, cred);
  fs.create(root, 'pts', S_IFDIR | 0o755, 0, cred);
  fs.create(root, 'shm', S_IFDIR | 0o1777, 0, cred);
  for (const [name, target] of LINKS) fs.symlink(root, name, target, cred);
}

/** A new, populated devfs from a tmpfs factory (e.g. `() => new MemFs()`). */
export function createDevfs<F extends FileSystem>(makeMemFs: () => F, cred: Cred = ROOT): F {
  const fs = makeMemFs();
  populateDevfs(fs, cred);
  return fs;
}

// Small Vfs helpers for building an image tree: exact modes and owners (the
// builder runs as root with umask 022, but the image records what it says).

import { Errno, SysError } from '../abi/errno.js';
import { O_CREAT, O_TRUNC, O_WRONLY } from '../abi/fcntl.js';
import type { Cred } from '../kernel/vfs/types.js';
import type { Vfs } from '../kernel/vfs/vfs.js';

export const ROOT: Cred = { uid: 0, gid: 0, groups: [], pid: 1, umask: 0o022 };

/** mkdir with exactly `mode` and owner; an existing directory is adjusted, not an error. */
export function mkdir(vfs: Vfs, path: string, mode = 0o755, uid = 0, gid = uid): void {
  try {
    vfs.mkdir(ROOT, vfs.root(), path, mode);
  } catch (e) {
    if (!(e instanceof SysError && e.errno === Errno.EEXIST)) throw e;
  }
  vfs.chmod(ROOT, vfs.root(), path, mode);
  vfs.chown(ROOT, vfs.root(), path, uid, gid, true);
}

/** Create or replace a regular file with exactly `mode` and owner. */
export function writeFile(vfs: Vfs, path: string, data: Uint8Array | string, mode = 0o644, uid = 0, gid = uid): void {
  const f = vfs.open(ROOT, vfs.root(), path, O_WRONLY | O_CREAT | O_TRUNC, mode);
  if (!('ops' in f)) throw new Error(`image: cannot create ${path}`);
  try {
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
    for (let at = 0; at < bytes.length;) {
      const n = f.ops.write(f, bytes.subarray(at));
      if (typeof n !== 'number' || n <= 0) throw new Error(`image: short write to ${path}`);
      at += n;
    }
  } finally {
    f.unref();
  }
  vfs.chmod(ROOT, vfs.root(), path, mode);
  vfs.chown(ROOT, vfs.root(), path, uid, gid, true);
}

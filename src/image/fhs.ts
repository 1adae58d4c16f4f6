// The Filesystem Hierarchy Standard skeleton of the base image, with the
// modes and owners a Debian-like system has, and the runtime images.

import { runtimeImageBytes } from '../kernel/exec.js';
import type { Vfs } from '../kernel/vfs/vfs.js';
import { mkdir, writeFile } from './tree.js';

/** [path, mode, uid:gid] — parents before children. */
const DIRS: [string, number, number?][] = [
  ['/bin', 0o755], ['/sbin', 0o755], ['/etc', 0o755], ['/etc/profile.d', 0o755],
  ['/home', 0o755], ['/home/user', 0o755, 1000], ['/root', 0o700], ['/tmp', 0o1777],
  ['/usr', 0o755], ['/usr/bin', 0o755], ['/usr/sbin', 0o755], ['/usr/lib', 0o755], ['/usr/share', 0o755],
  ['/usr/libexec', 0o755], ['/usr/libexec/agentos', 0o755],
  ['/usr/local', 0o755], ['/usr/local/bin', 0o755], ['/usr/local/sbin', 0o755], ['/usr/local/lib', 0o755],
  ['/usr/local/share', 0o755],
  ['/var', 0o755], ['/var/tmp', 0o1777], ['/var/lib', 0o755], ['/var/log', 0o755], ['/var/cache', 0o755],
  ['/opt', 0o755], ['/opt/agentos', 0o755], ['/opt/agentos/bin', 0o755],
  ['/mnt', 0o755], ['/run', 0o755],
  // Mount points: the kernel mounts devfs, procfs, aosfs and a tmpfs over /tmp at boot.
  ['/dev', 0o755], ['/proc', 0o555], ['/aos', 0o555],
];

/** Runtime images (binfmt's native executables): path → runtime name. */
export const RUNTIME_IMAGES: Record<string, string> = { '/usr/libexec/agentos/js': 'js', '/usr/bin/node': 'node' };

export function installFhs(vfs: Vfs): void {
  for (const [path, mode, owner = 0] of DIRS) mkdir(vfs, path, mode, owner);
  for (const [path, runtime] of Object.entries(RUNTIME_IMAGES)) writeFile(vfs, path, runtimeImageBytes(runtime), 0o755);
}

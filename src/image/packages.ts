// The base image's packages: called by the image builder once the FHS and
// /etc are in place, with a Vfs over the image tree and root credentials.

import type { Cred } from '../kernel/vfs/types.js';
import type { Vfs } from '../kernel/vfs/vfs.js';

export function installBasePackages(_vfs: Vfs, _cred: Cred): void {
  // Filled by the packages work (src/kernel/software)
}

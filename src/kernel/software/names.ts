// Which command and package names may be linked.

import { Errno, SysError } from '../../abi/errno.js';
import { NAME_MAX } from '../../abi/fcntl.js';

const utf8 = new TextEncoder();

/** A command name becomes a file name in /opt/agentos/bin: one safe path component. */
export function checkCommandName(name: string): void {
  const why =
    name === '' ? 'empty name'
    : name === '.' || name === '..' ? 'dot name'
    : name.includes('/') ? "contains '/'"
    : [...name].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f) ? 'contains a control character'
    : utf8.encode(name).byteLength > NAME_MAX ? `longer than ${NAME_MAX} bytes`
    : null;
  if (why) throw new SysError(Errno.EINVAL, `invalid command name ${JSON.stringify(name)}: ${why}`);
}

/** Package names and versions become directory names under /opt/agentos. */
export function checkPackageName(name: string, what = 'package name'): void {
  if (!/^(@[a-z0-9._~-]+\/)?[a-z0-9._~-]+$/i.test(name) || name.startsWith('.')) {
    throw new SysError(Errno.EINVAL, `invalid ${what} ${JSON.stringify(name)}`);
  }
}

export function checkVersion(version: string): void {
  if (!/^[0-9A-Za-z][0-9A-Za-z.+_-]*$/.test(version) || version.length > 64) {
    throw new SysError(Errno.EINVAL, `invalid version ${JSON.stringify(version)}`);
  }
}

/** /opt/agentos/<dir> for a package name: scoped names keep their scope as one component. */
export function packageDirName(name: string): string {
  return name.replace('/', '+');
}

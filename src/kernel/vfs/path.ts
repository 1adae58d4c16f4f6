// Path string helpers shared by namei and the syscall layer: splitting, the
// trailing-slash flag, and Linux's length limits.

import { byteLength } from '../../abi/bytestr.js';
import { Errno, SysError } from '../../abi/errno.js';
import { NAME_MAX, PATH_MAX } from '../../abi/fcntl.js';

/** Length in bytes of `s` as a name (Linux limits are in bytes, not UTF-16 units). */
export { byteLength };

/**
 * Validate a whole path as getname() does: empty → ENOENT, PATH_MAX bytes or
 * more (the terminating NUL must fit) → ENAMETOOLONG. A NUL inside is EINVAL:
 * a C caller could not pass one (its path would end there), and taking the
 * string whole would make a name no Linux program can open.
 */
export function checkPath(path: string): void {
  if (path.length === 0) throw new SysError(Errno.ENOENT, 'empty path');
  if (path.includes('\0')) throw new SysError(Errno.EINVAL, 'NUL byte in path');
  if (path.length >= PATH_MAX / 3 && byteLength(path) >= PATH_MAX) {
    throw new SysError(Errno.ENAMETOOLONG, 'path too long');
  }
}

/** A single component longer than NAME_MAX bytes → ENAMETOOLONG. */
export function checkName(name: string): void {
  if (name.length > NAME_MAX / 3 && byteLength(name) > NAME_MAX) {
    throw new SysError(Errno.ENAMETOOLONG, name.slice(0, 32) + '...');
  }
}

export const isAbsolute = (path: string): boolean => path.startsWith('/');

/** Non-empty components; repeated slashes collapse, "." and ".." are kept. */
export function components(path: string): string[] {
  return path.split('/').filter((c) => c.length > 0);
}

/** True if the path's last component is followed by a slash ("dir/", "a/."  is not). */
export function hasTrailingSlash(path: string): boolean {
  return path.length > 1 && path.endsWith('/') && components(path).length > 0;
}

/** Join two absolute/relative pieces with exactly one slash. */
export function joinPath(dir: string, name: string): string {
  if (name.startsWith('/')) return name;
  return dir.endsWith('/') ? dir + name : `${dir}/${name}`;
}

/** Lexical normalisation ("/a/./b//../c" → "/a/c"), for display only: it ignores symlinks. */
export function normalizePath(path: string): string {
  const out: string[] = [];
  for (const c of components(path)) {
    if (c === '.') continue;
    if (c === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!isAbsolute(path)) out.push('..');
      continue;
    }
    out.push(c);
  }
  const body = out.join('/');
  if (isAbsolute(path)) return '/' + body;
  return body || '.';
}

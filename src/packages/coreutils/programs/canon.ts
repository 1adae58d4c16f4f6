// Canonical names (readlink -f/-e/-m, realpath): resolve ".", ".." and symlinks
// component by component; 'e' requires every component, 'f' all but the last, 'm' none.

import { Errno, SysError } from '../../../abi/errno.js';
import { isDir, isLnk } from '../../../abi/stat.js';
import type { Sys } from '../../../libc/sys.js';

export type CanonMode = 'e' | 'f' | 'm';

export function canonicalize(sys: Sys, path: string, mode: CanonMode): string {
  if (path === '') throw new SysError(Errno.ENOENT);
  let todo = (path.startsWith('/') ? path : `${sys.getcwd()}/${path}`).split('/');
  const out: string[] = [];
  let links = 0;
  let missing = false;
  while (todo.length) {
    const part = todo.shift()!;
    if (part === '' || part === '.') continue;
    if (part === '..') {
      out.pop();
      continue;
    }
    const cur = `/${[...out, part].join('/')}`;
    if (missing) {
      out.push(part);
      continue;
    }
    let st;
    try {
      st = sys.lstat(cur);
    } catch (e) {
      const last = todo.every((p) => p === '' || p === '.');
      if (mode === 'm' || (mode === 'f' && last && (e as SysError).errno === Errno.ENOENT)) {
        missing = mode === 'm';
        out.push(part);
        continue;
      }
      throw e;
    }
    if (isLnk(st.mode)) {
      if (++links > 40) throw new SysError(Errno.ELOOP);
      const target = sys.readlink(cur);
      if (target.startsWith('/')) out.length = 0;
      todo = [...target.split('/'), ...todo];
      continue;
    }
    if (!isDir(st.mode) && todo.some((p) => p !== '') && mode !== 'm') throw new SysError(Errno.ENOTDIR);
    out.push(part);
  }
  return `/${out.join('/')}`;
}

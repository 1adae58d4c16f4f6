// Small filesystem helpers for absolute paths.

import { isDir } from '../../../../abi/stat.js';
import type { Ctx } from './ctx.js';

export function mkdirs(ctx: Ctx, abs: string): void {
  let cur = '';
  for (const part of abs.split('/').filter(Boolean)) {
    cur += `/${part}`;
    if (!ctx.exists(cur)) ctx.sys.mkdir(cur, 0o777);
  }
}

/** Remove what is inside directory `abs` (and `abs` itself unless `keep`), as a failed clone cleans up. */
export function removeTree(ctx: Ctx, abs: string, keep = false): void {
  for (const e of ctx.sys.readdir(abs)) {
    if (e.name === '.' || e.name === '..') continue;
    const p = `${abs}/${e.name}`;
    if (isDir(ctx.sys.lstat(p).mode)) removeTree(ctx, p);
    else ctx.sys.unlink(p);
  }
  if (!keep) ctx.sys.rmdir(abs);
}

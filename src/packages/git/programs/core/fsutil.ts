// Small filesystem helpers for absolute paths.

import type { Ctx } from './ctx.js';

export function mkdirs(ctx: Ctx, abs: string): void {
  let cur = '';
  for (const part of abs.split('/').filter(Boolean)) {
    cur += `/${part}`;
    if (!ctx.exists(cur)) ctx.sys.mkdir(cur, 0o777);
  }
}

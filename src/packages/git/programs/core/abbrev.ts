// Abbreviated object ids that stay unique in the repository (git's find_unique_abbrev).

import * as git from 'isomorphic-git';
import type { Ctx } from './ctx.js';

/** The shortest prefix of `oid`, at least `len` digits, that names only it. */
export async function abbrevUnique(ctx: Ctx, oid: string, len: number): Promise<string> {
  for (let n = Math.max(4, len); n < 40; n++) {
    try {
      await git.expandOid({ ...ctx.iso(), oid: oid.slice(0, n) });
      return oid.slice(0, n);
    } catch (e) {
      if ((e as { code?: string }).code !== 'AmbiguousError') return oid.slice(0, n);
    }
  }
  return oid;
}

// Reflogs (logs/HEAD, logs/refs/...), written as git writes them so that
// `git reflog` on either side and `checkout -` work.

import type { Ctx } from './ctx.js';
import { whoIs } from './ident.js';
import { ZERO_OID, type Store } from './objects.js';
import { expandRef, resolveRef } from './refs.js';
import { dirname } from './path.js';
import { mkdirs } from './fsutil.js';

/** Append `old new ident\tmessage` to the logs of each ref. */
export function logRefUpdate(ctx: Ctx, refs: string[], oldOid: string | null, newOid: string | null, message: string): void {
  if (!ctx.configBool('core.logAllRefUpdates', true)) return;
  const gitdir = ctx.repo().gitdir;
  const me = whoIs(ctx, 'committer');
  const line = `${oldOid ?? ZERO_OID} ${newOid ?? ZERO_OID} ${me.name} <${me.email}> ${me.time} ${me.tz}\t${message.split('\n')[0]}\n`;
  for (const ref of refs) {
    const path = `${gitdir}/logs/${ref}`;
    mkdirs(ctx, dirname(path));
    const prev = ctx.readText(path) ?? '';
    ctx.sys.writeFile(path, prev + line);
  }
}

/**
 * `HEAD detached at v1` / `HEAD detached from v1`: the name of the last
 * checkout from HEAD's reflog, "at" while HEAD is still where it went.
 */
export async function detachedLine(ctx: Ctx, store: Store, oid: string | null): Promise<string> {
  const text = ctx.readText(`${ctx.repo().gitdir}/logs/HEAD`) ?? '';
  const lines = text.split('\n').filter(Boolean).reverse();
  for (const l of lines) {
    const m = /^\S+ (\S+) .*\tcheckout: moving from \S+ to (\S+)$/.exec(l);
    if (!m) continue;
    const [, to, name] = m;
    // a ref name that still points there is shown (tags and remotes without their prefix), else the id
    let shown = to.slice(0, 7);
    const full = await expandRef(ctx, name);
    if (full && full !== 'HEAD') {
      const at = await resolveRef(ctx, full);
      if (at && (at === to || (await store.peelToCommit(at)) === to)) shown = full.replace(/^refs\/(tags|remotes)\//, '');
    }
    return `HEAD detached ${oid === to ? 'at' : 'from'} ${shown}`;
  }
  return `HEAD detached at ${oid?.slice(0, 7) ?? '(unknown)'}`;
}

/** The branch checked out N switches ago (`@{-N}`, `-`), from HEAD's reflog. */
export function previousBranch(ctx: Ctx, n = 1): string | null {
  const text = ctx.readText(`${ctx.repo().gitdir}/logs/HEAD`) ?? '';
  const lines = text.split('\n').filter(Boolean).reverse();
  let seen = 0;
  for (const l of lines) {
    const m = /\tcheckout: moving from (\S+) to (\S+)$/.exec(l);
    if (m && ++seen === n) return m[1];
  }
  return null;
}

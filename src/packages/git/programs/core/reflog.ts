// Reflogs (logs/HEAD, logs/refs/...), written and read as git does, so that
// `git reflog` on either side, `@{n}`, stash and `checkout -` all work.

import type { Ctx } from './ctx.js';
import { whoIs } from './ident.js';
import { parseIdent, ZERO_OID, type Ident, type Store } from './objects.js';
import { expandRef, isPerWorktree, resolveRef } from './refs.js';
import { dirname } from './path.js';
import { mkdirs } from './fsutil.js';

export interface ReflogEntry {
  old: string;
  new: string;
  who: Ident;
  message: string;
}

/** The log file of a ref: per-worktree refs (HEAD) in this work tree's directory, the rest in the common one. */
export function reflogPath(ctx: Ctx, ref: string): string {
  const r = ctx.repo();
  return `${isPerWorktree(ref) ? r.gitdir : r.commondir}/logs/${ref}`;
}

/** git's reflog message normalisation: whitespace runs become one space, none at the ends. */
export function normalizeMessage(msg: string): string {
  return msg.replace(/\s+/g, ' ').trim();
}

/** Does git keep a log for this ref (core.logAllRefUpdates; an existing log is always kept)? */
function wantsLog(ctx: Ctx, ref: string, path: string): boolean {
  if (ctx.exists(path)) return true;
  const v = ctx.config('core.logAllRefUpdates');
  const mode = v === undefined ? (ctx.repo().dir === null || ctx.configBool('core.bare', false) ? 'false' : 'true') : v.toLowerCase() === 'always' ? 'always' : ctx.configBool('core.logAllRefUpdates', true) ? 'true' : 'false';
  if (mode === 'always') return true;
  if (mode === 'false') return false;
  return ref === 'HEAD' || /^refs\/(heads|remotes|notes)\//.test(ref);
}

export function formatEntry(e: ReflogEntry): string {
  // an entry without a message has no tab either
  return `${e.old} ${e.new} ${e.who.name} <${e.who.email}> ${e.who.time} ${e.who.tz}${e.message ? `\t${e.message}` : ''}\n`;
}

/**
 * Append `old new ident\tmessage` to the logs of each ref (the message's
 * first line, normalised). `force` creates the log whatever the
 * configuration says (refs/stash's is always kept).
 */
export function logRefUpdate(ctx: Ctx, refs: string[], oldOid: string | null, newOid: string | null, message: string, force = false): void {
  const me = whoIs(ctx, 'committer');
  const line = formatEntry({ old: oldOid ?? ZERO_OID, new: newOid ?? ZERO_OID, who: me, message: normalizeMessage(message.split('\n')[0]) });
  for (const ref of refs) {
    const path = reflogPath(ctx, ref);
    if (!force && !wantsLog(ctx, ref, path)) continue;
    mkdirs(ctx, dirname(path));
    const prev = ctx.readText(path) ?? '';
    ctx.writeAtomic(path, prev + line);
  }
}

/** A ref's log, oldest first; empty when there is none. */
export function readReflog(ctx: Ctx, ref: string): ReflogEntry[] {
  const text = ctx.readText(reflogPath(ctx, ref)) ?? '';
  const out: ReflogEntry[] = [];
  for (const l of text.split('\n')) {
    const m = /^([0-9a-f]{40}) ([0-9a-f]{40}) ([^\t]*)(?:\t(.*))?$/.exec(l);
    if (m) out.push({ old: m[1], new: m[2], who: parseIdent(m[3]), message: m[4] ?? '' });
  }
  return out;
}

/** Replace a ref's log (entries oldest first). */
export function writeReflog(ctx: Ctx, ref: string, entries: ReflogEntry[]): void {
  ctx.writeAtomic(reflogPath(ctx, ref), entries.map(formatEntry).join(''));
}

export function hasReflog(ctx: Ctx, ref: string): boolean {
  return ctx.exists(reflogPath(ctx, ref));
}

/**
 * `HEAD detached at v1` / `HEAD detached from v1`: the name of the last
 * checkout from HEAD's reflog, "at" while HEAD is still where it went.
 */
export async function detachedLine(ctx: Ctx, store: Store, oid: string | null): Promise<string> {
  const lines = readReflog(ctx, 'HEAD').reverse();
  for (const l of lines) {
    const m = /^checkout: moving from \S+ to (\S+)$/.exec(l.message);
    if (!m) continue;
    const to = l.new;
    const name = m[1];
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
  let seen = 0;
  for (const l of readReflog(ctx, 'HEAD').reverse()) {
    const m = /^checkout: moving from (\S+) to (\S+)$/.exec(l.message);
    if (m && ++seen === n) return m[1];
  }
  return null;
}

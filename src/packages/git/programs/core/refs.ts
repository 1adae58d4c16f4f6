// Refs: HEAD, branches, tags and remote-tracking branches. Shared refs go
// through isomorphic-git (loose and packed refs alike, in the common
// directory); per-worktree refs — HEAD, pseudo-refs like ORIG_HEAD and
// CHERRY_PICK_HEAD, refs/bisect/ — live in this work tree's git directory
// and are read and written here, as git keeps them apart for linked work trees.

import * as git from 'isomorphic-git';
import { SysError } from '../../../../abi/errno.js';
import type { Ctx } from './ctx.js';
import { mkdirs } from './fsutil.js';
import { dirname } from './path.js';

export interface Head {
  /** `refs/heads/<name>`, or null when HEAD is detached. */
  ref: string | null;
  /** The commit HEAD names; null on an unborn branch. */
  oid: string | null;
}

const isNotFound = (e: unknown) => (e as { code?: string }).code === 'NotFoundError';

/** Refs each work tree has for itself: HEAD, `ORIG_HEAD`-style pseudo-refs, refs/bisect/, refs/worktree/, refs/rewritten/. */
export function isPerWorktree(ref: string): boolean {
  return /^[A-Z][A-Z0-9_]*$/.test(ref) || /^refs\/(bisect|worktree|rewritten)\//.test(ref);
}

/** A per-worktree ref's file content: an id or `ref: <target>`; null when missing. */
function readOwn(ctx: Ctx, ref: string): string | null {
  const text = ctx.readText(`${ctx.repo().gitdir}/${ref}`);
  if (text === null) return null;
  const t = text.trim();
  if (t.startsWith('ref: ')) return t;
  // FETCH_HEAD holds more than the id on its first line
  const m = /^[0-9a-f]{40}/.exec(t);
  return m ? m[0] : null;
}

export async function readHead(ctx: Ctx): Promise<Head> {
  const text = (ctx.readText(`${ctx.repo().gitdir}/HEAD`) ?? '').trim();
  if (text.startsWith('ref: ')) {
    const ref = text.slice(5).trim();
    return { ref, oid: await resolveRef(ctx, ref) };
  }
  return { ref: null, oid: /^[0-9a-f]{40}$/.test(text) ? text : null };
}

/** The object a ref names (full or short name, git's lookup order); null when missing. */
export async function resolveRef(ctx: Ctx, ref: string): Promise<string | null> {
  if (isPerWorktree(ref)) {
    const v = readOwn(ctx, ref);
    if (v !== null) return v.startsWith('ref: ') ? resolveRef(ctx, v.slice(5)) : v;
    // a missing pseudo-ref is missing (not the main work tree's); an upper-case branch name is looked up as usual
    if (ref.startsWith('refs/') || ref.endsWith('HEAD')) return null;
  }
  try {
    return await git.resolveRef({ ...ctx.iso(), ref });
  } catch (e) {
    if (isNotFound(e) || (e as { code?: string }).code === 'InvalidRefNameError') return null;
    throw e;
  }
}

/** The full name a short name resolves to (`master` → `refs/heads/master`); null when none. */
export async function expandRef(ctx: Ctx, ref: string): Promise<string | null> {
  if (isPerWorktree(ref) && readOwn(ctx, ref) !== null) return ref;
  try {
    const full = await git.expandRef({ ...ctx.iso(), ref });
    // isomorphic-git hands an object id back as it is; that names no ref
    return full.startsWith('refs/') || full === 'HEAD' ? full : null;
  } catch (e) {
    if (isNotFound(e)) return null;
    throw e;
  }
}

/** Where a per-worktree ref's file is. */
const ownPath = (ctx: Ctx, ref: string) => `${ctx.repo().gitdir}/${ref}`;

export async function writeRef(ctx: Ctx, ref: string, oid: string): Promise<void> {
  if (isPerWorktree(ref)) {
    mkdirs(ctx, dirname(ownPath(ctx, ref)));
    ctx.writeAtomic(ownPath(ctx, ref), `${oid}\n`);
    return;
  }
  await git.writeRef({ ...ctx.iso(), ref, value: oid, force: true });
}

export async function writeSymref(ctx: Ctx, ref: string, target: string): Promise<void> {
  if (isPerWorktree(ref)) {
    ctx.writeAtomic(ownPath(ctx, ref), `ref: ${target}\n`);
    return;
  }
  await git.writeRef({ ...ctx.iso(), ref, value: target, force: true, symbolic: true });
}

export async function deleteRef(ctx: Ctx, ref: string): Promise<void> {
  if (isPerWorktree(ref)) {
    try {
      ctx.sys.unlink(ownPath(ctx, ref));
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
    }
    return;
  }
  await git.deleteRef({ ...ctx.iso(), ref });
}

/** Every ref under `prefix` (`refs/`, `refs/heads/`, ...) with its id, sorted by name as git sorts them. */
export async function listRefs(ctx: Ctx, prefix = 'refs/'): Promise<{ name: string; oid: string }[]> {
  const names = new Set<string>();
  const shared = prefix.replace(/\/$/, '');
  for (const n of await git.listRefs({ ...ctx.iso(), filepath: shared })) names.add(`${shared}/${n}`);
  // per-worktree refs under refs/ (refs/bisect/...) live in this work tree's directory
  if (ctx.repo().gitdir !== ctx.repo().commondir) {
    for (const d of ['refs/bisect', 'refs/worktree', 'refs/rewritten']) {
      if (!(d + '/').startsWith(prefix) && !prefix.startsWith(d + '/')) continue;
      for (const n of await git.listRefs({ fs: ctx.fs, gitdir: ctx.repo().gitdir, filepath: d })) names.add(`${d}/${n}`);
    }
  }
  const out: { name: string; oid: string }[] = [];
  for (const name of [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!name.startsWith(prefix)) continue;
    const oid = await resolveRef(ctx, name);
    if (oid) out.push({ name, oid });
  }
  return out;
}

export async function branches(ctx: Ctx): Promise<string[]> {
  return (await git.listBranches(ctx.iso())).sort();
}

export async function remoteBranches(ctx: Ctx, remote: string): Promise<string[]> {
  return (await git.listBranches({ ...ctx.iso(), remote })).sort();
}

export async function tags(ctx: Ctx): Promise<string[]> {
  return (await git.listTags(ctx.iso())).sort();
}

export async function remotes(ctx: Ctx): Promise<{ remote: string; url: string }[]> {
  return git.listRemotes(ctx.iso());
}

/** git's rules for branch and tag names (check-ref-format). */
export function validRefName(name: string): boolean {
  if (name === '' || name === '@' || name.startsWith('-') || name.startsWith('/') || name.endsWith('/') || name.endsWith('.')) return false;
  if (name.includes('..') || name.includes('@{') || name.includes('//')) return false;
  // control characters, space and the characters revision syntax uses
  for (const ch of name) if (ch.charCodeAt(0) <= 0x20 || ch.charCodeAt(0) === 0x7f || '~^:?*[\\'.includes(ch)) return false;
  return name.split('/').every((c) => c !== '' && !c.startsWith('.') && !c.endsWith('.lock'));
}

// Refs: HEAD, branches, tags and remote-tracking branches, through
// isomorphic-git (loose and packed refs alike).

import * as git from 'isomorphic-git';
import type { Ctx } from './ctx.js';

export interface Head {
  /** `refs/heads/<name>`, or null when HEAD is detached. */
  ref: string | null;
  /** The commit HEAD names; null on an unborn branch. */
  oid: string | null;
}

const isNotFound = (e: unknown) => (e as { code?: string }).code === 'NotFoundError';

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
  try {
    return await git.resolveRef({ ...ctx.iso(), ref });
  } catch (e) {
    if (isNotFound(e) || (e as { code?: string }).code === 'InvalidRefNameError') return null;
    throw e;
  }
}

/** The full name a short name resolves to (`master` → `refs/heads/master`); null when none. */
export async function expandRef(ctx: Ctx, ref: string): Promise<string | null> {
  if (ref === 'HEAD') return 'HEAD';
  try {
    return await git.expandRef({ ...ctx.iso(), ref });
  } catch (e) {
    if (isNotFound(e)) return null;
    throw e;
  }
}

export async function writeRef(ctx: Ctx, ref: string, oid: string): Promise<void> {
  await git.writeRef({ ...ctx.iso(), ref, value: oid, force: true });
}

export async function writeSymref(ctx: Ctx, ref: string, target: string): Promise<void> {
  await git.writeRef({ ...ctx.iso(), ref, value: target, force: true, symbolic: true });
}

export async function deleteRef(ctx: Ctx, ref: string): Promise<void> {
  await git.deleteRef({ ...ctx.iso(), ref });
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

// The work trees of a repository: the main one and those linked to it
// (<common dir>/worktrees/<id>/ holding each one's HEAD, index, logs and a
// `gitdir` file pointing at its `.git` file), as worktree.c lists them.

import type { Ctx } from './ctx.js';
import { basename, dirname, resolve } from './path.js';

export interface WorktreeInfo {
  /** Absolute path of the work tree (the repository's for a bare main one). */
  path: string;
  /** Its git directory: the common directory, or worktrees/<id>. */
  gitdir: string;
  /** worktrees/<id>'s id; null for the main work tree. */
  id: string | null;
  bare: boolean;
  /** What HEAD names: an id, and the branch ref unless detached. */
  head: string | null;
  branch: string | null;
  locked: string | null;
  prunable: string | null;
}

function headOf(ctx: Ctx, gitdir: string, commondir: string): { head: string | null; branch: string | null } {
  const text = (ctx.readText(`${gitdir}/HEAD`) ?? '').trim();
  if (!text.startsWith('ref: ')) return { head: /^[0-9a-f]{40}$/.test(text) ? text : null, branch: null };
  const ref = text.slice(5);
  // a branch's id: loose or packed, in the common directory
  const loose = (ctx.readText(`${commondir}/${ref}`) ?? '').trim();
  if (/^[0-9a-f]{40}$/.test(loose)) return { head: loose, branch: ref };
  const packed = ctx.readText(`${commondir}/packed-refs`) ?? '';
  const m = new RegExp(`^([0-9a-f]{40}) ${ref.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm').exec(packed);
  return { head: m ? m[1] : null, branch: ref };
}

export function listWorktrees(ctx: Ctx): WorktreeInfo[] {
  const common = ctx.repo().commondir;
  const bare = ctx.configBool('core.bare', false) || (ctx.repo().dir === null && common === ctx.repo().gitdir);
  const mainPath = basename(common) === '.git' ? dirname(common) : common;
  const out: WorktreeInfo[] = [{ path: mainPath, gitdir: common, id: null, bare, ...headOf(ctx, common, common), locked: null, prunable: null }];
  let ids: string[] = [];
  try {
    ids = ctx.sys
      .readdir(`${common}/worktrees`)
      .map((e) => e.name)
      .filter((n) => n !== '.' && n !== '..')
      .sort();
  } catch {
    return out;
  }
  for (const id of ids) {
    const admin = `${common}/worktrees/${id}`;
    const gitfile = (ctx.readText(`${admin}/gitdir`) ?? '').trim();
    const path = gitfile ? dirname(resolve(admin, gitfile)) : '';
    let prunable: string | null = null;
    if (!gitfile) prunable = 'gitdir file does not exist';
    else if (!ctx.exists(resolve(admin, gitfile))) prunable = 'gitdir file points to non-existent location';
    const locked = ctx.readText(`${admin}/locked`);
    out.push({ path, gitdir: admin, id, bare: false, ...headOf(ctx, admin, common), locked: locked === null ? null : locked.trim(), prunable: locked === null ? prunable : null });
  }
  return out;
}

/** The work tree (other than this one) that has `ref` checked out, if any. */
export function checkedOutElsewhere(ctx: Ctx, ref: string): WorktreeInfo | null {
  const me = ctx.repo().gitdir;
  return listWorktrees(ctx).find((w) => w.branch === ref && w.gitdir !== me && !w.bare) ?? null;
}

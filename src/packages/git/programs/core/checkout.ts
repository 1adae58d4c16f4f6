// Moving the working tree and the index from one tree to another: branch
// switches (which carry local changes along and refuse to lose them, as
// git's two-way merge does), hard resets, and writing single paths.

import { SysError } from '../../../../abi/errno.js';
import { S_IFDIR, S_IFMT } from '../../../../abi/stat.js';
import type { Ctx } from './ctx.js';
import { makeEntry, reindex, type GitIndex } from './index-file.js';
import type { FlatTree, Store, TreeItem } from './objects.js';
import { dirname } from './path.js';
import { Worktree, MODE_EXEC, MODE_GITLINK, MODE_LINK } from './worktree.js';

const same = (a: TreeItem | undefined, b: TreeItem | undefined) => (!a && !b) || (!!a && !!b && a.oid === b.oid && a.mode === b.mode);

export interface Conflicts {
  /** Tracked files with changes the switch would lose. */
  local: string[];
  /** Untracked files the switch would overwrite. */
  untracked: string[];
}

/** Write one blob to the working tree (replacing what is there), creating directories. */
export async function writeWorkFile(ctx: Ctx, store: Store, top: string, path: string, item: TreeItem): Promise<void> {
  const abs = `${top}/${path}`;
  mkdirp(ctx, top, dirname(path));
  removePath(ctx, abs);
  if (item.mode === MODE_GITLINK) {
    ctx.sys.mkdir(abs, 0o777);
    return;
  }
  const data = await store.blob(item.oid);
  if (item.mode === MODE_LINK) ctx.sys.symlink(new TextDecoder().decode(data), abs);
  else ctx.sys.writeFile(abs, data, item.mode === MODE_EXEC ? 0o777 : 0o666);
}

function mkdirp(ctx: Ctx, top: string, rel: string): void {
  if (rel === '') return;
  let cur = top;
  for (const part of rel.split('/')) {
    cur += `/${part}`;
    let st = null;
    try {
      st = ctx.sys.lstat(cur);
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
    }
    if (st && (st.mode & S_IFMT) === S_IFDIR) continue;
    if (st) ctx.sys.unlink(cur);
    ctx.sys.mkdir(cur, 0o777);
  }
}

/** Remove a file (or an empty directory) if present. */
function removePath(ctx: Ctx, abs: string): void {
  try {
    const st = ctx.sys.lstat(abs);
    if ((st.mode & S_IFMT) === S_IFDIR) ctx.sys.rmdir(abs);
    else ctx.sys.unlink(abs);
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
  }
}

/** Delete a tracked file and then its directories as they become empty. */
export function deleteWorkFile(ctx: Ctx, top: string, path: string): void {
  removePath(ctx, `${top}/${path}`);
  for (let d = dirname(path); d !== ''; d = dirname(d)) {
    try {
      ctx.sys.rmdir(`${top}/${d}`);
    } catch {
      break;
    }
  }
}

/** Record a path's stage-0 entry with fresh stat data (or drop it). */
export function setEntry(ctx: Ctx, idx: GitIndex, top: string, path: string, item: TreeItem | null): void {
  idx.entries = idx.entries.filter((e) => e.path !== path);
  if (item) {
    let st = null;
    try {
      st = ctx.sys.lstat(`${top}/${path}`);
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
    }
    idx.entries.push(makeEntry(path, item.mode, item.oid, st));
  }
}

/**
 * What a switch from `from` (HEAD) to `to` would clobber: staged or
 * unstaged changes to paths the switch changes, and untracked files in
 * the way. Paths equal in both trees keep their local state.
 */
export async function switchConflicts(ctx: Ctx, wt: Worktree, idx: GitIndex, from: FlatTree, to: FlatTree): Promise<Conflicts> {
  const c: Conflicts = { local: [], untracked: [] };
  const paths = new Set([...from.keys(), ...to.keys(), ...idx.byPath.keys()]);
  for (const p of [...paths].sort()) {
    const h = from.get(p);
    const t = to.get(p);
    if (same(h, t)) continue;
    const i = idx.byPath.get(p);
    const f = wt.files.get(p);
    const w = f ? { mode: wt.modeOf(f), oid: await wt.oidOf(f) } : undefined;
    if (i) {
      if (!same(i, h) && !same(i, t)) c.local.push(p);
      else if (!same(w, i) && !same(w, t)) c.local.push(p);
    } else if (h) {
      // deleted in the index: fine only if the target drops it too
      if (t) c.local.push(p);
    } else if (t) {
      // not tracked: a file of the same name in the way?
      let st = null;
      try {
        st = ctx.sys.lstat(`${wt.top}/${p}`);
      } catch (e) {
        if (!(e instanceof SysError)) throw e;
      }
      if (st && (st.mode & S_IFMT) !== S_IFDIR) c.untracked.push(p);
    }
  }
  return c;
}

/** Apply a switch from `from` to `to`: only the paths that differ between them change. */
export async function applySwitch(ctx: Ctx, store: Store, top: string, idx: GitIndex, from: FlatTree, to: FlatTree): Promise<void> {
  const paths = new Set([...from.keys(), ...to.keys()]);
  const sorted = [...paths].sort();
  // deletions first, so a file can become a directory
  for (const p of sorted) {
    if (same(from.get(p), to.get(p)) || to.has(p)) continue;
    deleteWorkFile(ctx, top, p);
    setEntry(ctx, idx, top, p, null);
  }
  for (const p of sorted) {
    const t = to.get(p);
    if (!t || same(from.get(p), t)) continue;
    const i = idx.byPath.get(p);
    if (!same(i, t) || !ctx.exists(`${top}/${p}`)) await writeWorkFile(ctx, store, top, p, t);
    setEntry(ctx, idx, top, p, t);
  }
  reindex(idx);
}

/** Make the index and the working tree exactly `to` (reset --hard): tracked files not in it go. */
export async function applyHard(ctx: Ctx, store: Store, top: string, idx: GitIndex, to: FlatTree): Promise<void> {
  const wt = new Worktree(ctx, top, idx).trackedOnly();
  const tracked = new Set([...idx.byPath.keys(), ...idx.unmerged.keys()]);
  for (const p of [...tracked].sort()) {
    if (to.has(p)) continue;
    deleteWorkFile(ctx, top, p);
  }
  idx.entries = idx.entries.filter((e) => e.stage === 0 && to.has(e.path));
  reindex(idx);
  for (const [p, t] of [...to].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const i = idx.byPath.get(p);
    const f = wt.files.get(p);
    const clean = f && same(i, t) && wt.modeOf(f) === t.mode && (await wt.oidOf(f)) === t.oid;
    if (!clean) await writeWorkFile(ctx, store, top, p, t);
    if (!clean || !i) setEntry(ctx, idx, top, p, t);
  }
  reindex(idx);
}

/** Set index entries to a tree's versions for some paths (reset/restore --staged), keeping the rest. */
export function resetIndexPaths(idx: GitIndex, to: FlatTree, paths: Iterable<string>): void {
  for (const p of paths) {
    const t = to.get(p);
    const i = idx.byPath.get(p);
    idx.entries = idx.entries.filter((e) => e.path !== p);
    if (!t) continue;
    // keep the stat data when the entry does not change, so status stays fast
    if (i && same(i, t)) idx.entries.push(i);
    else idx.entries.push(makeEntry(p, t.mode, t.oid, null));
  }
  reindex(idx);
}

/**
 * `reset --merge` (oneway) and `reset --keep` (twoway from `head`): move the
 * index and the files that change to `to`, keeping local changes in paths
 * the reset does not touch. Returns git's complaints instead when a local
 * change would be lost (then nothing has been changed).
 */
export async function applyResetMerge(ctx: Ctx, store: Store, top: string, idx: GitIndex, head: FlatTree, to: FlatTree, keep: boolean): Promise<string[]> {
  const wt = new Worktree(ctx, top, idx).trackedOnly();
  const paths = [...new Set([...idx.byPath.keys(), ...idx.unmerged.keys(), ...to.keys(), ...(keep ? head.keys() : [])])].sort();
  const upToDate = async (p: string) => {
    const i = idx.byPath.get(p);
    const f = wt.files.get(p);
    if (!f) return !ctx.exists(`${top}/${p}`);
    return !!i && wt.modeOf(f) === i.mode && (await wt.oidOf(f)) === i.oid;
  };
  const plan: [string, TreeItem | null][] = [];
  const errors: string[] = [];
  for (const p of paths) {
    const t = to.get(p);
    const i = idx.byPath.get(p);
    if (idx.unmerged.has(p)) {
      if (keep && !same(head.get(p), t)) {
        errors.push(`Entry '${p}' would be overwritten by merge. Cannot merge.`);
        continue;
      }
      plan.push([p, t ?? null]);
      continue;
    }
    if (keep) {
      const h = head.get(p);
      // twoway_merge: the index keeps what the reset does not change
      if (same(h, t) || (!h && i && same(i, t)) || (h && t && same(i, t))) continue;
      if (!i && !h && !t) continue;
      if (i && !same(i, h)) {
        errors.push(`Entry '${p}' would be overwritten by merge. Cannot merge.`);
        continue;
      }
      if (!i && h) {
        errors.push(`Entry '${p}' would be overwritten by merge. Cannot merge.`);
        continue;
      }
    } else if (i && same(i, t)) continue;
    if (i && !(await upToDate(p))) {
      errors.push(`Entry '${p}' not uptodate. Cannot merge.`);
      continue;
    }
    if (!i && t && ctx.exists(`${top}/${p}`)) {
      errors.push(`Untracked working tree file '${p}' would be overwritten by merge.`);
      continue;
    }
    plan.push([p, t ?? null]);
  }
  if (errors.length) return errors;
  for (const [p, t] of plan) if (!t) deleteWorkFile(ctx, top, p);
  for (const [p, t] of plan) {
    idx.entries = idx.entries.filter((e) => e.path !== p);
    if (!t) continue;
    await writeWorkFile(ctx, store, top, p, t);
    setEntry(ctx, idx, top, p, t);
  }
  reindex(idx);
  return [];
}

// A three-way merge of trees the way git's "ort" strategy merges them
// (without rename detection): per path, the side that changed wins, both
// changed means a content merge (merge3, git's markers and labels), and
// what cannot be merged becomes a conflict — stages 1-3 for the index, a
// version for the work tree, and ort's messages, in path order.
//
// Then, as merge_switch_to_result does, the result is checked out over the
// current work tree: paths the merge changes must not hold local changes.

import { SysError } from '../../../../abi/errno.js';
import { S_IFMT, S_IFREG } from '../../../../abi/stat.js';
import { merge3 } from '../diff/merge3.js';
import { applySwitch, switchConflicts } from './checkout.js';
import type { Ctx } from './ctx.js';
import { makeEntry, reindex, type GitIndex } from './index-file.js';
import type { FlatTree, Store, TreeItem } from './objects.js';
import { writeTree } from './trees.js';
import { Worktree } from './worktree.js';

export interface Labels {
  /** Usually `HEAD`. */
  ours: string;
  /** `abc1234 (subject)`, a branch name, `Stashed changes`, ... */
  theirs: string;
}

export interface Conflict {
  /** Stages 1 (base), 2 (ours), 3 (theirs); absent sides missing. */
  stages: [TreeItem | undefined, TreeItem | undefined, TreeItem | undefined];
  /** What the work tree gets (markers, or the side left in tree). */
  work: TreeItem;
}

export interface MergeOutcome {
  /** The merged tree's stage-0 paths, conflicted ones excluded. */
  clean: FlatTree;
  conflicts: Map<string, Conflict>;
  /** ort's messages (stdout), in path order. */
  messages: string[];
}

const same = (a?: TreeItem, b?: TreeItem) => (!a && !b) || (!!a && !!b && a.oid === b.oid && a.mode === b.mode);
const latin1 = (b: Uint8Array) => {
  let s = '';
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return s;
};
const fromLatin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const isBinary = (b: Uint8Array) => b.subarray(0, 8000).includes(0);

export class MergeUnsupported extends Error {}

/** Merge `ours` and `theirs`, both descended from `base`; writes merged blobs. */
export async function mergeTrees(store: Store, base: FlatTree, ours: FlatTree, theirs: FlatTree, labels: Labels): Promise<MergeOutcome> {
  const out: MergeOutcome = { clean: new Map(), conflicts: new Map(), messages: [] };
  const paths = [...new Set([...base.keys(), ...ours.keys(), ...theirs.keys()])].sort();
  for (const p of paths) {
    const b = base.get(p);
    const x = ours.get(p);
    const y = theirs.get(p);
    if (same(x, y) || same(y, b)) {
      if (x) out.clean.set(p, x);
      continue;
    }
    if (same(x, b)) {
      if (y) out.clean.set(p, y);
      continue;
    }
    if (x && y) {
      if ((x.mode & S_IFMT) !== (y.mode & S_IFMT)) throw new MergeUnsupported(`${p} has different types on each side`);
      // modes: a side that kept the base's mode takes the other's
      const modeClean = x.mode === y.mode || x.mode === b?.mode || y.mode === b?.mode;
      const mode = x.mode === y.mode || x.mode === b?.mode ? y.mode : x.mode;
      const stages: Conflict['stages'] = [b, x, y];
      if (x.oid === y.oid || x.oid === b?.oid || y.oid === b?.oid) {
        const oid = x.oid === y.oid || x.oid === b?.oid ? y.oid : x.oid;
        if (modeClean) out.clean.set(p, { mode, oid });
        else {
          out.messages.push(`CONFLICT (content): Merge conflict in ${p}`);
          out.conflicts.set(p, { stages, work: { mode, oid } });
        }
        continue;
      }
      if ((x.mode & S_IFMT) !== S_IFREG) {
        // symlinks (and submodules) cannot be merged: ours stays
        out.messages.push(`CONFLICT (content): Merge conflict in ${p}`);
        out.conflicts.set(p, { stages, work: x });
        continue;
      }
      // a base of another type does not count: a two-way merge
      const bb = b && (b.mode & S_IFMT) === S_IFREG ? await store.blob(b.oid) : new Uint8Array(0);
      const xb = await store.blob(x.oid);
      const yb = await store.blob(y.oid);
      const reason = b ? 'content' : 'add/add';
      if (isBinary(bb) || isBinary(xb) || isBinary(yb)) {
        out.messages.push(`warning: Cannot merge binary files: ${p} (${labels.ours} vs. ${labels.theirs})`, `Auto-merging ${p}`, `CONFLICT (${reason}): Merge conflict in ${p}`);
        out.conflicts.set(p, { stages, work: { mode, oid: x.oid } });
        continue;
      }
      const m = merge3(latin1(bb), latin1(xb), latin1(yb), labels.ours, labels.theirs);
      const oid = await store.write('blob', fromLatin1(m.text));
      out.messages.push(`Auto-merging ${p}`);
      if (m.conflicts === 0 && modeClean) out.clean.set(p, { mode, oid });
      else {
        out.messages.push(`CONFLICT (${reason}): Merge conflict in ${p}`);
        out.conflicts.set(p, { stages, work: { mode, oid } });
      }
      continue;
    }
    // modified on one side, deleted on the other
    if (!x && y) {
      out.messages.push(`CONFLICT (modify/delete): ${p} deleted in ${labels.ours} and modified in ${labels.theirs}.  Version ${labels.theirs} of ${p} left in tree.`);
      out.conflicts.set(p, { stages: [b, undefined, y], work: y });
    } else if (x) {
      out.messages.push(`CONFLICT (modify/delete): ${p} deleted in ${labels.theirs} and modified in ${labels.ours}.  Version ${labels.ours} of ${p} left in tree.`);
      out.conflicts.set(p, { stages: [b, x, undefined], work: x });
    }
  }
  // a file where the other side has a directory: ort renames one of them away, which is not done here
  const all = new Set([...out.clean.keys(), ...out.conflicts.keys()]);
  for (const p of all) {
    for (let i = p.indexOf('/'); i >= 0; i = p.indexOf('/', i + 1)) {
      if (all.has(p.slice(0, i))) throw new MergeUnsupported(`${p.slice(0, i)} is a file on one side and a directory on the other`);
    }
  }
  return out;
}

/** The tree as the work tree will hold it: clean paths plus the conflicted files' work versions (git's AUTO_MERGE). */
export function workTreeOf(m: MergeOutcome): FlatTree {
  const t: FlatTree = new Map(m.clean);
  for (const [p, c] of m.conflicts) t.set(p, c.work);
  return t;
}

/** The merged tree when there are no conflicts. */
export async function cleanTree(store: Store, m: MergeOutcome): Promise<string> {
  return writeTree(store, m.clean);
}

export interface SwitchFailure {
  local: string[];
  untracked: string[];
}

/**
 * Check the merge result out over the work tree (from `head`, which the
 * index matches), record the conflicts in the index and write AUTO_MERGE.
 * Returns what would be overwritten instead when local changes are in the
 * way (nothing is touched then).
 */
export async function checkoutMerge(ctx: Ctx, store: Store, head: FlatTree, m: MergeOutcome, idx: GitIndex): Promise<SwitchFailure | null> {
  const top = ctx.worktree().dir;
  const to = workTreeOf(m);
  const wt = new Worktree(ctx, top, idx).trackedOnly();
  const c = await switchConflicts(ctx, wt, idx, head, to);
  if (c.local.length || c.untracked.length) return c;
  await applySwitch(ctx, store, top, idx, head, to);
  for (const [p, conflict] of m.conflicts) {
    idx.entries = idx.entries.filter((e) => e.path !== p);
    conflict.stages.forEach((item, i) => {
      if (item) idx.entries.push(makeEntry(p, item.mode, item.oid, null, i + 1));
    });
  }
  reindex(idx);
  await ctx.writeIndex(idx);
  // the merged tree, conflicted files as they are in the work tree (ort writes it for every merge it checks out)
  ctx.sys.writeFile(`${ctx.repo().gitdir}/AUTO_MERGE`, `${await writeTree(store, to)}\n`);
  return null;
}

/** git's "would be overwritten" errors for a failed checkout of a merge. */
export function reportOverwrite(ctx: Ctx, f: SwitchFailure, what = 'merge'): void {
  if (f.local.length) ctx.error(`Your local changes to the following files would be overwritten by ${what}:\n${f.local.map((p) => `\t${p}\n`).join('')}Please commit your changes or stash them before you ${what}.`);
  if (f.untracked.length) ctx.error(`The following untracked working tree files would be overwritten by ${what}:\n${f.untracked.map((p) => `\t${p}\n`).join('')}Please move or remove them before you ${what}.`);
  ctx.err('Aborting\n');
}

export function removeFile(ctx: Ctx, path: string): void {
  try {
    ctx.sys.unlink(path);
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
  }
}
